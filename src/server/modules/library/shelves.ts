import {
  HOME_SHELF_SIZE,
  MARKET_GENRES,
  SHELF_SIZE,
  type Shelves,
  type ShelvesQuery,
} from '@shared/marketplace';
import type { Database } from '../../db/client';
import { CARD_COLUMNS, CARD_JOINS, toCard, type CardRow } from '../listings';
import { buildFilters } from './search';

/**
 * The /buy shelves. Every shelf holds available listings matching the visitor's q, genre and
 * price filters, at most SHELF_SIZE each:
 * - bestDeals: listings for sale (sell or both) with a price above 0, cheapest relative to the
 *   median price of their genre (price / genre median, ascending), then cheapest, then newest;
 * - justListed: newest first;
 * - popular: the books with the most available listings first (one listing per book, its
 *   newest), then newest;
 * - premium: condition new or likeNew, for sale, highest price first;
 * - genre:<g>: newest of each genre that has listings, in MARKET_GENRES order.
 * Each shelf is its own top-12 query on an index; only the medians and the popular count
 * aggregate over the matching listings.
 */
/** Shelves are a browsing page: a filter set is recomputed at most this often. */
export const SHELVES_TTL_MS = 30_000;

/** `apartFrom`: a signed-in viewer with blocks (see SearchFilters.apartFrom). */
export async function loadShelves(
  database: Database,
  query: ShelvesQuery,
  apartFrom?: string,
): Promise<Shelves> {
  const f = buildFilters({ ...query, status: 'available', apartFrom });
  const where = f.where();
  const and = where ? `${where} and` : 'where';
  const size = f.param(SHELF_SIZE);
  const genres = f.param(query.genre ? [query.genre] : [...MARKET_GENRES]);
  // The genre list is the last parameter: only the query that uses it receives it.
  const ids = (sql: string, withGenres = false) =>
    database.query<{ id: string; shelf: string }>(
      sql,
      withGenres ? f.params : f.params.slice(0, -1),
    );
  const newestFirst = 'l.created_at desc, l.id desc';

  const [justListed, premium, perGenre, bestDeals, popular] = await Promise.all([
    ids(`select l.id, 'justListed' as shelf from book_listings l ${where}
         order by ${newestFirst} limit ${size}`),
    ids(`select l.id, 'premium' as shelf from book_listings l
         ${and} l.condition in ('new', 'likeNew') and l.listing_type in ('sell', 'both')
           and l.price is not null
         order by l.price desc nulls last, ${newestFirst} limit ${size}`),
    ids(
      `select x.id, 'genre:' || g.genre as shelf
         from unnest(${genres}::text[]) with ordinality as g(genre, ord)
         cross join lateral (
           select l.id, l.created_at from book_listings l ${and} l.genre = g.genre
           order by ${newestFirst} limit ${size}) x
         order by g.ord, x.created_at desc, x.id desc`,
      true,
    ),
    // The cheapest of each genre are the only candidates: within a genre the ratio follows price.
    ids(`with medians as (
           select l.genre, percentile_cont(0.5) within group (order by l.price) as median
           from book_listings l ${and} l.listing_type in ('sell', 'both') and l.price > 0
           group by l.genre)
         select x.id, 'bestDeals' as shelf
         from medians m cross join lateral (
           select l.id, l.price, l.created_at from book_listings l
           ${and} l.genre = m.genre and l.listing_type in ('sell', 'both') and l.price > 0
           order by l.price asc, l.created_at desc limit ${size}) x
         order by x.price / m.median, x.price, x.created_at desc, x.id limit ${size}`),
    ids(`with top as (
           select l.book_id, count(*) as offers, max(l.created_at) as newest
           from book_listings l ${where} group by l.book_id
           order by offers desc, newest desc limit ${size})
         select (select l.id from book_listings l ${and} l.book_id = top.book_id
                 order by ${newestFirst} limit 1) as id, 'popular' as shelf
         from top order by top.offers desc, top.newest desc`),
  ]);

  const all = [...bestDeals, ...justListed, ...popular, ...premium, ...perGenre];
  const cards = await database.query<CardRow>(
    `select ${CARD_COLUMNS} from book_listings l ${CARD_JOINS} where l.id = any($1::uuid[])`,
    [[...new Set(all.map((r) => r.id))]],
  );
  const byId = new Map(cards.map((c) => [c.id, toCard(c)]));
  const shelves: Shelves['shelves'] = [];
  const push = (key: string, rows: { id: string }[]) => {
    const items = rows.map((r) => byId.get(r.id)).filter((c) => c !== undefined);
    shelves.push({ key: key as Shelves['shelves'][number]['key'], items });
  };
  push('bestDeals', bestDeals);
  push('justListed', justListed);
  push('popular', popular);
  push('premium', premium);
  const byGenre = new Map<string, { id: string }[]>();
  for (const row of perGenre) byGenre.set(row.shelf, [...(byGenre.get(row.shelf) ?? []), row]);
  for (const [key, rows] of byGenre) push(key, rows);
  return { shelves };
}

/**
 * The home page's shelves, cut from the unfiltered /buy shelves (same cache): just listed, best
 * deals and one genre shelf (the fullest; the first in MARKET_GENRES order among equals),
 * HOME_SHELF_SIZE books each. Empty shelves are left out.
 */
export function homeShelves(all: Shelves): Shelves {
  const find = (key: string) => all.shelves.find((s) => s.key === key);
  let genre: Shelves['shelves'][number] | undefined;
  for (const s of all.shelves)
    if (s.key.startsWith('genre:') && s.items.length > (genre?.items.length ?? 0)) genre = s;
  return {
    shelves: [find('justListed'), find('bestDeals'), genre]
      .filter((s) => s !== undefined && s.items.length > 0)
      .map((s) => ({ key: s!.key, items: s!.items.slice(0, HOME_SHELF_SIZE) })),
  };
}
