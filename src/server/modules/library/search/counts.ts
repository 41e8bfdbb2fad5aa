import {
  SEARCH_COUNT_CAP,
  type Facets,
  type Sort,
  LIBRARY_PAGE_SIZE,
  LISTING_STATUSES,
  type LibraryQuery,
} from '@shared/marketplace';
import type { Database } from '../../../db/client';
import { CARD_COLUMNS, CARD_JOINS, type CardRow } from '../../listings';
import { blockedMembersOf, libraryListing } from '../../../platform/moderation';
import { TtlCache } from '../../../platform/ttl-cache';
import {
  type CompiledWords,
  type Search,
  RANKING_COLUMNS,
  relevanceScore,
  searchWords,
} from './words';
import { Filters } from './clauses';
import { ORDER, buildFilters, priceRange, sortOf, typeValues } from './filters';

/**
 * `base`: listings under the status, genre, type and condition filters alone (searches with
 * words). `capped`: more than SEARCH_COUNT_CAP matches, `total` is the cap.
 */
export type Totals = {
  total: number;
  min: number | null;
  max: number | null;
  base?: number;
  capped?: boolean;
  /** Searches with words or an author: how many listings match, estimated past the cap. */
  matches?: number;
};

/**
 * Counting the matches of words or an author is the costly part of such a search (every match
 * read); paging, sorting and repeated visits ask for the same count. Totals and price bounds are
 * therefore kept for TOTALS_TTL_MS per filter set (a bounded LRU); the page of items is always
 * read fresh.
 */
export const TOTALS_TTL_MS = 10_000;

/** Totals asked for again after this long are recounted in the background (platform/ttl-cache.ts). */
export const TOTALS_REFRESH_MS = 8_000;

export class TotalsCache extends TtlCache<Totals> {
  /** The typo corrections of searches' words, kept as long (the words of titles change slowly). */
  readonly corrections: TtlCache<string | null>;
  /** Facet counts per filter set, as old as the totals at most. */
  readonly facets: TtlCache<Facets>;
  /** Compiled words (compileWords): the same words always give the same tsqueries. */
  readonly words: TtlCache<CompiledWords>;
  constructor(now: () => number = Date.now) {
    super(TOTALS_TTL_MS, now, 2_000, TOTALS_REFRESH_MS);
    this.corrections = new TtlCache(TOTALS_TTL_MS, now, 2_000, TOTALS_REFRESH_MS);
    this.facets = new TtlCache(TOTALS_TTL_MS, now, 500, TOTALS_REFRESH_MS);
    this.words = new TtlCache(10 * 60_000, now, 5_000);
  }
}

/** The filters a facet leaves out (its own), and the query without any of them. */
export const FACET_FILTERS = ['genre', 'type', 'condition', 'minPrice', 'maxPrice'] as const;

/**
 * The counts table's rows (`c`) and the listings (`l`) under the status, genre, type and
 * condition filters (each only when asked: facets leave their own out).
 */
export function countKeys(f: Filters, q: Partial<LibraryQuery>) {
  const status = q.status ?? 'available';
  const statuses = f.param(status === 'all' ? [...LISTING_STATUSES] : [status]);
  const counted = [`c.status = any(${statuses}::text[])`];
  const listed: string[] = [libraryListing('l')];
  if (q.genre) {
    const genre = f.param(q.genre);
    counted.push(`c.genre = ${genre}`);
    listed.push(`l.genre = ${genre}`);
  }
  if (q.type) {
    const types = f.param(typeValues(q.type));
    counted.push(`c.listing_type = any(${types}::text[])`);
    listed.push(`l.listing_type = any(${types}::text[])`);
  }
  if (q.condition) {
    const condition = f.param(q.condition);
    counted.push(`c.condition = ${condition}`);
    listed.push(`l.condition = ${condition}`);
  }
  return { statuses, counted, listed };
}

