import type {
  Condition,
  Genre,
  ListingCard,
  ListingDetail,
  ListingStatus,
  ListingType,
  OwnListingCard,
} from '@shared/marketplace';
import type { Database } from '../../db/client';
import { reachableListing } from '../../platform/reach';
import { bookLanguageName } from '@shared/bookLanguage';
import { isUuid } from '@shared/schemas/common';
import { toIso } from '../../db/rows';

/**
 * The card columns of a listing: `l` is book_listings, joined to its book `b` (for the remote
 * cover) and its seller `u`. Remote covers are served by /api/covers/:bookId (same origin).
 */
export const CARD_COLUMNS = `l.id, l.title, l.author, l.genre, l.condition, l.listing_type,
  l.price::float8 as price, l.currency, l.status, l.is_active, l.description, l.language,
  l.created_at, l.book_id, l.work_id,
  coalesce(l.cover_url, case when b.cover_url is not null then '/api/covers/' || b.id end) as cover_url,
  u.id as seller_id, u.display_name as seller_display_name, u.username::text as seller_username`;
export const CARD_JOINS = `join books b on b.id = l.book_id join users u on u.id = l.user_id`;

export const DETAIL_COLUMNS = `${CARD_COLUMNS}, l.isbn, l.location, l.shipping_cost::float8 as shipping_cost,
  l.is_negotiable, l.images, l.updated_at, u.avatar_url as seller_avatar_url,
  u.created_at as seller_created_at, b.description as book_synopsis, b.publisher as book_publisher,
  b.published_date as book_published_date, coalesce(b.isbn_13, b.isbn_10) as book_isbn`;

export interface CardRow {
  id: string;
  title: string;
  author: string;
  genre: string;
  condition: string;
  listing_type: string;
  price: number | null;
  currency: string;
  status: string;
  is_active: boolean;
  description: string | null;
  language: string | null;
  created_at: Date;
  book_id: string;
  work_id: string | null;
  cover_url: string | null;
  seller_id: string;
  seller_display_name: string;
  seller_username: string | null;
}

export interface DetailRow extends CardRow {
  isbn: string | null;
  location: string | null;
  shipping_cost: number | null;
  is_negotiable: boolean;
  images: string[];
  updated_at: Date;
  seller_avatar_url: string | null;
  seller_created_at: Date;
  book_synopsis: string | null;
  book_publisher: string | null;
  book_published_date: string | null;
  book_isbn: string | null;
}

const num = (n: number | string | null) => (n === null ? null : Number(n));
/** The catalogue's publication date ('1954', '1954-07', '1954-07-29'): its year, if it has one. */
const yearOf = (date: string | null) => {
  const m = date?.match(/^\d{4}/);
  return m ? Number(m[0]) : null;
};
const textOrNull = (s: string | null) => (s?.trim() ? s.trim() : null);

export function toCard(row: CardRow): ListingCard {
  return {
    id: row.id,
    title: row.title,
    author: row.author,
    coverUrl: row.cover_url,
    genre: row.genre as Genre,
    condition: row.condition as Condition,
    listingType: row.listing_type as ListingType,
    price: num(row.price),
    currency: row.currency,
    status: row.status as ListingStatus,
    isActive: row.is_active,
    description: row.description,
    // Quick listings stored the catalogue's code ('it') before they stored the name.
    language: bookLanguageName(row.language),
    createdAt: toIso(row.created_at),
    bookId: row.book_id,
    workId: row.work_id,
    seller: {
      id: row.seller_id,
      displayName: row.seller_display_name,
      username: row.seller_username,
    },
  };
}

export function toDetail(row: DetailRow): ListingDetail {
  const card = toCard(row);
  return {
    ...card,
    isbn: row.isbn,
    location: row.location,
    shippingCost: num(row.shipping_cost),
    isNegotiable: row.is_negotiable,
    images: row.images ?? [],
    updatedAt: toIso(row.updated_at),
    book: {
      synopsis: textOrNull(row.book_synopsis),
      publisher: textOrNull(row.book_publisher),
      year: yearOf(row.book_published_date),
      isbn: textOrNull(row.book_isbn),
    },
    seller: {
      ...card.seller,
      avatarUrl: row.seller_avatar_url,
      memberSince: toIso(row.seller_created_at),
    },
  };
}

export { isUuid };

/**
 * `readers`: only as `viewer` (null or absent: a visitor) may reach it (platform/reach.ts: not
 * hidden by a moderator, its seller active, no block between them).
 */
export async function findListingDetail(
  database: Database,
  id: string,
  opts: { readers?: boolean; viewer?: string | null } = {},
): Promise<ListingDetail | null> {
  if (!isUuid(id)) return null;
  const [row] = await database.query<DetailRow>(
    `select ${DETAIL_COLUMNS} from book_listings l ${CARD_JOINS}
     where l.id = $1${opts.readers ? ` and ${reachableListing('l', '$2::text')}` : ''}`,
    opts.readers ? [id, opts.viewer ?? null] : [id],
  );
  return row ? toDetail(row) : null;
}

/** A member's listings, every status, newest first, each saying whether an open deal holds it. */
export async function listOwnListings(
  database: Database,
  userId: string,
): Promise<OwnListingCard[]> {
  const rows = await database.query<CardRow & { in_open_deal: boolean }>(
    `select ${CARD_COLUMNS}, exists (
         select 1 from offer_listings ol join deals d on d.offer_id = ol.offer_id
         where ol.listing_id = l.id and d.status = 'open') as in_open_deal
     from book_listings l ${CARD_JOINS}
     where l.user_id = $1 order by l.created_at desc, l.id desc limit 1000`,
    [userId],
  );
  return rows.map((row) => ({ ...toCard(row), inOpenDeal: row.in_open_deal }));
}

export async function ownListingStats(
  database: Database,
  userId: string,
): Promise<{ total: number; available: number; totalValue: number }> {
  const [row] = await database.query<{ total: number; available: number; value: number | null }>(
    `select count(*)::int as total,
       count(*) filter (where status = 'available')::int as available,
       sum(price) filter (where status = 'available' and listing_type in ('sell', 'both'))::float8 as value
     from book_listings where user_id = $1`,
    [userId],
  );
  return { total: row.total, available: row.available, totalValue: Math.round(row.value ?? 0) };
}
