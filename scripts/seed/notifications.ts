import type { SeedStep } from './types';

/**
 * The notifications the demo's friend requests would have caused: a 'friend.request' to the
 * addressee of each pending request, and a 'friend.accepted' to the requester of each friendship
 * accepted in the last 60 days (read, unless accepted this week). Runs after the connections step;
 * the connection id is the once-key, so a second run adds nothing.
 */
export const seedNotifications: SeedStep = async (ctx) => {
  const ids = ctx.members.map((m) => m.id);
  const requests = await ctx.database.query(
    `insert into notifications (recipient_id, type, actor_id, subject_type, subject_id, once_key,
       created_at, updated_at)
     select c.addressee_id, 'friend.request', c.requester_id, 'connection', c.id::text,
       'seed:' || c.id::text, c.created_at, c.created_at
     from connections c
     where c.status = 'pending' and c.addressee_id = any($1::text[])
     on conflict do nothing returning id`,
    [ids],
  );
  const accepted = await ctx.database.query(
    `insert into notifications (recipient_id, type, actor_id, subject_type, subject_id, data,
       once_key, read_at, created_at, updated_at)
     select c.requester_id, 'friend.accepted', c.addressee_id, 'connection', c.id::text,
       jsonb_build_object('userId', c.addressee_id), 'seed:' || c.id::text,
       case when c.updated_at < now() - interval '7 days' then c.updated_at end,
       c.updated_at, c.updated_at
     from connections c
     where c.status = 'accepted' and c.updated_at > now() - interval '60 days'
       and c.requester_id = any($1::text[])
     on conflict do nothing returning id`,
    [ids],
  );
  ctx.log(`notifications: ${requests.length + accepted.length} created`);
};