/**
 * A price range over the counts table: the whole euros b with every price of [b, b + 1) in the
 * range (plus the listings without a price unless a minimum above 0 is asked) as a condition on
 * `c`, and the partial euros at its ends as conditions on the listings `l` (few rows, on the
 * listings' price indexes).
 */
export function priceCells(f: Filters, q: Partial<LibraryQuery>) {
  const { minPrice, maxPrice } = q;
  if (minPrice === undefined && maxPrice === undefined) return null;
  const low = minPrice ?? 0;
  const wholeLow = Math.ceil(low);
  const whole = [`c.price_floor >= ${f.param(wholeLow)}`];
  if (maxPrice !== undefined) whole.push(`c.price_floor + 1 <= ${f.param(maxPrice)}::numeric`);
  const counted = `(${whole.join(' and ')}${minPrice ? '' : ' or c.price_floor = -1'})`;
  const below = maxPrice !== undefined ? ` and l.price <= ${f.param(maxPrice)}` : '';
  const edges: string[] = [];
  if (wholeLow > low)
    edges.push(`l.price >= ${f.param(low)} and l.price < ${f.param(wholeLow)}${below}`);
  if (maxPrice !== undefined)
    edges.push(`l.price >= ${f.param(Math.max(Math.floor(maxPrice), wholeLow))}${below}`);
  return { counted, edges };
}

/**
 * Totals of a search without words or author, the broadest ones (up to every listing), from the
 * counts table (migrations 0010, 0035): its totals, or the whole euros of the price range, a
 * range's partial euros counted on the listings' price indexes; price bounds as the first and
 * last price of the (status, price) or (genre, status, price) index under each status asked for.
 */
export async function countedTotals(database: Database, q: Search): Promise<Totals> {
  const f = new Filters();
  const { statuses, counted, listed } = countKeys(f, q);
  const range = priceCells(f, q);
  if (!range) counted.push('c.price_floor = -2');
  else counted.push(range.counted);
  const edges = (range?.edges ?? []).map(
    (edge) =>
      `(select count(*) from book_listings l where l.status = any(${statuses}::text[])
         ${listed.map((c) => `and ${c} `).join('')}and ${edge})`,
  );
  const [row] = await database.query<Totals>(
    `select ((select coalesce(sum(c.n), 0) from listing_counts c where ${counted.join(' and ')})
         ${edges.map((e) => `+ ${e}`).join(' ')})::int as total,
       min(b.low)::float8 as min, max(b.high)::float8 as max
     from ${priceBoundsOf(statuses, listed)}`,
    f.params,
  );
  return row;
}

/** FROM clause: the lowest and highest price (b.low, b.high) under each status, on its indexes. */
const priceBoundsOf = (statuses: string, listed: string[]) =>
  `unnest(${statuses}::text[]) as s(status),
   lateral (select min(l.price) as low, max(l.price) as high from book_listings l
            where l.status = s.status ${listed.map((c) => `and ${c}`).join(' ')}) as b`;

/**
 * Filters and FROM clause of a read of the matches themselves (the capped reads, `limit (select
 * n)`, and the pages that sort every match). With words, the listings with the words sit behind
 * a fence (`offset 0`), the other filters outside it, so that PostgreSQL chooses how to find the
 * words by their share alone: the words' index for `potter` (about 1 % of the listings, 14 ms),
 * the table in order for `new` (a third, 8 ms). Without the fence, under a limit, it priced the
 * words' test at one operator and read the table in order from about 1 % of matches (`potter`:
 * 92,451 rows, 51 ms; its count in a price range 341,244 rows, 190 ms); reading every match, it
 * joined the words' list with the index of every available listing (809,440 entries, 35 ms)
 * (decision 0085).
 */
export function matchSource(
  q: Search,
  apartFrom?: string,
  { fenced = true }: { fenced?: boolean } = {},
): { f: Filters; from: string } {
  if (!q.words || !fenced) return { f: buildFilters({ ...q, apartFrom }), from: 'book_listings l' };
  const f = buildFilters({ ...q, q: undefined, words: undefined, apartFrom });
  const from = `(select l.*, l.ctid from book_listings l
                 where l.search_vector @@ ${f.param(q.words.match)}::tsquery offset 0) l`;
  return { f, from };
}

