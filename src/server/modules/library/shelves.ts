import {
  MARKET_GENRES,
  SHELF_SIZE,
  type Genre,
  type Shelves,
  type ShelvesQuery,
} from '@shared/marketplace';
import type { Database } from '../../db/client';
import { CARD_COLUMNS, CARD_JOINS, toCard, type CardRow } from '../listings/queries';
import { buildFilters } from './search';

/**
 * The /buy shelves. Every shelf holds available listings matching the visitor's q, genre and
 * price filters, at most SHELF_SIZE each:
 * - bestDeals: listings for sale (sell or both) with a price above 0, cheapest relative to the
 *   median price of their genre (price / genre median, ascending), then cheapest, then newest;
 * - justListed: newest first;
 * - popular: listings of the books with the most available listings (most offered titles),
 *   then newest; one listing per book, so a shelf shows 12 different books;
 * - premium: condition new or likeNew, for sale, highest price first;
 * - genre:<g>: newest of each genre that has listings, in MARKET_GENRES order.
 */
export async function loadShelves(database: Database, query: ShelvesQuery): Promise<Shelves> {
  const f = buildFilters({ ...query, status: 'available' });
  const where = f.where();
  const size = f.param(SHELF_SIZE);
  const matching = `select l.* from book_listings l ${where}`;
  const sql = `
    with m as materialized (${matching}),
    best as (
      select m.id, 'bestDeals' as shelf,
        row_number() over (order by m.price / nullif(g.median, 0) asc, m.price asc, m.created_at desc, m.id) as rank
      from m join (
        select genre, percentile_cont(0.5) within group (order by price) as median
        from m where listing_type in ('sell', 'both') and price > 0 group by genre
      ) g on g.genre = m.genre
      where m.listing_type in ('sell', 'both') and m.price > 0),
    newest as (
      select m.id, 'justListed' as shelf, row_number() over (order by m.created_at desc, m.id) as rank from m),
    popular as (
      select id, 'popular' as shelf, row_number() over (order by offers desc, created_at desc, id) as rank
      from (
        select distinct on (m.book_id) m.id, m.created_at, count(*) over (partition by m.book_id) as offers
        from m order by m.book_id, m.created_at desc, m.id) p),
    premium as (
      select m.id, 'premium' as shelf,
        row_number() over (order by m.price desc, m.created_at desc, m.id) as rank
      from m where m.condition in ('new', 'likeNew') and m.listing_type in ('sell', 'both') and m.price is not null),
    genres as (
      select m.id, 'genre:' || m.genre as shelf,
        row_number() over (partition by m.genre order by m.created_at desc, m.id) as rank from m),
    picked as (
      select * from best where rank <= ${size}
      union all select * from newest where rank <= ${size}
      union all select * from popular where rank <= ${size}
      union all select * from premium where rank <= ${size}
      union all select * from genres where rank <= ${size})
    select p.shelf, p.rank, ${CARD_COLUMNS}
    from picked p join book_listings l on l.id = p.id ${CARD_JOINS}
    order by p.shelf, p.rank`;
  const rows = await database.query<CardRow & { shelf: string; rank: number }>(sql, f.params);
  const byShelf = new Map<string, CardRow[]>();
  for (const row of rows) {
    const list = byShelf.get(row.shelf) ?? [];
    list.push(row);
    byShelf.set(row.shelf, list);
  }
  const shelves: Shelves['shelves'] = [];
  for (const key of ['bestDeals', 'justListed', 'popular', 'premium'] as const)
    shelves.push({ key, items: (byShelf.get(key) ?? []).map(toCard) });
  for (const genre of MARKET_GENRES as readonly Genre[]) {
    const items = byShelf.get(`genre:${genre}`);
    if (items?.length) shelves.push({ key: `genre:${genre}`, items: items.map(toCard) });
  }
  return { shelves };
}
