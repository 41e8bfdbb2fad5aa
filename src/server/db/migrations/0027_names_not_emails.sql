-- A member never appears to others under their e-mail's local part. Sign-up used to fill an
-- empty display name with it; those names were never chosen. They become the member's own
-- username where there is one, else empty: the member is then asked for a display name and a
-- username before anything else (Me.needsProfile). Deleted members are already blank.
update users
   set display_name = coalesce(display_username, username::text, '')
 where display_name <> ''
   and lower(display_name) = lower(split_part(email::text, '@', 1));

-- Nobody appears nameless to others meanwhile: a member left without any name (no username)
-- goes by a neutral handle made from their id until they choose one (they are asked at once).
update users
   set display_name = 'lettore_' || substr(md5(id::text), 1, 6)
 where display_name = ''
   and account_status <> 'deleted';