/** A page asked of a search, to be taken from the read that counts its matches. */
type Paged = { pageSize: number; offset: number; sort: Sort };

/**
 * SQL: the ids of a page of the matches in the CTE `m` that pass `kept`, in the order asked for,
 * when they are no more than SEARCH_COUNT_CAP (else null). A relevance page needs m's
 * RANKING_COLUMNS and search_vector.
 */
function pageOfMatches(f: Filters, q: Search, paged: Paged, kept: string): string {
  const ranked = paged.sort === 'relevance';
  const score = ranked ? relevanceScore(f, searchWords(q.q), q.words) : '0';
  const order = ranked ? 'score desc, l.created_at desc, l.id desc' : ORDER[paged.sort];
  const again = order.replace(/\bl\./g, 'r.').replace(/^score/, 'r.score');
  return `(select array_agg(r.id order by ${again})
     from (select l.id, l.created_at, l.price, ${score} as score from m l
           where ${kept} and (select count(*) from m) <= ${SEARCH_COUNT_CAP}
           order by ${order}
           limit ${f.param(paged.pageSize)} offset ${f.param(paged.offset)}) r) as "pageIds"`;
}

/**
 * Totals of a search with words or an author, counted up to SEARCH_COUNT_CAP: at most the cap
 * and one more matches are read, whatever their number (13,000 to 22,000 for "harry" at a million
 * listings). The cap is a subquery, `limit (select n)`, on purpose: with a known limit
 * PostgreSQL reads the table in order until enough match (it underrates the tsvector test: 59,000
 * rows for `love` at a million listings), with an unknown one it takes the word index's bitmap.
 * Past the cap the total is the cap, `capped`, and the price bounds are those of the filters
 * without the words and author (from the price indexes).
 *
 * `matches` estimates how many listings match every filter, past the cap too: the capped read
 * goes through the table in its physical order (a bitmap of the word index, or the table itself),
 * and listings are stored in the order they were written, whatever their words, so the share of
 * the table's pages read to find the cap's matches is about the cap's share of all the matches
 * (decision 0082). It decides how a page of items is read (loadItems).
 */
export async function matchedTotals(
  database: Database,
  q: Search,
  paged?: Paged,
): Promise<Totals & { pageIds?: string[] }> {
  const ranked = paged?.sort === 'relevance';
  // What a page needs of each match (the count in a price range past the cap reads the same).
  const columns = ['l.id', 'l.created_at', 'l.price']
    .concat(ranked ? [...RANKING_COLUMNS, 'l.search_vector'] : [])
    .join(', ');
  const { f, from } = matchSource(q);
  const { counted } = countKeys(f, q);
  const cap = f.param(SEARCH_COUNT_CAP + 1);
  // The page in the order asked for from the same read, when the matches are under the cap (one
  // read of the matches instead of two: decision 0082; every sort since 0084).
  const page = paged ? `, ${pageOfMatches(f, q, paged, 'l.in_range')}` : '';
  const [row] = await database.query<
    Totals & {
      sample: number;
      inRange: number;
      firstPage: number | null;
      lastPage: number | null;
      pages: number;
      pageIds?: string[] | null;
    }
  >(
    `with m as materialized (
       select ${columns}, l.ctid, ${f.priceCondition()} as in_range
       from ${from} ${f.where(false)} limit (select ${cap}::int))
     select count(*)::int as sample, count(*) filter (where m.in_range)::int as "inRange",
       min(m.price)::float8 as min, max(m.price)::float8 as max,
       (array_agg((m.ctid::text::point)[0]::int))[1] as "firstPage",
       (array_agg((m.ctid::text::point)[0]::int))[count(*)] as "lastPage",
       (pg_relation_size('book_listings') / current_setting('block_size')::int)::int as pages,
       (select coalesce(sum(c.n), 0) from listing_counts c
        where c.price_floor = -2 and ${counted.join(' and ')})::int as base
       ${page}
     from m`,
    f.params,
  );
  const { base } = row;
  if (row.sample <= SEARCH_COUNT_CAP)
    return {
      total: row.inRange,
      min: row.min,
      max: row.max,
      base,
      matches: row.inRange,
      ...(paged ? { pageIds: row.pageIds ?? [] } : {}),
    };
  return pastTheCap(database, q, row, columns, paged);
}

