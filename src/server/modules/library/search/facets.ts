import {
  CONDITIONS,
  LISTING_TYPES,
  MARKET_GENRES,
  PRICE_BANDS,
  SEARCH_COUNT_CAP,
  type Facets,
} from '@shared/marketplace';
import type { Database } from '../../../db/client';
import { blockedMembersOf, libraryListing } from '../../../platform/moderation';
import { FACET_FILTERS, TotalsCache, countKeys, matchSource, priceCells } from './counts';
import { Filters } from './clauses';
import { priceRange, typeValues } from './filters';
import { type Search } from './words';

/** `all`: how many matches were read (scanned facets), to tell a capped read. */
type FacetRow = {
  facet: 'genre' | 'type' | 'condition' | 'band' | 'all';
  value: string;
  n: number;
};

/** The band of PRICE_BANDS (its index) of a price or whole-euro floor `x` (SQL). */
const bandOf = (x: string) => `width_bucket(${x}, array[${PRICE_BANDS.join(', ')}]::numeric[]) - 1`;

/**
 * Each facet's counts under every filter but its own, as SQL over rows `m` carrying genre,
 * listing_type, condition, a band (null: no price), a count `n`, and booleans g, t, c, p (the
 * row passes the genre, type, condition, price filter). `priced`: which rows count in bands.
 */
const facetSelect = (priced: string) =>
  `select 'genre' as facet, m.genre as value, sum(m.n) filter (where m.t and m.c and m.p)::int as n
     from m group by m.genre
   union all
   select 'type', m.listing_type, sum(m.n) filter (where m.g and m.c and m.p)::int from m
     group by m.listing_type
   union all
   select 'condition', m.condition, sum(m.n) filter (where m.g and m.t and m.p)::int from m
     group by m.condition
   union all
   select 'band', m.band::text, sum(m.n) filter (where m.g and m.t and m.c)::int from m
     where ${priced} group by m.band`;

/** The facet filters of q as booleans over `alias` (true when the filter is not asked). */
function facetConditions(f: Filters, q: Search, alias: 'c' | 'l') {
  return {
    g: q.genre ? `${alias}.genre = ${f.param(q.genre)}` : 'true',
    t: q.type ? `${alias}.listing_type = any(${f.param(typeValues(q.type))}::text[])` : 'true',
    c: q.condition ? `${alias}.condition = ${f.param(q.condition)}` : 'true',
  };
}

/**
 * Facets of a search without words or author, from the counts table: its rows per whole euro
 * (the no-price rows too), the partial euros of a price range counted on the listings.
 */
async function countedFacets(database: Database, q: Search): Promise<FacetRow[]> {
  const f = new Filters();
  const { statuses } = countKeys(f, { status: q.status });
  const range = priceCells(f, q);
  const cc = facetConditions(f, q, 'c');
  // Every parameter is used: the listings' conditions only when there are partial euros.
  const lc = range?.edges.length ? facetConditions(f, q, 'l') : cc;
  const edges = (range?.edges ?? []).map(
    (edge) => `union all
       select l.genre, l.listing_type, l.condition, null::int, count(*), ${lc.g}, ${lc.t}, ${lc.c},
         true, true
       from book_listings l
       where ${libraryListing('l')} and l.status = any(${statuses}::text[]) and ${edge}
       group by 1, 2, 3`,
  );
  return database.query<FacetRow>(
    `with m as materialized (
       select c.genre, c.listing_type, c.condition,
         case when c.price_floor >= 0 then ${bandOf('c.price_floor')} end as band, c.n,
         ${cc.g} as g, ${cc.t} as t, ${cc.c} as c, ${range ? range.counted : 'true'} as p,
         false as edge
       from listing_counts c
       where c.status = any(${statuses}::text[]) and c.price_floor >= -1 and c.n <> 0
       ${edges.join('\n')})
     ${facetSelect('m.band is not null and not m.edge')}`,
    f.params,
  );
}

