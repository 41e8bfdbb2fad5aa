import type { ChatListing, ChatMessage, ChatSender, Offer } from '@shared/schemas/chats';
import type { DealMethod, DealStatus } from '@shared/schemas/deals';
import { toIso } from '../../db/rows';

/** The columns of a member as chats show them; `u` is users. */
export const USER_COLUMNS = `u.id, u.display_name, coalesce(u.display_username, u.username::text) as username,
  u.avatar_url, u.last_seen_at, u.account_status = 'deleted' as deleted`;

export interface UserRow {
  id: string;
  display_name: string;
  username: string | null;
  avatar_url: string | null;
  last_seen_at: Date | null;
  deleted?: boolean | null;
}

export const toSender = (row: UserRow): ChatSender =>
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
        lastSeenAt: toIso(row.last_seen_at),
      };

/**
 * A listing as a chat card; `l` is book_listings joined to its book `b`. Hidden by a moderator,
 * it reads as unavailable (its page is gone).
 */
export const LISTING_COLUMNS = `l.id as l_id, l.title as l_title, l.author as l_author,
  l.price::float8 as l_price, l.currency as l_currency,
  coalesce(l.cover_url, case when b.cover_url is not null then '/api/covers/' || b.id end) as l_cover_url,
  l.listing_type as l_listing_type,
  case when l.hidden_at is not null then 'unavailable' else l.status end as l_status`;

export interface ListingRow {
  l_id: string | null;
  l_title: string;
  l_author: string;
  l_price: number | null;
  l_currency: string;
  l_cover_url: string | null;
  l_listing_type: string;
  l_status: string;
}

export const toListing = (row: ListingRow): ChatListing => ({
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
  o.counter_of::text as o_counter_of,
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
  o_listing_id: string | null;
  o_buyer_id: string;
  o_seller_id: string;
  o_amount: number | null;
  o_currency: string;
  o_status: string;
  o_created_at: Date;
  o_answered_at: Date | null;
  o_shipping_amount: number | null;
  o_deal_id: string | null;
  o_kind: string;
  o_offered: ChatListing[] | string | null;
  o_counter_of: string | null;
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
  createdAt: toIso(row.o_created_at),
  answeredAt: toIso(row.o_answered_at),
  shippingAmount: row.o_shipping_amount === null ? null : Number(row.o_shipping_amount),
  dealId: row.o_deal_id,
  ...(row.o_counter_of ? { counterOf: row.o_counter_of } : {}),
  ...(row.o_kind === 'trade'
    ? {
        offered: (typeof row.o_offered === 'string'
          ? (JSON.parse(row.o_offered) as ChatListing[])
          : (row.o_offered ?? [])
        ).map((l) => ({ ...l, price: l.price === null ? null : Number(l.price) })),
      }
    : {}),
});

export const MESSAGE_COLUMNS = `select m.id, m.room_id, m.sender_id, m.type, m.content, m.created_at,
    m.edited_at, coalesce(m.deleted_at, m.removed_at) as deleted_at,
    u.display_name as s_display_name, coalesce(u.display_username, u.username::text) as s_username,
    u.avatar_url as s_avatar_url, u.last_seen_at as s_last_seen_at,
    u.account_status = 'deleted' as s_deleted,
    ${LISTING_COLUMNS}, ${OFFER_COLUMNS},
    d.id as d_id, d.method as d_method, d.status as d_status,
    (select dko.kind from offers dko where dko.id = d.offer_id) as d_kind`;

export const MESSAGE_FROM = `from chat_messages m
  left join users u on u.id = m.sender_id
  left join book_listings l on l.id = m.listing_id
  left join books b on b.id = l.book_id
  left join offers o on o.id = m.offer_id
  left join deals od on od.offer_id = o.id
  left join deals d on d.id = m.deal_id`;

export const MESSAGE_SELECT = `${MESSAGE_COLUMNS} ${MESSAGE_FROM}`;

export interface MessageRow extends ListingRow, OfferRow {
  id: string;
  room_id: string;
  sender_id: string | null;
  type: string;
  content: string;
  created_at: Date;
  edited_at: Date | null;
  deleted_at: Date | null;
  s_display_name: string | null;
  s_username: string | null;
  s_avatar_url: string | null;
  s_last_seen_at: Date | null;
  s_deleted: boolean | null;
  d_id: string | null;
  d_method: string | null;
  d_status: string | null;
  d_kind: string | null;
}

export function toMessage(row: MessageRow): ChatMessage {
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
    createdAt: toIso(row.created_at),
    editedAt: toIso(row.edited_at),
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
  created_at: Date;
  s_display_name: string | null;
  s_username: string | null;
  s_avatar_url: string | null;
  s_last_seen_at: Date | null;
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
  createdAt: toIso(row.created_at),
  editedAt: null,
  deleted: false,
});
