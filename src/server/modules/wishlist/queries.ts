import { isUuid } from '@shared/schemas/common';
import {
  TRADE_MATCH_BOOKS,
  type TradeBook,
  type TradeMatch,
  type Wishlist,
} from '@shared/schemas/wishlist';
import type { Database } from '../../db/client';
import { mayHearSql } from '../../platform/notifications/audience';
import { avatarSeedOf } from '../profiles';
import { toIso } from '../../db/rows';

export interface WishlistRow {
  id: string;
  user_id: string;
  name: string;
  description: string;
  is_default: boolean;
  created_at: Date;
}

export const toWishlist = (row: WishlistRow): Wishlist => ({
  id: row.id,
  name: row.name,
  description: row.description,
  isDefault: row.is_default,
  createdAt: toIso(row.created_at),
});

const WISHLIST_COLUMNS = 'id, user_id, name, description, is_default, created_at';

export async function findDefaultWishlist(
  database: Database,
  userId: string,
): Promise<WishlistRow | null> {
  const [row] = await database.query<WishlistRow>(
    `select ${WISHLIST_COLUMNS} from wishlists where user_id = $1 and is_default`,
    [userId],
  );
  return row ?? null;
}

/**
 * The member's default list, created on first use. Two first uses at once both insert; the
 * unique index lets one row in and the other does nothing, then reads it (a new statement, so it
 * sees the row the other request committed).
 */
export async function getOrCreateDefaultWishlist(
  database: Database,
  userId: string,
): Promise<WishlistRow> {
  const existing = await findDefaultWishlist(database, userId);
  if (existing) return existing;
  const [created] = await database.query<WishlistRow>(
    `insert into wishlists (user_id) values ($1)
     on conflict (user_id) where is_default do nothing
     returning ${WISHLIST_COLUMNS}`,
    [userId],
  );
  if (created) return created;
  const raced = await findDefaultWishlist(database, userId);
  if (!raced) throw new Error('wishlist neither inserted nor found');
  return raced;
}

/** SQL: the member in `column` is on holiday: their listings are out of the library (0069). */
const away = (column: string) => `${column} in (select mh.user_id from member_holidays mh)`;

/**
 * The wishers of listing $1's book, or of its work (any edition, any language: issue 35), who may
 * hear of its seller (audience.ts: both active, no block
 * either way); `onlyAvailable`: none unless the listing is available in the library (not hidden,
 * its seller not on holiday: the alert waits for the return, alerts.ts).
 */
const wishersSql = (onlyAvailable: boolean) => `with l as (
       select id, user_id, book_id, work_id, isbn, wish_key(title, author) as k, title, listing_type
       from book_listings where id = $1${onlyAvailable ? ` and status = 'available' and hidden_at is null and not ${away('user_id')}` : ''})
     select l.user_id as seller_id, l.title, l.listing_type, w.user_id as wisher
     from l left join lateral (
       select user_id from wishlist_items where book_id = l.book_id
       union
       select user_id from wishlist_items where l.isbn is not null and isbn_13 = l.isbn
       union
       select user_id from wishlist_items where l.isbn is not null and isbn_10 = l.isbn
       union
       select user_id from wishlist_items where match_key = l.k and book_id is not null
       union
       select user_id from wishlist_items where l.work_id is not null and work_id = l.work_id
     ) w on w.user_id <> l.user_id and ${mayHearSql('w.user_id', 'l.user_id')}`;

export const WISHERS_SQL = wishersSql(true);

/**
 * The members whose wishlist holds the book of this listing, whatever the listing's status (the
 * ones whose "available now" it may have just changed). Empty for an unknown id.
 */
export async function wishersOfAnyListing(
  database: Pick<Database, 'query'>,
  listingId: string,
): Promise<string[]> {
  if (!isUuid(listingId)) return [];
  const rows = await database.query<{ wisher: string | null }>(wishersSql(false), [listingId]);
  return rows.map((r) => r.wisher).filter((w): w is string => w !== null);
}