/**
 * Facets counted on the matching listings themselves (one read of the matches), at most
 * SEARCH_COUNT_CAP + 1 of them, as the totals: past that the counts are those of the matches
 * read (lower bounds) and the answer says `capped`.
 */
async function scannedFacets(
  database: Database,
  q: Search,
  restrict: (f: Filters) => void = () => {},
  apartFrom?: string,
): Promise<FacetRow[]> {
  const others = { ...q };
  for (const k of FACET_FILTERS) delete others[k];
  const { f, from } = matchSource(others, apartFrom);
  restrict(f);
  const lc = facetConditions(f, q, 'l');
  const p = priceRange(f, q) ?? 'true';
  return database.query<FacetRow>(
    `with m as materialized (
       select l.genre, l.listing_type, l.condition, ${bandOf('l.price')} as band, 1 as n,
         ${lc.g} as g, ${lc.t} as t, ${lc.c} as c, ${p} as p
       from ${from} ${f.where()} limit (select ${f.param(SEARCH_COUNT_CAP + 1)}::int))
     ${facetSelect('m.band is not null')}
     union all select 'all', '', count(*)::int from m`,
    f.params,
  );
}

/** Facet rows as the answer's facets (every value, 0 included; type sell = sell + both...). */
function toFacets(rows: FacetRow[], minus: FacetRow[] = []): Facets {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.facet}:${r.value}`;
    counts.set(key, (counts.get(key) ?? 0) + (r.n ?? 0));
  }
  for (const r of minus) {
    const key = `${r.facet}:${r.value}`;
    counts.set(key, (counts.get(key) ?? 0) - (r.n ?? 0));
  }
  const n = (facet: string, value: string | number) => counts.get(`${facet}:${value}`) ?? 0;
  return {
    genres: MARKET_GENRES.map((value) => ({ value, count: n('genre', value) })),
    types: LISTING_TYPES.map((value) => ({
      value,
      count: typeValues(value).reduce((sum, t) => sum + n('type', t), 0),
    })),
    conditions: CONDITIONS.map((value) => ({ value, count: n('condition', value) })),
    priceBands: PRICE_BANDS.map((min, i) => ({
      min,
      max: PRICE_BANDS[i + 1] ?? null,
      count: n('band', i),
    })),
    ...(n('all', '') > SEARCH_COUNT_CAP ? { capped: true } : {}),
  };
}

/**
 * Facet counts of a search: from the counts table without words or author (a viewer with blocks
 * gets them less the blocked members' listings, few rows), otherwise from the matches.
 */
export function loadFacets(
  database: Database,
  q: Search,
  broad: boolean,
  cache: TotalsCache | undefined,
  apartFrom: string | undefined,
): Promise<Facets> {
  if (!broad && apartFrom)
    return scannedFacets(database, q, undefined, apartFrom).then((rows) => toFacets(rows));
  const shared = () =>
    (broad ? countedFacets(database, q) : scannedFacets(database, q)).then((rows) =>
      toFacets(rows),
    );
  const key = JSON.stringify([
    q.q ?? null,
    q.author ?? null,
    q.genre ?? null,
    q.type ?? null,
    q.condition ?? null,
    q.minPrice ?? null,
    q.maxPrice ?? null,
    q.status ?? 'available',
  ]);
  const facets = cache ? cache.facets.get(key, shared) : shared();
  if (!apartFrom) return facets;
  const blocked = scannedFacets(database, q, (f) =>
    f.add(`l.user_id = any(${blockedMembersOf(f.param(apartFrom))})`),
  );
  return Promise.all([facets, blocked]).then(([all, minus]) => subtractFacets(all, minus));
}

function subtractFacets(all: Facets, minus: FacetRow[]): Facets {
  const less = toFacets([], minus);
  const sub = <T extends { count: number }>(a: T[], b: { count: number }[]) =>
    a.map((x, i) => ({ ...x, count: Math.max(0, x.count + b[i].count) }));
  return {
    genres: sub(all.genres, less.genres),
    types: sub(all.types, less.types),
    conditions: sub(all.conditions, less.conditions),
    priceBands: sub(all.priceBands, less.priceBands),
  };
}