/** What the capped read of the matches tells past the cap. */
type CappedRead = {
  sample: number;
  inRange: number;
  firstPage: number | null;
  lastPage: number | null;
  pages: number;
  base?: number;
};

/** Totals past the cap, from the capped read of the matches `row`. */
async function pastTheCap(
  database: Database,
  q: Search,
  row: CappedRead,
  columns: string,
  paged?: Paged,
): Promise<Totals & { pageIds?: string[] }> {
  const { base } = row;
  const f = buildFilters({ ...q, apartFrom: undefined });
  // Past the cap: how many match, from the share of the table read (at least the cap). A read
  // of the table itself may start anywhere and wrap around (synchronized scans, on tables over a
  // quarter of the shared buffers): the pages read run from the first match's to the last's
  // (for the words' bitmap, which starts at the table's first page, this leaves out the pages
  // before the first match, about one match's share).
  const { firstPage: first, lastPage: last } = row;
  const read =
    first === null || last === null
      ? row.pages
      : Math.min(row.pages, last >= first ? last - first + 1 : row.pages - first + last + 1);
  const all = read > 0 ? Math.max(row.sample, Math.round((row.sample * row.pages) / read)) : 0;
  // Past the cap: counted again under the price range (up to the cap) when one is asked, unless
  // every match read was in the range. The words' matches are read, the range checked on them.
  // Two ways, the cheaper by estimate: every match on the words' index (about 3 µs a match); an
  // inner limit, a constant above any count, makes PostgreSQL weigh the whole read (with the
  // outer limit alone it read the whole table in order for `wife` and a price range: 923,651
  // rows, 1.3 s at a million listings). Or the table in order until the cap's matches are in the
  // range (about 9 µs a page), as many pages as the matches and the share of the capped read in
  // the range say: for `the`, 388,633 listings whose bitmap took seconds to build, a few pages;
  // for `roberts` (17,600) between 5 and 12 euros (7 % of them), 578,000 rows, 459 ms (0084).
  let total = row.inRange;
  let pageIds: string[] | undefined;
  if (f.priceCondition() !== 'true' && row.inRange <= SEARCH_COUNT_CAP) {
    const { f: every, from: everyFrom } = matchSource({
      ...q,
      minPrice: undefined,
      maxPrice: undefined,
    });
    const share = row.inRange / row.sample;
    const tablePages =
      share > 0
        ? Math.min(row.pages, (row.pages * (SEARCH_COUNT_CAP + 1)) / (all * share))
        : row.pages;
    const inner =
      all * 3 <= tablePages * 9 ? String(Number.MAX_SAFE_INTEGER) : '(select null::int)';
    // The matches in the range, up to the cap: under it, the page comes from this read too.
    const [n] = await database.query<{ n: number; pageIds?: string[] | null }>(
      `with m as materialized (
         select * from (select ${columns} from ${everyFrom} ${every.where()}
                        limit ${inner}) as l
         where ${priceRange(every, q)}
         limit (select ${SEARCH_COUNT_CAP + 1}::int))
       select count(*)::int as n ${paged ? `, ${pageOfMatches(every, q, paged, 'true')}` : ''}
       from m`,
      every.params,
    );
    total = n.n;
    if (paged && total <= SEARCH_COUNT_CAP) pageIds = n.pageIds ?? [];
  }
  const b = new Filters();
  const keys = countKeys(b, q);
  const [bounds] = await database.query<{ min: number | null; max: number | null }>(
    `select min(b.low)::float8 as min, max(b.high)::float8 as max
     from ${priceBoundsOf(keys.statuses, keys.listed)}`,
    b.params,
  );
  const capped = total > SEARCH_COUNT_CAP;
  return {
    total: Math.min(total, SEARCH_COUNT_CAP),
    capped,
    min: bounds.min,
    max: bounds.max,
    base,
    matches: capped ? Math.max(total, Math.round((all * row.inRange) / row.sample)) : total,
    ...(pageIds ? { pageIds } : {}),
  };
}