/**
 * The members (other than the seller) whose wishlist holds the book of this listing: the same
 * book, the same ISBN, or the same normalised title and author, or its work, each looked up on
 * an index.
 * Only while the listing is available.
 */
export async function wishersOfListing(
  database: Database,
  listingId: string,
): Promise<{ sellerId: string; title: string; listingType: string; wishers: string[] } | null> {
  const rows = await database.query<{
    seller_id: string;
    title: string;
    listing_type: string;
    wisher: string | null;
  }>(WISHERS_SQL, [listingId]);
  if (rows.length === 0) return null;
  return {
    sellerId: rows[0].seller_id,
    title: rows[0].title,
    listingType: rows[0].listing_type,
    wishers: rows.map((r) => r.wisher).filter((w): w is string => w !== null),
  };
}

/**
 * The trade match query of one member ($1): members who list for trade (available, trade or
 * both) a book on $1's wishlist AND wish a book $1 lists for trade. Both sides start from the
 * member's own few rows (wishes, trade listings) and reach the others through indexes. Only
 * members $1 may hear of (audience.ts), and only their listings in the library (not away).
 * `$2` limits the other members considered (all when null): the alerts ask about a few.
 */
export const PAIRS_SQL = `
  with my_wishes as (
    select book_id, work_id, isbn_13, isbn_10, match_key from wishlist_items where user_id = $1
  ),
  theirs as (
    select distinct l.id, l.user_id, l.created_at
    from my_wishes w cross join lateral (
      select id, user_id, created_at, listing_type from book_listings
        where book_id = w.book_id and status = 'available' and hidden_at is null
      union all
      select id, user_id, created_at, listing_type from book_listings
        where w.isbn_13 is not null and isbn = w.isbn_13 and status = 'available' and hidden_at is null
      union all
      select id, user_id, created_at, listing_type from book_listings
        where w.isbn_10 is not null and isbn = w.isbn_10 and status = 'available' and hidden_at is null
      union all
      select id, user_id, created_at, listing_type from book_listings
        where w.book_id is not null and wish_key(title, author) = w.match_key
          and status = 'available' and hidden_at is null
      union all
      select id, user_id, created_at, listing_type from book_listings
        where w.work_id is not null and work_id = w.work_id and status = 'available'
          and hidden_at is null
    ) l
    where l.user_id <> $1 and l.listing_type in ('trade', 'both') and ${mayHearSql('$1', 'l.user_id')}
      and not ${away('l.user_id')} and ($2::text[] is null or l.user_id = any($2::text[]))
  ),
  my_trades as (
    select id, book_id, work_id, isbn, wish_key(title, author) as k, created_at from book_listings
    where user_id = $1 and status = 'available' and hidden_at is null
      and listing_type in ('trade', 'both')
  ),
  mine as (
    select distinct t.id, w.user_id, t.created_at
    from my_trades t cross join lateral (
      select user_id from wishlist_items where book_id = t.book_id
      union all
      select user_id from wishlist_items where t.isbn is not null and isbn_13 = t.isbn
      union all
      select user_id from wishlist_items where t.isbn is not null and isbn_10 = t.isbn
      union all
      select user_id from wishlist_items where match_key = t.k and book_id is not null
      union all
      select user_id from wishlist_items where t.work_id is not null and work_id = t.work_id
    ) w
    where w.user_id <> $1 and ${mayHearSql('$1', 'w.user_id')}
      and ($2::text[] is null or w.user_id = any($2::text[]))
  ),
  their_side as (
    select user_id, count(*)::int as n, max(created_at) as latest,
      (array_agg(id order by created_at desc, id desc))[1:${TRADE_MATCH_BOOKS}] as ids
    from theirs group by user_id
  ),
  my_side as (
    select user_id, count(*)::int as n, max(created_at) as latest,
      (array_agg(id order by created_at desc, id desc))[1:${TRADE_MATCH_BOOKS}] as ids
    from mine group by user_id
  )
  select o.user_id, o.n as their_count, m.n as my_count, o.ids as their_ids, m.ids as my_ids,
    greatest(o.latest, m.latest) as latest_at
  from their_side o join my_side m on m.user_id = o.user_id
  join users u on u.id = o.user_id and u.account_status = 'active'`;

