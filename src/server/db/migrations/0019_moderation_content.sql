-- Moderation of the community and of advertisements (issue 12, parts 3 and 4): posts and comments
-- hidden by a moderator, ads rejected with a reason, posts pinned by admins, and the new actions
-- of the audit log.

-- A post or comment hidden by a moderator is 'removed' (an author's own deletion stays
-- 'hidden'): every list, count, index and trigger already reads only 'published', and a restore
-- brings back exactly what a moderator hid, never what its author deleted.
alter table community_posts drop constraint community_posts_status_check;
alter table community_posts add constraint community_posts_status_check
  check (status in ('published', 'hidden', 'removed'));
alter table post_comments drop constraint post_comments_status_check;
alter table post_comments add constraint post_comments_status_check
  check (status in ('published', 'hidden', 'removed'));
-- A top comment hidden by a moderator takes its published replies with it; they remember which
-- comment took them, so restoring it brings back those replies only.
alter table post_comments add column removed_with uuid;

-- Pinned posts (is_pinned exists since 0013): at most a few, first in the feed, newest pin first.
alter table community_posts add column pinned_at timestamptz;
create index community_posts_pinned_idx
  on community_posts (pinned_at desc, id) where is_pinned and status = 'published';

-- A rejected ad keeps the moderator's reason for its author (the audit log keeps it too).
alter table book_advertisements add column rejection_reason text
  check (char_length(rejection_reason) <= 2000);
alter table book_advertisements add column rejected_at timestamptz;

-- The audit log's new actions: reject an ad, pin and unpin a post.
alter table moderation_log drop constraint moderation_log_action_check;
alter table moderation_log add constraint moderation_log_action_check check (action in
  ('dismiss', 'hide', 'restore', 'suspend', 'unsuspend', 'grant_admin', 'revoke_admin',
   'reject', 'pin', 'unpin'));
