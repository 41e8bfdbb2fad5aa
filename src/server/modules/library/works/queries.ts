import { bookLanguageName } from '@shared/bookLanguage';
import { isUuid } from '@shared/schemas/common';
import { memberRating } from '@shared/rating';
import type { Condition, ListingType } from '@shared/marketplace';
import type { Work, WorkCopy, WorkSummary } from '@shared/works';
import type { Database } from '../../../db/client';
import type { Query } from '../../../db/tx';
import { activeMember, libraryListing, notBlocked } from '../../../platform/moderation';
import { publishedReview } from '../../reviews';

/** The most copies a work page lists (the cheapest). */
export const WORK_COPIES_MAX = 200;

/**
 * SQL: the available copies of work `work` a viewer may see, as the library shows listings:
 * available, not hidden, seller active and not on holiday (libraryListing), and no block between
 * the seller and `viewer` (SQL; null for visitors), either way.
 */
const copiesOf = (work: string, viewer: string) =>
  `l.work_id = ${work} and l.status = 'available' and ${libraryListing('l')}
   and ${notBlocked(viewer, 'l.user_id')}`;

/** SQL: what a copy costs delivered: price plus shipping (none: 0); null without a price. */
const TOTAL = `case when l.listing_type <> 'trade' and l.price is not null
  then l.price + coalesce(l.shipping_cost, 0) end`;

/** A work by id with its titles, the title in `language` first; null when there is none. */
export async function findWork(q: Query, id: string, language: string): Promise<Work | null> {
  if (!isUuid(id)) return null;
  const [row] = await q<{
    id: string;
    author: string;
    first_year: number | null;
    titles: { language: string; title: string }[];
    cover_url: string | null;
  }>(
    `select w.id, w.author, w.first_year,
       coalesce((select json_agg(json_build_object('language', t.language, 'title', t.title)
                                 order by t.language = $2 desc, t.language)
                 from work_titles t where t.work_id = w.id), '[]') as titles,
       (select coalesce(l.cover_url, case when b.cover_url is not null then '/api/covers/' || b.id end)
        from book_listings l join books b on b.id = l.book_id
        where l.work_id = w.id and l.status = 'available'
          and (l.cover_url is not null or b.cover_url is not null)
        order by l.created_at desc limit 1) as cover_url
     from works w where w.id = $1`,
    [id, language],
  );
  if (!row) return null;
  return {
    id: row.id,
    title: row.titles[0]?.title ?? '',
    titles: row.titles,
    author: row.author,
    firstYear: row.first_year,
    coverUrl: row.cover_url,
  };
}

/** The copies of a work a viewer may see, cheapest delivered first, copies for trade last. */
export async function workCopies(
  database: Database,
  workId: string,
  viewer: string | null,
  at: Date,
): Promise<WorkCopy[]> {
  const rows = await database.query<{
    id: string;
    title: string;
    language: string | null;
    condition: Condition;
    listing_type: ListingType;
    price: number | null;
    shipping_cost: number | null;
    total: number | null;
    currency: string;
    location: string | null;
    cover_url: string | null;
    seller_id: string;
    display_name: string;
    username: string | null;
    review_count: number;
    review_average: number | null;
  }>(
    `select l.id, l.title, l.language, l.condition, l.listing_type, l.price::float8 as price,
       l.shipping_cost::float8 as shipping_cost, (${TOTAL})::float8 as total, l.currency,
       l.location,
       coalesce(l.cover_url, case when b.cover_url is not null then '/api/covers/' || b.id end)
         as cover_url,
       u.id as seller_id, u.display_name, u.username::text as username,
       r.count as review_count, r.average as review_average
     from book_listings l join books b on b.id = l.book_id join users u on u.id = l.user_id
     cross join lateral (
       select count(*)::int as count, round(avg(rv.rating), 1)::float8 as average
       from reviews rv where rv.subject_id = u.id and ${publishedReview('rv', '$3')}
         and ${activeMember('rv.author_id')}) r
     where ${copiesOf('$1', '$2')}
     order by total asc nulls last, l.created_at desc, l.id desc
     limit ${WORK_COPIES_MAX}`,
    [workId, viewer, at],
  );
  return rows.map((r) => {
    const rating = memberRating({ count: r.review_count, average: r.review_average });
    return {
      id: r.id,
      title: r.title,
      language: bookLanguageName(r.language),
      condition: r.condition,
      listingType: r.listing_type,
      price: r.price,
      shippingCost: r.shipping_cost,
      total: r.total,
      currency: r.currency,
      location: r.location,
      coverUrl: r.cover_url,
      seller: {
        id: r.seller_id,
        displayName: r.display_name,
        username: r.username,
        rating: rating.average,
        reviewCount: rating.reviewCount,
      },
    };
  });
}

/**
 * The other copies of listing `listingId`'s work a viewer may see: how many, and the lowest
 * total among them. Null when the listing has no work.
 */
export async function workSummary(
  database: Database,
  listingId: string,
  viewer: string | null,
): Promise<WorkSummary | null> {
  const [row] = await database.query<{
    id: string | null;
    n: number;
    low: number | null;
    currency: string | null;
  }>(
    `select s.work_id as id, count(l.id)::int as n, min(${TOTAL})::float8 as low,
       (array_agg(l.currency order by ${TOTAL} asc nulls last))[1] as currency
     from book_listings s
     left join book_listings l on ${copiesOf('s.work_id', '$2')} and l.id <> s.id
     where s.id = $1
     group by s.work_id`,
    [listingId, viewer],
  );
  if (!row?.id) return null;
  return { id: row.id, otherCopies: row.n, from: row.low, currency: row.n ? row.currency : null };
}

/**
 * How many copies each work of `workIds` has that a viewer (with blocks: `apartFrom`) may see,
 * on the partial index of available listings by work (migration 0053).
 */
export async function copiesPerWork(
  database: Database,
  workIds: string[],
  apartFrom?: string,
): Promise<Record<string, number>> {
  const ids = [...new Set(workIds)];
  if (!ids.length) return {};
  const rows = await database.query<{ work_id: string; n: number }>(
    `select l.work_id, count(*)::int as n from book_listings l
     where ${copiesOf('any($1::uuid[])', '$2')}
     group by l.work_id`,
    [ids, apartFrom ?? null],
  );
  return Object.fromEntries(rows.map((r) => [r.work_id, r.n]));
}