interface PairRow {
  user_id: string;
  their_count: number;
  my_count: number;
  their_ids: string[];
  my_ids: string[];
  latest_at: Date;
  total?: number;
}

/**
 * Of `candidates`, the members with whom `userId` has a two-way trade now, each with how many of
 * `userId`'s trade listings they wish (1 means a single listing makes the match), and the title
 * of their newest trade listing `userId` wishes (the other half of the trade).
 */
export async function tradePartnersAmong(
  database: Database,
  userId: string,
  candidates: string[],
): Promise<Map<string, { myCount: number; myIds: string[]; theirTitle: string | null }>> {
  if (candidates.length === 0) return new Map();
  const rows = await database.query<PairRow & { their_title: string | null }>(
    `select p.*, (select l.title from book_listings l where l.id = p.their_ids[1]) as their_title
     from (${PAIRS_SQL}) p`,
    [userId, candidates],
  );
  return new Map(
    rows.map((r) => [
      r.user_id,
      { myCount: r.my_count, myIds: r.my_ids, theirTitle: r.their_title },
    ]),
  );
}

/** Best matches first: more matching books, then the newest listing, then a stable order. */
export async function listTradeMatches(
  database: Database,
  userId: string,
  page: number,
  pageSize: number,
): Promise<{ items: TradeMatch[]; total: number }> {
  const pairs = await database.query<PairRow>(
    `select p.*, count(*) over ()::int as total from (${PAIRS_SQL}) p
     order by p.their_count + p.my_count desc, p.latest_at desc, p.user_id
     limit $3 offset $4`,
    [userId, null, pageSize, (page - 1) * pageSize],
  );
  if (pairs.length === 0) {
    if (page === 1) return { items: [], total: 0 };
    const [count] = await database.query<{ n: number }>(
      `select count(*)::int as n from (${PAIRS_SQL}) p`,
      [userId, null],
    );
    return { items: [], total: count.n };
  }
  const ids = pairs.flatMap((p) => [...p.their_ids, ...p.my_ids]);
  const memberIds = pairs.map((p) => p.user_id);
  const [books, members] = await Promise.all([
    database.query<{
      id: string;
      title: string;
      author: string;
      cover_url: string | null;
      listing_type: 'trade' | 'both';
      created_at: Date;
    }>(
      `select l.id, l.title, l.author, l.listing_type, l.created_at,
         coalesce(l.cover_url, case when b.cover_url is not null then '/api/covers/' || b.id end)
           as cover_url
       from book_listings l join books b on b.id = l.book_id
       where l.id = any($1::uuid[])`,
      [ids],
    ),
    database.query<{
      id: string;
      display_name: string;
      username: string | null;
      avatar_url: string | null;
    }>(
      'select id, display_name, username::text as username, avatar_url from users where id = any($1)',
      [memberIds],
    ),
  ]);
  const bookById = new Map<string, TradeBook>(
    books.map((b) => [
      b.id,
      {
        listingId: b.id,
        title: b.title,
        author: b.author,
        coverUrl: b.cover_url,
        listingType: b.listing_type,
        createdAt: toIso(b.created_at),
      },
    ]),
  );
  const memberById = new Map(members.map((m) => [m.id, m]));
  const pick = (list: string[]) =>
    list.map((id) => bookById.get(id)).filter((b): b is TradeBook => !!b);
  return {
    total: pairs[0].total ?? pairs.length,
    items: pairs.map((p) => {
      const m = memberById.get(p.user_id);
      return {
        member: {
          id: p.user_id,
          displayName: m?.display_name ?? '',
          username: m?.username ?? null,
          avatarUrl: m?.avatar_url ?? null,
          avatarSeed: avatarSeedOf(p.user_id),
        },
        theirBooks: pick(p.their_ids),
        theirCount: p.their_count,
        myBooks: pick(p.my_ids),
        myCount: p.my_count,
        latestAt: toIso(p.latest_at),
      };
    }),
  };
}
