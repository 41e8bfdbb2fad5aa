import { randomUUID } from 'node:crypto';
import type { Query } from '../../db/tx';
import { erasePayments } from '../payments';

/**
 * "Delete my account" (GDPR article 17), run inside one transaction by the caller. The users row
 * stays, emptied and marked 'deleted', so that what others keep (messages in their conversations,
 * their transaction history) still points at someone, shown as "Deleted member"; everything the
 * member made for others to read goes, and nothing that names them (e-mail, name, username,
 * avatar) stays in any table. `activeMember` (platform/moderation/members.ts) then hides them
 * from every list, like a suspended member.
 *
 * Answers every file the member uploaded (avatar, covers, post and ad images, unused uploads,
 * and those other members' records point at), for the caller to delete after commit; the records
 * that showed one of them stop pointing at it.
 */
export async function eraseMember(q: Query, userId: string): Promise<{ files: string[] }> {
  const [member] = await q<{
    email: string;
    email_verified: boolean;
    display_name: string;
    username: string | null;
    display_username: string | null;
    avatar_url: string | null;
  }>(
    `select email::text as email, email_verified, display_name, username::text as username,
       display_username, avatar_url
     from users where id = $1 and account_status <> 'deleted' for update`,
    [userId],
  );
  if (!member) return { files: [] };

  // Every file this member uploaded goes, whoever shows it; a file another member uploaded
  // stays, even where this member's records showed it.
  const files = (
    await q<{ url: string }>('delete from uploads where owner_id = $1 returning url', [userId])
  ).map((r) => r.url);
  if (files.length) {
    await q('update users set avatar_url = null where avatar_url = any($1::text[])', [files]);
    await q('update books set cover_url = null where cover_url = any($1::text[])', [files]);
    await q('update community_posts set image_url = null where image_url = any($1::text[])', [
      files,
    ]);
    await q(
      `update book_listings set cover_url = case when cover_url = any($1::text[]) then null
           else cover_url end,
         images = array(select i from unnest(images) as i where not i = any($1::text[]))
       where cover_url = any($1::text[]) or images && $1::text[]`,
      [files],
    );
    await q(
      `update book_advertisements set cover_image_url = case
           when cover_image_url = any($1::text[]) then null else cover_image_url end,
         promotional_images = array(select i from unnest(promotional_images) as i
           where not i = any($1::text[]))
       where cover_image_url = any($1::text[]) or promotional_images && $1::text[]`,
      [files],
    );
  }

  // Listings others still see in their history (a transaction, an offer, a card or the subject
  // of a conversation) are kept as bare records (title, author, price), hidden and emptied of
  // everything else; the rest are deleted.
  const kept = `(exists (select 1 from transactions t where t.listing_id = l.id)
      or exists (select 1 from offers o where o.listing_id = l.id)
      or exists (select 1 from chat_messages m where m.listing_id = l.id)
      or exists (select 1 from chat_rooms r where r.listing_id = l.id))`;

  // Notifications to and from them, and about what they made.
  await q(
    `delete from notifications where recipient_id = $1 or actor_id = $1
       or subject_id in (
         select id::text from book_listings where user_id = $1
         union all select id::text from community_posts where user_id = $1
         union all select id::text from post_comments where user_id = $1
         union all select id::text from connections where requester_id = $1 or addressee_id = $1
         union all select id::text from offers where buyer_id = $1 or seller_id = $1
         union all select id::text from book_advertisements where author_id = $1
         union all select $1)`,
    [userId],
  );
  for (const table of [
    'notification_settings',
    'notification_digests',
    'chat_email_notices',
    'realtime_presence',
    'wishlist_items',
    'wishlists',
    'listing_watches',
    'saved_search_matches',
    'saved_search_digests',
    'saved_searches',
    'member_holidays',
    'member_addresses',
    'post_reactions',
    'comment_reactions',
    'post_comments',
    'community_posts',
    'admins',
    'sessions',
    'accounts',
  ])
    await q(`delete from ${table} where user_id = $1`, [userId]);
  // Others' watches and saved-search finds of their listings (the kept bare records too).
  for (const table of ['listing_watches', 'saved_search_matches'])
    await q(
      `delete from ${table} where listing_id in (select id from book_listings where user_id = $1)`,
      [userId],
    );
  await q('delete from connections where requester_id = $1 or addressee_id = $1', [userId]);
  await q('delete from blocks where blocker_id = $1 or blocked_id = $1', [userId]);
  await q('delete from reviews where author_id = $1 or subject_id = $1', [userId]);
  await q('delete from ad_book_reviews where reviewer_id = $1', [userId]);
  await q('delete from book_advertisements where author_id = $1', [userId]);
  await q(
    `update offers set status = 'withdrawn', answered_at = coalesce(answered_at, now())
     where (buyer_id = $1 or seller_id = $1) and status in ('pending', 'accepted')`,
    [userId],
  );
  await q(
    `update book_listings l set hidden_at = coalesce(l.hidden_at, now()),
       status = case when l.status in ('sold', 'traded') then l.status else 'unavailable' end,
       description = null, images = '{}', cover_url = null, location = null,
       shipping_address = '{}', updated_at = now()
     where l.user_id = $1 and ${kept}`,
    [userId],
  );
  await q(`delete from book_listings l where l.user_id = $1 and not ${kept}`, [userId]);

  // better-auth's tokens (password reset: value is the user id; e-mail change: the address).
  // The whole address only, never as part of another one: 'a@b.it' is inside 'ya@b.it'.
  await q(
    `delete from verifications
     where value = $1 or lower(identifier) = lower($2) or lower(value) = lower($2)
       or right(lower(identifier), length($2) + 1) = ':' || lower($2)
       or strpos(lower(value), '"' || lower($2) || '"') > 0`,
    [userId, member.email],
  );
  // E-mails in the local outbox to them or naming them (as the sender of a chat message, the
  // actor of a notification), by the records the mailer kept: a text search would also hit
  // every other e-mail that happens to contain their name.
  await q(`delete from mail_outbox where lower("to") = lower($1) or $2 = any(about_user_ids)`, [
    member.email,
    userId,
  ]);
  // The payments ledger stays, as the law requires, naming them by a pseudonym (issue 36).
  await erasePayments(q, userId);
  const placeholderEmail = `deleted-${randomUUID()}@deleted.invalid`;
  // What was sent under their address without an account (contact messages, reports as a
  // visitor) is theirs only once they proved the address is: anyone can sign up with any e-mail.
  if (member.email_verified) {
    await q('delete from contact_messages where lower(email) = lower($1)', [member.email]);
    await q('delete from mail_outbox where lower(reply_to) = lower($1)', [member.email]);
    // Reports they sent as a visitor stay for the moderators, unsigned.
    await q(
      `update reports set reporter_email = $2, reporter_name = '-'
       where reporter_id is null and lower(reporter_email::text) = lower($1)`,
      [member.email, placeholderEmail],
    );
  }
  await q(
    `update users set email = $2, email_verified = false, display_name = '',
       username = $3, display_username = null, avatar_url = null, first_name = null,
       last_name = null, bio = null, location_city = null, location_country = null, phone = null,
       date_of_birth = null, privacy_level = 'private', email_notifications = false,
       push_notifications = false, last_seen_at = null, account_status = 'deleted',
       updated_at = now()
     where id = $1`,
    [userId, placeholderEmail, `deleted_${randomUUID().replace(/-/g, '').slice(0, 12)}`],
  );

  return { files };
}
