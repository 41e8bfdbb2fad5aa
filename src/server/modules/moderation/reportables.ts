/**
 * The reportable kinds of the features already on main: listings, members' profiles and chat
 * messages. Posts, comments and ads register theirs in their own modules with the same call.
 */
import {
  defineReportable,
  type ModerationQuery,
  type ReportableView,
  ownerOfRow,
  changedRow,
} from '../../platform/moderation';
import type { Realtime } from '../../platform/realtime';
import { isUuid } from '@shared/schemas/common';
import { createListingAnnouncer } from '../chats';
import { announceAvailability } from '../wishlist';

const uuids = (ids: string[]) => ids.filter((id) => isUuid(id));
const EXCERPT_MAX = 300;
export const excerpt = (s: string | null | undefined) => {
  const text = (s ?? '').trim();
  return text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX)}…` : text;
};

/** Ends every session of a member: their cookies stop working on the next request. */
export async function endSessions(query: ModerationQuery, userId: string) {
  await query('delete from sessions where user_id = $1', [userId]);
}

export const listingReportable = defineReportable({
  kind: 'listing',
  async load(query, ids, viewer) {
    const rows = await query<{
      id: string;
      title: string;
      author: string;
      description: string | null;
      user_id: string;
      display_name: string;
      hidden: boolean;
      active: boolean;
    }>(
      `select l.id, l.title, l.author, l.description, l.user_id, u.display_name,
         l.hidden_at is not null as hidden, u.account_status = 'active' as active
       from book_listings l join users u on u.id = l.user_id where l.id = any($1::uuid[])`,
      [uuids(ids)],
    );
    const out = new Map<string, ReportableView>();
    for (const r of rows) {
      if (!viewer.moderator && (r.hidden || !r.active)) continue;
      out.set(r.id, {
        id: r.id,
        title: `${r.title} — ${r.author}`,
        excerpt: excerpt(r.description),
        authorId: r.user_id,
        authorName: r.display_name,
        link: `/library/book/${r.id}`,
        hidden: r.hidden,
      });
    }
    return out;
  },
  hide: (query, id) =>
    changedRow(
      query,
      id,
      `update book_listings set hidden_at = coalesce(hidden_at, now()) where id = $1 returning id`,
    ),
  restore: (query, id) =>
    changedRow(query, id, 'update book_listings set hidden_at = null where id = $1 returning id'),
  ownerOf: (query, id) =>
    ownerOfRow(query, id, 'select user_id as owner from book_listings where id = $1'),
  // The conversations about it show it unavailable (hidden) or as it is again (restored), and
  // its book's wishers see "available now" follow.
  async changed(id, { realtime, query }) {
    if (!realtime) return;
    await createListingAnnouncer({ realtime: realtime as Realtime, query }).announce(id);
    await announceAvailability({ query }, realtime as Realtime, id);
  },
});

/** A member's profile. Hiding a profile is suspending its member: the member is the profile. */
export const profileReportable = defineReportable({
  kind: 'profile',
  async load(query, ids, viewer) {
    const rows = await query<{
      id: string;
      display_name: string;
      username: string | null;
      bio: string | null;
      status: string;
    }>(
      `select id, display_name, username::text as username, bio, account_status as status
       from users where id = any($1::text[])`,
      [ids],
    );
    const out = new Map<string, ReportableView>();
    for (const r of rows) {
      if (!viewer.moderator && r.status !== 'active') continue;
      out.set(r.id, {
        id: r.id,
        title: r.username ? `${r.display_name} (@${r.username})` : r.display_name,
        excerpt: excerpt(r.bio),
        authorId: r.id,
        authorName: r.display_name,
        link: `/user/${r.id}`,
        hidden: r.status === 'suspended',
      });
    }
    return out;
  },
  async hide(query, id) {
    const rows = await query(
      `update users set account_status = 'suspended', updated_at = now()
       where id = $1 and account_status <> 'deleted' returning id`,
      [id],
    );
    if (rows.length) await endSessions(query, id);
    return rows.length > 0;
  },
  async restore(query, id) {
    const rows = await query(
      `update users set account_status = 'active', updated_at = now()
       where id = $1 and account_status <> 'deleted' returning id`,
      [id],
    );
    return rows.length > 0;
  },
  async ownerOf(query, id) {
    const [row] = await query<{ id: string }>('select id from users where id = $1', [id]);
    return row?.id ?? null;
  },
});

/**
 * A chat message. Only the conversation's participants see it (others get a 404); hidden, it
 * reads as a removed message for everyone in the conversation, its text kept for a restore.
 */
export const messageReportable = defineReportable({
  kind: 'message',
  async load(query, ids, viewer) {
    const rows = await query<{
      id: string;
      room_id: string;
      content: string;
      type: string;
      sender_id: string | null;
      display_name: string | null;
      removed: boolean;
      deleted: boolean;
      active: boolean;
      participant: boolean;
    }>(
      `select m.id, m.room_id, m.content, m.type, m.sender_id, u.display_name,
         m.removed_at is not null as removed, m.deleted_at is not null as deleted,
         coalesce(u.account_status = 'active', false) as active,
         exists (select 1 from chat_participants p
                 where p.room_id = m.room_id and p.user_id = $2) as participant
       from chat_messages m left join users u on u.id = m.sender_id
       where m.id = any($1::uuid[])`,
      [uuids(ids), viewer.userId],
    );
    const out = new Map<string, ReportableView>();
    for (const r of rows) {
      if (r.deleted) continue;
      if (!viewer.moderator && (!r.participant || r.removed || !r.active)) continue;
      out.set(r.id, {
        id: r.id,
        title: r.display_name ?? '',
        excerpt: excerpt(r.content) || `[${r.type}]`,
        authorId: r.sender_id,
        authorName: r.display_name,
        link: viewer.moderator ? null : `/chats/${r.room_id}`,
        hidden: r.removed,
      });
    }
    return out;
  },
  hide: (query, id) =>
    changedRow(
      query,
      id,
      `update chat_messages set removed_at = coalesce(removed_at, clock_timestamp())
       where id = $1 returning id`,
    ),
  restore: (query, id) =>
    changedRow(query, id, 'update chat_messages set removed_at = null where id = $1 returning id'),
  ownerOf: (query, id) =>
    ownerOfRow(query, id, 'select sender_id as owner from chat_messages where id = $1'),
  async changed(id, services) {
    // Open conversations refetch the message (the chats module's own event).
    const realtime = services.realtime as Realtime | undefined;
    const { query } = services;
    if (!realtime) return;
    const [row] = await query<{ room_id: string; members: string[] }>(
      `select m.room_id, array(select p.user_id from chat_participants p
         where p.room_id = m.room_id) as members
       from chat_messages m where m.id = $1`,
      [id],
    );
    if (row)
      await realtime.toUsers(row.members, {
        type: 'chat.message.updated',
        roomId: row.room_id,
        messageId: id,
      });
  },
});
