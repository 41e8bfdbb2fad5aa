import type {
  ChatListing,
  ChatMessage,
  ChatRoom,
  ChatSender,
  ChatUser,
  Offer,
} from '@shared/schemas/chats';
import type { Database } from '../../db/client';
import type { DealMethod, DealStatus } from '@shared/schemas/deals';
import { isUuid } from '../listings/queries';
import type { Query } from '../../db/tx';
import { listedRoom, suspendedMember } from '../../platform/moderation/members';
import { blockedMembersOf } from '../../platform/moderation/blocks';

export { isUuid };

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

/** The columns of a member as chats show them; `u` is users. */
const USER_COLUMNS = `u.id, u.display_name, coalesce(u.display_username, u.username::text) as username,
  u.avatar_url, u.last_seen_at, u.account_status = 'deleted' as deleted`;

interface UserRow {
  id: string;
  display_name: string;
  username: string | null;
  avatar_url: string | null;
  last_seen_at: Date | string | null;
  deleted?: boolean | null;
}

const toSender = (row: UserRow): ChatSender =>
  row.deleted
    ? {
        id: row.id,
        displayName: '',
        username: null,
        avatarUrl: null,
        lastSeenAt: null,
        deleted: true,
      }
    : {
        id: row.id,
        displayName: row.display_name,
        username: row.username,
        avatarUrl: row.avatar_url,
        lastSeenAt: isoOrNull(row.last_seen_at),
      };

/**
 * A listing as a chat card; `l` is book_listings joined to its book `b`. Hidden by a moderator,
 * it reads as unavailable (its page is gone).
 */
const LISTING_COLUMNS = `l.id as l_id, l.title as l_title, l.author as l_author,
  l.price::float8 as l_price, l.currency as l_currency,
  coalesce(l.cover_url, case when b.cover_url is not null then '/api/covers/' || b.id end) as l_cover_url,
  l.listing_type as l_listing_type,
  case when l.hidden_at is not null then 'unavailable' else l.status end as l_status`;

interface ListingRow {
  l_id: string | null;
  l_title: string;
  l_author: string;
  l_price: number | null;
  l_currency: string;
  l_cover_url: string | null;
  l_listing_type: string;
  l_status: string;
}

const toListing = (row: ListingRow): ChatListing => ({
  id: row.l_id!,
  title: row.l_title,
  author: row.l_author,
  price: row.l_price === null ? null : Number(row.l_price),
  currency: row.l_currency,
  coverUrl: row.l_cover_url,
  listingType: row.l_listing_type as ChatListing['listingType'],
  status: row.l_status as ChatListing['status'],
});

const OFFER_COLUMNS = `o.id as o_id, o.listing_id as o_listing_id, o.buyer_id as o_buyer_id,
  o.seller_id as o_seller_id, o.amount::float8 as o_amount, o.currency as o_currency,
  o.status as o_status, o.created_at as o_created_at, o.answered_at as o_answered_at,
  o.shipping_amount::float8 as o_shipping_amount, od.id as o_deal_id, o.kind as o_kind,
  case when o.kind = 'trade' then
    (select coalesce(json_agg(json_build_object('id', tl.id, 'title', tl.title,
        'author', tl.author, 'price', tl.price::float8, 'currency', tl.currency,
        'coverUrl', coalesce(tl.cover_url,
          case when tb.cover_url is not null then '/api/covers/' || tb.id end),
        'listingType', tl.listing_type,
        'status', case when tl.hidden_at is not null then 'unavailable' else tl.status end)
        order by tl.title, tl.id), '[]'::json)
     from offer_listings tol join book_listings tl on tl.id = tol.listing_id
     left join books tb on tb.id = tl.book_id
     where tol.offer_id = o.id and tl.user_id = o.buyer_id) end as o_offered`;

interface OfferRow {
  o_id: string | null;
  o_listing_id: string;
  o_buyer_id: string;
  o_seller_id: string;
  o_amount: number | null;
  o_currency: string;
  o_status: string;
  o_created_at: Date | string;
  o_answered_at: Date | string | null;
  o_shipping_amount: number | null;
  o_deal_id: string | null;
  o_kind: string;
  o_offered: ChatListing[] | string | null;
}

