import {
  CONDITIONS,
  DEFAULT_PRICE_RANGE,
  LISTING_TYPES,
  MARKET_GENRES,
  PRICE_BANDS,
  SEARCH_COUNT_CAP,
  type Facets,
  type Sort,
  LIBRARY_PAGE_SIZE,
  LISTING_STATUSES,
  type LibraryQuery,
  type ListingPage,
  type ListingType,
} from '@shared/marketplace';
import type { Database } from '../../db/client';
import { CARD_COLUMNS, CARD_JOINS, toCard, type CardRow } from '../listings/queries';
import { blockedMembersOf, libraryListing, notBlocked } from '../../platform/moderation';
import { TtlCache } from '../../platform/ttl-cache';
import { STOP_WORDS, unaccented } from './stopwords';

/** Parameterised WHERE clauses; `text` says how q is matched. */
export class Filters {
  readonly params: unknown[] = [];
  readonly clauses: string[] = [];
  private readonly priceClauses: string[] = [];

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  add(clause: string) {
    this.clauses.push(clause);
  }
  addPrice(clause: string) {
    this.priceClauses.push(clause);
  }
  where(withPrice = true): string {
    const all = withPrice ? [...this.clauses, ...this.priceClauses] : this.clauses;
    return all.length ? `where ${all.join(' and ')}` : '';
  }
  priceCondition(): string {
    return this.priceClauses.length ? this.priceClauses.join(' and ') : 'true';
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Type 'sell' means "can be bought" (sell or both), 'trade' "can be traded" (trade or both). */
export function typeValues(type: ListingType): ListingType[] {
  return type === 'sell' ? ['sell', 'both'] : type === 'trade' ? ['trade', 'both'] : ['both'];
}

export interface SearchFilters {
  q?: string;
  author?: string;
  genre?: string;
  type?: ListingType;
  condition?: string;
  minPrice?: number;
  maxPrice?: number;
  status?: string;
  /**
   * A signed-in viewer who has blocks (platform/moderation/blocks.ts): listings of the members a
   * block stands between them and the viewer are left out. Unset for visitors and members
   * without blocks, so their queries keep their shape.
   */
  apartFrom?: string;
  /** q's tsqueries, compiled once per search (compileWords); built inline when absent. */
  words?: CompiledWords;
}

/** The tsqueries of a search's words, as text (see wordsQuery), and its phrase normalized. */
export interface CompiledWords {
  match: string;
  title: string;
  titleAuthor: string;
  whole: string;
  phrase: string;
}

/** A search with its words compiled. */
type Search = LibraryQuery & { words?: CompiledWords };

/** The words of a search as typed (letters and digits; the SQL drops accents and case). */
export function searchWords(q: string | undefined): string[] {
  return (
    q
      ?.normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, MAX_WORDS) ?? []
  );
}
const MAX_WORDS = 16;

/**
 * The words a search matches on, and how: its words without the stop words of either language,
 * each a prefix as well as a whole word (decision 0084). A search of nothing but stop words
 * ("and her", "il") matches them as whole words: as prefixes they made GIN merge the postings of
 * every word starting with "and" or "her" (Anderson, Herbert…), 75 to 90 ms at a million
 * listings, for listings a reader typing "and her" did not ask for (decision 0086). The exact
 * phrase of relevance keeps every word.
 */
export function matchWords(words: string[]): { words: string[]; prefix: boolean } {
  const kept = words.filter((w) => !STOP_WORDS.has(unaccented(w.toLowerCase())));
  return kept.length ? { words: kept, prefix: true } : { words, prefix: false };
}

/**
 * A tsquery matching every word. Each word matches as written (a prefix when `prefix`) or by its
 * Italian or English stem; `weights` keeps the matches in those parts of the listing (A title,
 * B author, C description: migration 0035). The suffixes are fixed text, the words parameters.
 */
function wordsQuery(
  f: Filters,
  words: string[],
  { prefix, weights = '' }: { prefix: boolean; weights?: '' | 'A' | 'AB' },
): string {
  const simple = prefix ? `:*${weights}` : weights ? `:${weights}` : '';
  const stem = weights ? `:${weights}` : '';
  return words
    .map((w) => {
      const word = `immutable_unaccent(${f.param(w)})`;
      return (
        `(to_tsquery('simple', ${word} || '${simple}')` +
        ` || to_tsquery('italian', ${word} || '${stem}')` +
        ` || to_tsquery('english', ${word} || '${stem}'))`
      );
    })
    .join(' && ');
}

/**
 * Relevance of a listing `l` that matches the words: the exact phrase in the title first (16),
 * then every word in the title (4) or in title and author (2), whole words over prefixes (1),
 * and below 1, PostgreSQL's rank with title over author over description.
 */
function relevanceScore(f: Filters, words: string[], compiled?: CompiledWords): string {
  const tsquery = (key: keyof CompiledWords, inline: () => string) =>
    compiled ? `${f.param(compiled[key])}::tsquery` : `(${inline()})`;
  const { words: matched, prefix } = matchWords(words);
  const phrase =
    words.length > 1
      ? `case when ' ' || regexp_replace(lower(immutable_unaccent(l.title)), '[^[:alnum:]]+', ' ', 'g') || ' '
           like '% ' || ${compiled ? f.param(compiled.phrase) : `lower(immutable_unaccent(${f.param(words.join(' '))}))`} || ' %'
         then 16 else 0 end + `
      : '';
  return `(${phrase}
    case when l.search_vector @@ ${tsquery('title', () => wordsQuery(f, matched, { prefix, weights: 'A' }))} then 4
         when l.search_vector @@ ${tsquery('titleAuthor', () => wordsQuery(f, matched, { prefix, weights: 'AB' }))} then 2
         else 0 end
    + case when l.search_vector @@ ${tsquery('whole', () => wordsQuery(f, matched, { prefix: false }))} then 1 else 0 end
    + ts_rank('{0.1, 0.2, 0.5, 1.0}', l.search_vector, ${tsquery('match', () => wordsQuery(f, matched, { prefix }))}, 32))`;
}

/**
 * The tsqueries of a search's words, worked out once (one round trip) so that the search's
 * queries carry them as values: PostgreSQL plans a literal tsquery far faster than a tree of
 * to_tsquery calls (about 20 ms of planning for three words, under load, before this).
 */
export async function compileWords(database: Database, words: string[]): Promise<CompiledWords> {
  const f = new Filters();
  const { words: matched, prefix } = matchWords(words);
  const [row] = await database.query<CompiledWords>(
    `select (${wordsQuery(f, matched, { prefix })})::text as match,
       (${wordsQuery(f, matched, { prefix, weights: 'A' })})::text as title,
       (${wordsQuery(f, matched, { prefix, weights: 'AB' })})::text as "titleAuthor",
       (${wordsQuery(f, matched, { prefix: false })})::text as whole,
       lower(immutable_unaccent(${f.param(words.join(' '))})) as phrase`,
    f.params,
  );
  return row;
}

/**
 * The library's filters as SQL on book_listings `l`. Text: every word of q as a prefix or by its
 * Italian or English stem, in the title, author or description (accents ignored). Price:
 * listings with a price in the range; listings without a price (trade only) stay unless a minimum
 * above 0 is asked. One condition per filter: a new filter is one more `if`.
 */
export function buildFilters(f: SearchFilters): Filters {
  const filters = new Filters();
  filters.add(libraryListing('l'));
  if (f.apartFrom) filters.add(notBlocked(filters.param(f.apartFrom), 'l.user_id'));
  const status = f.status ?? 'available';
  if (status !== 'all') filters.add(`l.status = ${filters.param(status)}`);
  if (f.genre) filters.add(`l.genre = ${filters.param(f.genre)}`);
  if (f.type) filters.add(`l.listing_type = any(${filters.param(typeValues(f.type))}::text[])`);
  if (f.condition) filters.add(`l.condition = ${filters.param(f.condition)}`);
  if (f.author) {
    filters.add(
      `l.author_norm like '%' || lower(immutable_unaccent(${filters.param(escapeLike(f.author))})) || '%'`,
    );
  }
  const words = searchWords(f.q);
  if (f.words) filters.add(`l.search_vector @@ ${filters.param(f.words.match)}::tsquery`);
  else if (words.length) {
    const { words: matched, prefix } = matchWords(words);
    filters.add(`l.search_vector @@ (${wordsQuery(filters, matched, { prefix })})`);
  }
  const range = priceRange(filters, f);
  if (range) filters.addPrice(range);
  return filters;
}

/**
 * A price range as a condition on `l`, its values parameters of `f`: listings with a price in
 * the range, and those without one (trade only) unless a minimum above 0 is asked. Null without
 * a range.
 */
function priceRange(
  f: Filters,
  { minPrice, maxPrice }: Pick<SearchFilters, 'minPrice' | 'maxPrice'>,
) {
  if (minPrice === undefined && maxPrice === undefined) return null;
  const range: string[] = [];
  if (minPrice !== undefined) range.push(`l.price >= ${f.param(minPrice)}`);
  if (maxPrice !== undefined) range.push(`l.price <= ${f.param(maxPrice)}`);
  const inRange = range.join(' and ');
  return minPrice ? `(${inRange})` : `(l.price is null or (${inRange}))`;
}

const ORDER = {
  relevance: 'h.score desc, l.created_at desc, l.id desc',
  newest: 'l.created_at desc, l.id desc',
  price_asc: 'l.price asc nulls last, l.created_at desc, l.id desc',
  price_desc: 'l.price desc nulls last, l.created_at desc, l.id desc',
} as const;

/** The order asked for: relevance by default when there are words, newest without words. */
export function sortOf(q: Pick<LibraryQuery, 'q' | 'sort'>): Sort {
  const hasWords = searchWords(q.q).length > 0;
  const sort = q.sort ?? (hasWords ? 'relevance' : 'newest');
  return sort === 'relevance' && !hasWords ? 'newest' : sort;
}

/**
 * `base`: listings under the status, genre, type and condition filters alone (searches with
 * words). `capped`: more than SEARCH_COUNT_CAP matches, `total` is the cap.
 */
type Totals = {
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
const FACET_FILTERS = ['genre', 'type', 'condition', 'minPrice', 'maxPrice'] as const;

/**
 * The counts table's rows (`c`) and the listings (`l`) under the status, genre, type and
 * condition filters (each only when asked: facets leave their own out).
 */
function countKeys(f: Filters, q: Partial<LibraryQuery>) {
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
function priceCells(f: Filters, q: Partial<LibraryQuery>) {
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
async function countedTotals(database: Database, q: Search): Promise<Totals> {
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
function matchSource(
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
 * when they are no more than SEARCH_COUNT_CAP (else null). A relevance page needs m's title and
 * search_vector.
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
async function matchedTotals(
  database: Database,
  q: Search,
  paged?: Paged,
): Promise<Totals & { pageIds?: string[] }> {
  const { f, from } = matchSource(q);
  const { counted } = countKeys(f, q);
  const cap = f.param(SEARCH_COUNT_CAP + 1);
  // The page in the order asked for from the same read, when the matches are under the cap (one
  // read of the matches instead of two: decision 0082; every sort since 0084).
  const ranked = paged?.sort === 'relevance';
  // What a page needs of each match (the count in a price range below reads the same).
  const columns = ['l.id', 'l.created_at', 'l.price']
    .concat(ranked ? ['l.title', 'l.search_vector'] : [])
    .join(', ');
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
function loadItems(
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
         select l.id, l.created_at, l.price, l.title, l.search_vector
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
function cardsOf(database: Database, ids: string[]) {
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
async function blockedMatches(database: Database, q: Search, viewer: string) {
  const f = buildFilters(q);
  f.add(`l.user_id = any(${blockedMembersOf(f.param(viewer))})`);
  const [row] = await database.query<{ n: number }>(
    `select count(*)::int as n from book_listings l ${f.where()}`,
    f.params,
  );
  return row.n;
}

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
function loadFacets(
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

async function runSearch(
  database: Database,
  query: LibraryQuery,
  cache?: TotalsCache,
  apartFrom?: string,
): Promise<ListingPage> {
  const words = searchWords(query.q);
  const compile = () => compileWords(database, words);
  const q: Search = words.length
    ? {
        ...query,
        words: await (cache ? cache.words.get(words.join(' '), compile) : compile()),
      }
    : query;
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? LIBRARY_PAGE_SIZE;
  const broad = !q.author && searchWords(q.q).length === 0;
  // Total under every filter; price bounds under every filter but the price range itself,
  // so the slider keeps its full span while it narrows the results.
  // A search with words or an author gets its page, in any order, from the totals' read of the
  // matches when the totals are not cached (and the matches are under the cap); a viewer with
  // blocks reads the page without the blocked members' listings, on its own.
  const paged = !broad && !apartFrom;
  let pageIds: string[] | undefined;
  const loadTotals = async (): Promise<Totals> => {
    if (broad) return countedTotals(database, q);
    const { pageIds: ids, ...t } = await matchedTotals(
      database,
      q,
      paged ? { pageSize, offset: (page - 1) * pageSize, sort: sortOf(q) } : undefined,
    );
    pageIds = ids;
    return t;
  };
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
  const shared = cache ? cache.get(key, loadTotals) : loadTotals();
  // Price bounds stay those of every reader (a blocked member's prices may widen the slider).
  // A capped total stays the cap ("more than"): the blocked members' few listings do not move it.
  const totals: Promise<Totals> = apartFrom
    ? shared.then(async (t) =>
        t.capped
          ? t
          : { ...t, total: Math.max(0, t.total - (await blockedMatches(database, q, apartFrom))) },
      )
    : shared;
  const facets = q.facets ? loadFacets(database, q, broad, cache, apartFrom) : undefined;
  let items: Promise<CardRow[]>;
  if (broad) items = loadItems(database, q, { fewMatches: false, capped: false }, apartFrom);
  else {
    // Reading in index order tests about (listings before the page's end) × base / matches
    // listings; finding the matches costs about twice their number.
    const { total, base = 0, capped, matches = total } = await totals;
    const fewMatches = 2 * matches * matches <= page * pageSize * base;
    items = pageIds
      ? cardsOf(database, pageIds)
      : loadItems(database, q, { fewMatches, capped: !!capped }, apartFrom);
  }
  const [t, rows, counts] = await Promise.all([totals, items, facets]);
  return {
    items: rows.map(toCard),
    total: t.total,
    ...(t.capped ? { totalCapped: true } : {}),
    page,
    pageSize,
    // No priced listing under these filters: the default range of the library screen.
    priceBounds:
      t.min === null || t.max === null
        ? { min: DEFAULT_PRICE_RANGE[0], max: DEFAULT_PRICE_RANGE[1] }
        : { min: t.min, max: t.max },
    ...(counts ? { facets: counts } : {}),
  };
}

/** Edits (insertions, deletions, substitutions) between two words. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length];
}

/** Edits a word may be off by and still be corrected: one up to 4 letters, two from 5. */
const allowedEdits = (word: string) => ([...word].length <= 4 ? 1 : 2);

/**
 * Replaces each word of q that no title or author word starts with by the closest known word
 * within one or two edits: the nearest words by trigram distance (`search_words`, a KNN walk of
 * its GiST index, migration 0035), the fewest edits first; null when nothing could be corrected.
 */
export async function correctTypos(database: Database, q: string): Promise<string | null> {
  const words = searchWords(q).slice(0, 8);
  if (!words.length) return null;
  const rows = await database.query<{ word: string; norm: string; known: boolean; near: string[] }>(
    `select q.word, q.norm,
       exists (select 1 from search_words s
               where s.word collate "C" >= q.norm
                 and s.word collate "C" < q.norm || chr(1114111)) as known,
       array(select s.word from search_words s order by s.word <-> q.norm limit 12) as near
     from (select w as word, lower(immutable_unaccent(w)) as norm, i
           from unnest($1::text[]) with ordinality as t(w, i)) as q
     order by q.i`,
    [words],
  );
  let changed = false;
  const fixed = rows.map((r) => {
    if (r.known || [...r.norm].length < 3) return r.word;
    let best: string | null = null;
    let bestEdits = allowedEdits(r.norm) + 1;
    for (const candidate of r.near) {
      const edits = editDistance(r.norm, candidate);
      if (edits < bestEdits) {
        best = candidate;
        bestEdits = edits;
      }
    }
    if (!best) return r.word;
    changed = true;
    return best;
  });
  return changed ? fixed.join(' ') : null;
}

/**
 * Words first; when they match nothing (and `exact` is not asked), the same search with its
 * typos corrected, whose answer says so (`correctedQ`).
 */
export async function searchListings(
  database: Database,
  query: LibraryQuery,
  cache?: TotalsCache,
  apartFrom?: string,
): Promise<ListingPage> {
  const exact = await runSearch(database, query, cache, apartFrom);
  if (exact.total > 0 || !query.q || query.exact) return exact;
  const q = query.q;
  const corrected = await (cache
    ? cache.corrections.get(q, () => correctTypos(database, q))
    : correctTypos(database, q));
  if (!corrected) return exact;
  const fixed = await runSearch(database, { ...query, q: corrected }, cache, apartFrom);
  return fixed.total > 0 ? { ...fixed, correctedQ: corrected } : exact;
}
