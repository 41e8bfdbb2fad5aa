import type { ChatListing, ChatMessage, ChatRoom, ChatUser } from '@shared/schemas/chats';
import { isUuid } from '@shared/schemas/common';
import type { Query } from '../../db/tx';
import { listedRoom, suspendedMember } from '../../platform/moderation/members';
import { blockedMembersOf } from '../../platform/moderation/blocks';
import {
  LISTING_COLUMNS,
  MESSAGE_COLUMNS,
  MESSAGE_FROM,
  MESSAGE_SELECT,
  toListing,
  toMessage,
  toSender,
  USER_COLUMNS,
  type ListingRow,
  type MessageRow,
  type UserRow,
} from './rows';
import { toIso } from '../../db/rows';

export { isUuid };
export { toSentMessage, type SentMessageRow } from './rows';

export async function findMessage(query: Query, id: string): Promise<ChatMessage | null> {
  if (!isUuid(id)) return null;
  const [row] = await query<MessageRow>(`${MESSAGE_SELECT} where m.id = $1`, [id]);
  return row ? toMessage(row) : null;
}

/** A message and the room's participants in one round trip (the message-post hot path). */
export async function findMessageWithAudience(
  query: Query,
  id: string,
): Promise<{ message: ChatMessage; audience: string[] } | null> {
  if (!isUuid(id)) return null;
  const [row] = await query<MessageRow & { audience: string[] | null }>(
    `${MESSAGE_COLUMNS},
       array(select p.user_id from chat_participants p where p.room_id = m.room_id) as audience
     ${MESSAGE_FROM} where m.id = $1`,
    [id],
  );
  return row ? { message: toMessage(row), audience: row.audience ?? [] } : null;
}

async function messagesByIds(query: Query, ids: string[]): Promise<Map<string, ChatMessage>> {
  if (ids.length === 0) return new Map();
  const rows = await query<MessageRow>(`${MESSAGE_SELECT} where m.id = any($1::uuid[])`, [ids]);
  return new Map(rows.map((r) => [r.id, toMessage(r)]));
}

/**
 * A page of a room's messages, oldest first: the `limit` before a message (or the latest), or
 * up to `limit` after one (catch-up after a reconnect). Ordered by creation time, then id.
 */
export async function pageMessages(
  query: Query,
  roomId: string,
  opts: { before?: string; after?: string; limit: number },
): Promise<{ items: ChatMessage[]; hasMore: boolean }> {
  const cursor = opts.after ?? opts.before;
  if (cursor !== undefined && !isUuid(cursor)) return { items: [], hasMore: false };
  const cursorRow = `(select c.created_at, c.id from chat_messages c where c.id = $2 and c.room_id = $1)`;
  let rows: MessageRow[];
  if (opts.after !== undefined) {
    rows = await query<MessageRow>(
      `${MESSAGE_SELECT} where m.room_id = $1 and (m.created_at, m.id) > ${cursorRow}
       order by m.created_at, m.id limit $3`,
      [roomId, opts.after, opts.limit + 1],
    );
    const hasMore = rows.length > opts.limit;
    return { items: rows.slice(0, opts.limit).map(toMessage), hasMore };
  }
  rows = await query<MessageRow>(
    `${MESSAGE_SELECT} where m.room_id = $1
       and ($2::uuid is null or (m.created_at, m.id) < ${cursorRow})
     order by m.created_at desc, m.id desc limit $3`,
    [roomId, opts.before ?? null, opts.limit + 1],
  );
  const hasMore = rows.length > opts.limit;
  return { items: rows.slice(0, opts.limit).reverse().map(toMessage), hasMore };
}

export async function isParticipant(query: Query, roomId: string, userId: string) {
  if (!isUuid(roomId)) return false;
  const rows = await query('select 1 from chat_participants where room_id = $1 and user_id = $2', [
    roomId,
    userId,
  ]);
  return rows.length > 0;
}

export async function participantIds(query: Query, roomId: string): Promise<string[]> {
  const rows = await query<{ user_id: string }>(
    'select user_id from chat_participants where room_id = $1',
    [roomId],
  );
  return rows.map((r) => r.user_id);
}

/**
 * Messages from others after my read mark; deleted ones do not count, nor do listing cards: a
 * card is only ever sent with the first message of a contact (offers.ts), so one new message
 * counts as one unread message.
 */
const UNREAD = `(select count(*)::int from chat_messages m
  where m.room_id = p.room_id and m.created_at > p.last_read_at
    and m.sender_id is distinct from p.user_id and m.deleted_at is null
    and m.type <> 'listing')`;

export async function unreadTotal(query: Query, userId: string): Promise<number> {
  const [row] = await query<{ total: number }>(
    `select coalesce(sum(${UNREAD}), 0)::int as total from chat_participants p where p.user_id = $1`,
    [userId],
  );
  return row.total;
}

interface RoomRow {
  id: string;
  name: string | null;
  description: string | null;
  is_group: boolean;
  created_by: string | null;
  updated_at: Date;
  listing_id: string | null;
  unread: number;
  last_message_id: string | null;
}