const toOffer = (row: OfferRow): Offer => ({
  id: row.o_id!,
  listingId: row.o_listing_id,
  buyerId: row.o_buyer_id,
  sellerId: row.o_seller_id,
  kind: row.o_kind === 'trade' ? 'trade' : 'sale',
  amount: row.o_amount === null ? null : Number(row.o_amount),
  currency: row.o_currency as Offer['currency'],
  status: row.o_status as Offer['status'],
  createdAt: iso(row.o_created_at),
  answeredAt: isoOrNull(row.o_answered_at),
  shippingAmount: row.o_shipping_amount === null ? null : Number(row.o_shipping_amount),
  dealId: row.o_deal_id,
  ...(row.o_kind === 'trade'
    ? {
        offered: (typeof row.o_offered === 'string'
          ? (JSON.parse(row.o_offered) as ChatListing[])
          : (row.o_offered ?? [])
        ).map((l) => ({ ...l, price: l.price === null ? null : Number(l.price) })),
      }
    : {}),
});

const MESSAGE_COLUMNS = `select m.id, m.room_id, m.sender_id, m.type, m.content, m.created_at,
    m.edited_at, coalesce(m.deleted_at, m.removed_at) as deleted_at,
    u.display_name as s_display_name, coalesce(u.display_username, u.username::text) as s_username,
    u.avatar_url as s_avatar_url, u.last_seen_at as s_last_seen_at,
    u.account_status = 'deleted' as s_deleted,
    ${LISTING_COLUMNS}, ${OFFER_COLUMNS},
    d.id as d_id, d.method as d_method, d.status as d_status,
    (select dko.kind from offers dko where dko.id = d.offer_id) as d_kind`;

const MESSAGE_FROM = `from chat_messages m
  left join users u on u.id = m.sender_id
  left join book_listings l on l.id = m.listing_id
  left join books b on b.id = l.book_id
  left join offers o on o.id = m.offer_id
  left join deals od on od.offer_id = o.id
  left join deals d on d.id = m.deal_id`;

const MESSAGE_SELECT = `${MESSAGE_COLUMNS} ${MESSAGE_FROM}`;

interface MessageRow extends ListingRow, OfferRow {
  id: string;
  room_id: string;
  sender_id: string | null;
  type: string;
  content: string;
  created_at: Date | string;
  edited_at: Date | string | null;
  deleted_at: Date | string | null;
  s_display_name: string | null;
  s_username: string | null;
  s_avatar_url: string | null;
  s_last_seen_at: Date | string | null;
  s_deleted: boolean | null;
  d_id: string | null;
  d_method: string | null;
  d_status: string | null;
  d_kind: string | null;
}

function toMessage(row: MessageRow): ChatMessage {
  const deleted = row.deleted_at !== null;
  return {
    id: row.id,
    roomId: row.room_id,
    senderId: row.sender_id,
    sender:
      row.sender_id === null
        ? null
        : toSender({
            id: row.sender_id,
            display_name: row.s_display_name ?? '',
            username: row.s_username,
            avatar_url: row.s_avatar_url,
            last_seen_at: row.s_last_seen_at,
            deleted: row.s_deleted,
          }),
    content: deleted ? '' : row.content,
    type: row.type as ChatMessage['type'],
    ...(!deleted && row.l_id ? { listing: toListing(row) } : {}),
    ...(!deleted && row.o_id ? { offer: toOffer(row) } : {}),
    ...(!deleted && row.d_id
      ? {
          deal: {
            id: row.d_id,
            method: row.d_method as DealMethod,
            status: row.d_status as DealStatus,
            ...(row.d_kind === 'trade' ? { kind: 'trade' as const } : {}),
          },
        }
      : {}),
    createdAt: iso(row.created_at),
    editedAt: isoOrNull(row.edited_at),
    deleted,
  };
}

/** A text message as the sending statement returns it (send.ts): no listing, no offer, not edited. */
export interface SentMessageRow {
  id: string;
  room_id: string;
  sender_id: string;
  type: string;
  content: string;
  created_at: Date | string;
  s_display_name: string | null;
  s_username: string | null;
  s_avatar_url: string | null;
  s_last_seen_at: Date | string | null;
  s_deleted: boolean | null;
}

/** The same ChatMessage that findMessage reads for it, without reading it again. */
export const toSentMessage = (row: SentMessageRow): ChatMessage => ({
  id: row.id,
  roomId: row.room_id,
  senderId: row.sender_id,
  sender: toSender({
    id: row.sender_id,
    display_name: row.s_display_name ?? '',
    username: row.s_username,
    avatar_url: row.s_avatar_url,
    last_seen_at: row.s_last_seen_at,
    deleted: row.s_deleted,
  }),
  content: row.content,
  type: row.type as ChatMessage['type'],
  createdAt: iso(row.created_at),
  editedAt: null,
  deleted: false,
});

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
  updated_at: Date | string;
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
    updatedAt: iso(r.updated_at),
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

/** The database's own client as a Query. */
export const queryOf =
  (database: Database): Query =>
  (text, params) =>
    database.query(text, params);
