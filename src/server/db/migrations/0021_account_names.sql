-- A member's @name is coalesce(display_username, username). better-auth's own routes let a member
-- set display_username to anything, even another member's username. From now on it may differ
-- from the username only in letter case (the case the member typed). Rows that differ take their
-- own username back (none at all when they have no username); every row stays.
update users set display_username = username::text
  where display_username is not null
    and (username is null or lower(display_username) <> lower(username::text));

alter table users drop constraint if exists users_display_username_is_username;
alter table users add constraint users_display_username_is_username
  check (display_username is null
         or (username is not null and lower(display_username) = lower(username::text)));

-- Names lose the invisible controls that make them read as something else (bidirectional
-- overrides, isolates and marks, zero-width spaces, control characters), as the app now strips
-- them on input (src/shared/names.ts). A display name left empty becomes the e-mail's local part,
-- as at sign-up; an emptied first or last name becomes no name.
update users set display_name = coalesce(
    nullif(btrim(regexp_replace(display_name,
      '[\u0001-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]',
      '', 'g')), ''),
    left(split_part(email::text, '@', 1), 50))
  where display_name ~ '[\u0001-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]';

update users set first_name = nullif(btrim(regexp_replace(first_name,
      '[\u0001-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]',
      '', 'g')), '')
  where first_name ~ '[\u0001-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]';

update users set last_name = nullif(btrim(regexp_replace(last_name,
      '[\u0001-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]',
      '', 'g')), '')
  where last_name ~ '[\u0001-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]';