/**
 * A page of matches. In the order of an index, reading listings until the page is full, unless
 * the matches are so few that finding them on the text or author index and sorting them is
 * cheaper (PostgreSQL underrates testing each listing's words, and walks a whole index in vain
 * for words that match nothing). Relevance ranks every match (their score needs their words),
 * unless more than SEARCH_COUNT_CAP match (`capped`): then newest first, as ranking them would
 * read every one of them (docs/search.md).
 */
export function loadItems(
  database: Database,
  q: Search,
  { fewMatches, capped }: { fewMatches: boolean; capped: boolean },
  apartFrom: string | undefined,
) {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? LIBRARY_PAGE_SIZE;
  const asked = sortOf(q);
  const sort = capped && asked === 'relevance' ? 'newest' : asked;
  const order = ORDER[sort];
  // Every match is read, unless in an index's order: then the words are tested on each listing.
  const { f, from } = matchSource(q, apartFrom, { fenced: sort === 'relevance' || fewMatches });
  let hits: string;
  // The matches are read on the words' index, and the price range checked on them: given the
  // range in the same scan, PostgreSQL joined the words' bitmap with the price index's (348,579
  // entries read for `wife` and 5 to 47 euros at a million listings, 212 ms, to keep 1,088).
  const inRange = f.priceCondition();
  if (sort === 'relevance') {
    const score = relevanceScore(f, searchWords(q.q), q.words);
    hits = `matches as materialized (
         select l.id, l.created_at, l.price, ${RANKING_COLUMNS.join(', ')}, l.search_vector
         from ${from} ${f.where(false)}),
       hits as (select l.id, ${score} as score from matches l where ${inRange}
                order by score desc, l.created_at desc, l.id desc
                limit ${f.param(pageSize)} offset ${f.param((page - 1) * pageSize)})`;
  } else {
    const limit = f.param(pageSize);
    const offset = f.param((page - 1) * pageSize);
    hits = fewMatches
      ? `matches as materialized (
           select l.id, l.price, l.created_at from ${from} ${f.where(false)}),
         hits as (select l.id from matches l where ${inRange}
                  order by ${order} limit ${limit} offset ${offset})`
      : `hits as (
           select l.id from book_listings l ${f.where()} order by ${order} limit ${limit} offset ${offset})`;
  }
  return database.query<CardRow>(
    `with ${hits}
     select ${CARD_COLUMNS} from hits h join book_listings l on l.id = h.id ${CARD_JOINS}
     order by ${order}`,
    f.params,
  );
}

/** The cards of listings by id, in the order of the ids. */
export function cardsOf(database: Database, ids: string[]) {
  if (!ids.length) return Promise.resolve([] as CardRow[]);
  return database.query<CardRow>(
    `select ${CARD_COLUMNS} from book_listings l ${CARD_JOINS}
     where l.id = any($1::uuid[]) order by array_position($1::uuid[], l.id)`,
    [ids],
  );
}

/**
 * For a viewer with blocks: how many of the listings counted by the shared totals belong to
 * members a block stands between them and the viewer (every filter, price included). Few rows,
 * found on the listings' seller index; the totals themselves stay shared and cached.
 */
export async function blockedMatches(database: Database, q: Search, viewer: string) {
  const f = buildFilters(q);
  f.add(`l.user_id = any(${blockedMembersOf(f.param(viewer))})`);
  const [row] = await database.query<{ n: number }>(
    `select count(*)::int as n from book_listings l ${f.where()}`,
    f.params,
  );
  return row.n;
}