const ROOM_SELECT = `select r.id, r.name, r.description, r.is_group, r.created_by, r.updated_at,
    r.listing_id, ${UNREAD} as unread, lm.id as last_message_id
  from chat_participants p
  join chat_rooms r on r.id = p.room_id
  left join lateral (select m.id from chat_messages m where m.room_id = r.id
    order by m.created_at desc, m.id desc limit 1) lm on true`;

/**
 * Fills rooms with participants (and who is online), last messages and listing cards. A
 * participant a block stands between and the viewer shows no presence (never online, never seen).
 */
async function completeRooms(
  query: Query,
  rows: RoomRow[],
  onlineAmong: (ids: string[]) => Promise<Set<string>>,
  viewer: string,
): Promise<ChatRoom[]> {
  if (rows.length === 0) return [];
  const roomIds = rows.map((r) => r.id);
  const found = await query<UserRow & { room_id: string; apart: boolean }>(
    `select p.room_id, ${USER_COLUMNS}, p.user_id = any(${blockedMembersOf('$2')}) as apart
     from chat_participants p join users u on u.id = p.user_id
     where p.room_id = any($1::uuid[]) and not ${suspendedMember('p.user_id')}
     order by p.joined_at, u.id`,
    [roomIds, viewer],
  );
  const people = found.map((p) => (p.apart ? { ...p, last_seen_at: null } : p));
  const apart = new Set(found.filter((p) => p.apart).map((p) => p.id));
  const online = await onlineAmong([...new Set(people.map((p) => p.id))]);
  const lastMessages = await messagesByIds(
    query,
    rows.map((r) => r.last_message_id).filter((id): id is string => id !== null),
  );
  const listingIds = [...new Set(rows.map((r) => r.listing_id).filter((id) => id !== null))];
  const listings = new Map<string, ChatListing>();
  if (listingIds.length > 0) {
    const found = await query<ListingRow>(
      `select ${LISTING_COLUMNS} from book_listings l join books b on b.id = l.book_id
       where l.id = any($1::uuid[])`,
      [listingIds],
    );
    for (const row of found) listings.set(row.l_id!, toListing(row));
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    isGroup: r.is_group,
    createdBy: r.created_by,
    updatedAt: toIso(r.updated_at),
    participants: people
      .filter((p) => p.room_id === r.id)
      .map((p): ChatUser => ({ ...toSender(p), online: online.has(p.id) && !apart.has(p.id) })),
    lastMessage: r.last_message_id ? (lastMessages.get(r.last_message_id) ?? null) : null,
    unreadCount: r.unread,
    listing: r.listing_id ? (listings.get(r.listing_id) ?? null) : null,
  }));
}

export async function listRooms(
  query: Query,
  userId: string,
  page: { page: number; pageSize: number },
  onlineAmong: (ids: string[]) => Promise<Set<string>>,
): Promise<{ items: ChatRoom[]; total: number }> {
  const rows = await query<RoomRow>(
    `${ROOM_SELECT} where p.user_id = $1 and ${listedRoom('r')}
     order by r.updated_at desc, r.id desc limit $2 offset $3`,
    [userId, page.pageSize, (page.page - 1) * page.pageSize],
  );
  const [{ total }] = await query<{ total: number }>(
    `select count(*)::int as total from chat_participants p join chat_rooms r on r.id = p.room_id
     where p.user_id = $1 and ${listedRoom('r')}`,
    [userId],
  );
  return { items: await completeRooms(query, rows, onlineAmong, userId), total };
}

/** The room as this participant sees it; null when they are not in it (or it does not exist). */
export async function findRoomFor(
  query: Query,
  roomId: string,
  userId: string,
  onlineAmong: (ids: string[]) => Promise<Set<string>>,
): Promise<ChatRoom | null> {
  if (!isUuid(roomId)) return null;
  const rows = await query<RoomRow>(`${ROOM_SELECT} where p.user_id = $1 and p.room_id = $2`, [
    userId,
    roomId,
  ]);
  const [room] = await completeRooms(query, rows, onlineAmong, userId);
  return room ?? null;
}

export interface ListingFacts {
  id: string;
  seller_id: string;
  status: string;
  listing_type: string;
  currency: string;
  title: string;
  /** null: no shipping offered (handed over only). */
  shipping_cost: string | number | null;
  /** Hidden by a moderator: out of everyone's offers. */
  hidden: boolean;
}

export async function findListingFacts(
  query: Query,
  id: string,
  lock = false,
): Promise<ListingFacts | null> {
  if (!isUuid(id)) return null;
  const [row] = await query<ListingFacts>(
    `select id, user_id as seller_id, status, listing_type, currency, title, shipping_cost,
       hidden_at is not null as hidden
     from book_listings where id = $1${lock ? ' for update' : ''}`,
    [id],
  );
  return row ?? null;
}

export function directKey(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}
