import type { WishlistItem } from '@shared/schemas/wishlist';
import type { Database } from '../../db/client';
import { toIso } from '../../db/rows';
import { libraryListing, notBlocked } from '../../platform/moderation';
import { reachableListing } from '../../platform/reach';

interface ItemRow {
  id: string;
  wishlist_id: string;
  title: string;
  author: string;
  created_at: Date;
  book_id: string | null;
  book_title: string | null;
  book_author: string | null;
  book_cover: string | null;
  book_isbn: string | null;
  book_categories: string[] | null;
  work_id: string | null;
  work_title: string | null;
  work_author: string | null;
  work_cover: string | null;
  work_from: number | null;
  work_currency: string | null;
  available: number;
  newest_listing_id: string | null;
}

/** SQL: what copy `l` costs delivered, as the work page says: price plus shipping (none: 0). */
const TOTAL = `case when l.listing_type <> 'trade' and l.price is not null
  then l.price + coalesce(l.shipping_cost, 0) end`;

/**
 * Items with their book or work, and the listings that offer it now (by other members).
 * A book: the same book, the same ISBN or the same title and author, each on its own index.
 * A work (issue 35): every copy of any of its editions, in any language, as its page lists them
 * (in the library, no block either way; the partial index of available listings by work), with
 * the lowest total among them. `lang` (SQL) is the reader's language, for the work's title.
 */
const itemSelect = (lang: string) => `
  select i.id, i.wishlist_id, i.title, i.author, i.created_at, b.id as book_id,
    b.title as book_title, b.author as book_author, b.cover_url as book_cover,
    coalesce(b.isbn_13, b.isbn_10) as book_isbn, b.categories as book_categories,
    w.id as work_id, w.author as work_author,
    (select t.title from work_titles t where t.work_id = w.id
     order by t.language = ${lang} desc, t.language limit 1) as work_title,
    (select coalesce(c.cover_url, case when cb.cover_url is not null then '/api/covers/' || cb.id end)
     from book_listings c join books cb on cb.id = c.book_id
     where w.id is not null and c.work_id = w.id and c.status = 'available'
       and (c.cover_url is not null or cb.cover_url is not null)
     order by c.created_at desc limit 1) as work_cover,
    copies.low::float8 as work_from, copies.currency as work_currency,
    coalesce(case when i.work_id is null then offer.n else copies.n end, 0)::int as available,
    case when i.work_id is null then offer.newest else copies.newest end as newest_listing_id
  from wishlist_items i
  left join books b on b.id = i.book_id
  left join works w on w.id = i.work_id
  left join lateral (
    select count(*) as n, (array_agg(m.id order by m.created_at desc, m.id desc))[1] as newest
    from (
      select l.id, l.created_at from book_listings l
        where l.book_id = i.book_id and l.status = 'available' and ${reachableListing('l', 'i.user_id')} and l.user_id <> i.user_id
      union
      select l.id, l.created_at from book_listings l
        where i.isbn_13 is not null and l.isbn = i.isbn_13 and l.status = 'available' and ${reachableListing('l', 'i.user_id')}
          and l.user_id <> i.user_id
      union
      select l.id, l.created_at from book_listings l
        where i.isbn_10 is not null and l.isbn = i.isbn_10 and l.status = 'available' and ${reachableListing('l', 'i.user_id')}
          and l.user_id <> i.user_id
      union
      select l.id, l.created_at from book_listings l
        where i.book_id is not null and wish_key(l.title, l.author) = i.match_key
          and l.status = 'available' and ${reachableListing('l', 'i.user_id')}
          and l.user_id <> i.user_id
    ) m
  ) offer on true
  left join lateral (
    select count(*) as n, (array_agg(l.id order by l.created_at desc, l.id desc))[1] as newest,
      min(${TOTAL}) as low, (array_agg(l.currency order by ${TOTAL} asc nulls last))[1] as currency
    from book_listings l
    where i.work_id is not null and l.work_id = i.work_id and l.status = 'available'
      and ${libraryListing('l')} and ${notBlocked('i.user_id', 'l.user_id')}
      and l.user_id <> i.user_id
  ) copies on true`;

function toItem(row: ItemRow): WishlistItem {
  return {
    id: row.id,
    wishlistId: row.wishlist_id,
    title: row.work_title ?? row.title,
    author: row.work_author ?? row.author,
    createdAt: toIso(row.created_at),
    book: row.book_id
      ? {
          id: row.book_id,
          title: row.book_title ?? '',
          author: row.book_author ?? '',
          coverUrl: row.book_cover ? `/api/covers/${row.book_id}` : null,
          isbn: row.book_isbn,
          genre: row.book_categories?.[0] ?? null,
        }
      : null,
    work: row.work_id
      ? {
          id: row.work_id,
          title: row.work_title ?? row.title,
          author: row.work_author ?? row.author,
          coverUrl: row.work_cover,
          from: row.available > 0 ? row.work_from : null,
          currency: row.available > 0 ? row.work_currency : null,
        }
      : null,
    availableListings: Number(row.available),
    newestListingId: row.newest_listing_id,
  };
}

/** A page of a list's items, newest first; `language` is the reader's (a work's title). */
export async function listItems(
  database: Database,
  wishlistId: string,
  page: number,
  pageSize: number,
  language = 'en',
): Promise<{ items: WishlistItem[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    database.query<ItemRow>(
      `${itemSelect('$4')} where i.wishlist_id = $1
       order by i.created_at desc, i.id desc limit $2 offset $3`,
      [wishlistId, pageSize, (page - 1) * pageSize, language],
    ),
    database.query<{ n: number }>(
      'select count(*)::int as n from wishlist_items where wishlist_id = $1',
      [wishlistId],
    ),
  ]);
  return { items: rows.map(toItem), total: count.n };
}

export async function findItem(
  database: Database,
  itemId: string,
  language = 'en',
): Promise<WishlistItem | null> {
  const [row] = await database.query<ItemRow>(`${itemSelect('$2')} where i.id = $1`, [
    itemId,
    language,
  ]);
  return row ? toItem(row) : null;
}

/** The catalogue books on a member's wishlist (the hearts of listing cards; works have none). */
export async function wishedBookIds(database: Database, userId: string): Promise<string[]> {
  const rows = await database.query<{ book_id: string }>(
    `select book_id from wishlist_items where user_id = $1 and book_id is not null
     order by book_id limit 5000`,
    [userId],
  );
  return rows.map((r) => r.book_id);
}
