import {
  DEFAULT_PRICE_RANGE,
  LIBRARY_PAGE_SIZE,
  LISTING_STATUSES,
  type LibraryQuery,
  type ListingPage,
  type ListingType,
} from '@shared/marketplace';
import type { Database } from '../../db/client';
import { prefixQuery } from '../catalogue/queries';
import { CARD_COLUMNS, CARD_JOINS, toCard, type CardRow } from '../listings/queries';
import { blockedMembersOf, libraryListing, notBlocked } from '../../platform/moderation';
import { TtlCache } from '../../platform/ttl-cache';

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
  minPrice?: number;
  maxPrice?: number;
  status?: string;
  /**
   * A signed-in viewer who has blocks (platform/moderation/blocks.ts): listings of the members a
   * block stands between them and the viewer are left out. Unset for visitors and members
   * without blocks, so their queries keep their shape.
   */
  apartFrom?: string;
}

/**
 * The library's filters as SQL on book_listings `l`. Text: every word of q as a prefix in the
 * title, author or description (accents ignored). Price: listings with a price in the range;
 * listings without a price (trade only) stay unless a minimum above 0 is asked.
 */
export function buildFilters(f: SearchFilters): Filters {
  const filters = new Filters();
  filters.add(libraryListing('l'));
  if (f.apartFrom) filters.add(notBlocked(filters.param(f.apartFrom), 'l.user_id'));
  const status = f.status ?? 'available';
  if (status !== 'all') filters.add(`l.status = ${filters.param(status)}`);
  if (f.genre) filters.add(`l.genre = ${filters.param(f.genre)}`);
  if (f.type) filters.add(`l.listing_type = any(${filters.param(typeValues(f.type))}::text[])`);
  if (f.author) {
    filters.add(
      `l.author_norm like '%' || lower(immutable_unaccent(${filters.param(escapeLike(f.author))})) || '%'`,
    );
  }
  if (f.q) {
    const tsquery = prefixQuery(f.q);
    if (tsquery)
      filters.add(
        `l.search_vector @@ to_tsquery('simple', immutable_unaccent(${filters.param(tsquery)}))`,
      );
  }
  if (f.minPrice !== undefined || f.maxPrice !== undefined) {
    const range: string[] = [];
    if (f.minPrice !== undefined) range.push(`l.price >= ${filters.param(f.minPrice)}`);
    if (f.maxPrice !== undefined) range.push(`l.price <= ${filters.param(f.maxPrice)}`);
    const inRange = range.join(' and ');
    filters.addPrice(f.minPrice ? `(${inRange})` : `(l.price is null or (${inRange}))`);
  }
  return filters;
}

const ORDER = {
  // Until relevance ranking lands (issue 25), relevance orders as newest.
  relevance: 'l.created_at desc, l.id desc',
  newest: 'l.created_at desc, l.id desc',
  price_asc: 'l.price asc nulls last, l.created_at desc, l.id desc',
  price_desc: 'l.price desc nulls last, l.created_at desc, l.id desc',
} as const;

/** `base`: listings under the status, genre and type filters alone (searches with words). */
type Totals = { total: number; min: number | null; max: number | null; base?: number };

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
  constructor(now: () => number = Date.now) {
    super(TOTALS_TTL_MS, now, 2_000, TOTALS_REFRESH_MS);
    this.corrections = new TtlCache(TOTALS_TTL_MS, now, 2_000, TOTALS_REFRESH_MS);
  }
}

/** The counts table's rows (`c`) and the listings (`l`) under the status, genre and type filters. */
function countKeys(f: Filters, q: LibraryQuery) {
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
  return { statuses, counted, listed };
}

/**
 * Totals of a search without words or author, the broadest ones (up to every listing), from the
 * counts table (migration 0010): its totals, or the whole euros of the price range, a range's partial
 * euros counted on the listings' price indexes; price bounds as the first and last price of the
 * (status, price) or (genre, status, price) index under each status asked for.
 */
async function countedTotals(database: Database, q: LibraryQuery): Promise<Totals> {
  const f = new Filters();
  const { statuses, counted, listed } = countKeys(f, q);
  const edges: string[] = [];
  const { minPrice, maxPrice } = q;
  if (minPrice === undefined && maxPrice === undefined) counted.push('c.price_floor = -2');
  else {
    const low = minPrice ?? 0;
    const wholeLow = Math.ceil(low);
    // A whole euro b counts when every price in [b, b + 1) is in the range.
    const whole = [`c.price_floor >= ${f.param(wholeLow)}`];
    if (maxPrice !== undefined) whole.push(`c.price_floor + 1 <= ${f.param(maxPrice)}::numeric`);
    // Listings without a price stay unless a minimum above 0 is asked (as in buildFilters).
    counted.push(`(${whole.join(' and ')}${minPrice ? '' : ' or c.price_floor = -1'})`);
    const below = maxPrice !== undefined ? ` and l.price <= ${f.param(maxPrice)}` : '';
    const edge = (from: number, to: string) =>
      `(select count(*) from book_listings l where l.status = any(${statuses}::text[])
         ${listed.map((c) => `and ${c} `).join('')}and l.price >= ${f.param(from)} and ${to})`;
    if (wholeLow > low) edges.push(edge(low, `l.price < ${f.param(wholeLow)}${below}`));
    if (maxPrice !== undefined)
      edges.push(edge(Math.max(Math.floor(maxPrice), wholeLow), `true${below}`));
  }
  const [row] = await database.query<Totals>(
    `select ((select coalesce(sum(c.n), 0) from listing_counts c where ${counted.join(' and ')})
         ${edges.map((e) => `+ ${e}`).join(' ')})::int as total,
       min(b.low)::float8 as min, max(b.high)::float8 as max
     from unnest(${statuses}::text[]) as s(status),
       lateral (select min(l.price) as low, max(l.price) as high from book_listings l
                where l.status = s.status ${listed.map((c) => `and ${c}`).join(' ')}) as b`,
    f.params,
  );
  return row;
}

/** Totals of a search with words or an author: every match counted, on their indexes. */
async function matchedTotals(database: Database, q: LibraryQuery): Promise<Totals> {
  const f = buildFilters(q);
  const { counted } = countKeys(f, q);
  const [row] = await database.query<Totals>(
    `select count(*) filter (where ${f.priceCondition()})::int as total,
       min(l.price)::float8 as min, max(l.price)::float8 as max,
       (select coalesce(sum(c.n), 0) from listing_counts c
        where c.price_floor = -2 and ${counted.join(' and ')})::int as base
     from book_listings l ${f.where(false)}`,
    f.params,
  );
  return row;
}

/**
 * A page of matches. In the order of an index, reading listings until the page is full, unless
 * the matches are so few that finding them on the text or author index and sorting them is
 * cheaper (PostgreSQL underrates testing each listing's words, and walks a whole index in vain
 * for words that match nothing).
 */
function loadItems(
  database: Database,
  q: LibraryQuery,
  fewMatches: boolean,
  apartFrom: string | undefined,
) {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? LIBRARY_PAGE_SIZE;
  const order = ORDER[q.sort ?? 'newest'];
  const f = buildFilters({ ...q, apartFrom });
  const limit = f.param(pageSize);
  const offset = f.param((page - 1) * pageSize);
  const hits = fewMatches
    ? `matches as materialized (
         select l.id, l.price, l.created_at from book_listings l ${f.where()}),
       hits as (select l.id from matches l order by ${order} limit ${limit} offset ${offset})`
    : `hits as (
         select l.id from book_listings l ${f.where()} order by ${order} limit ${limit} offset ${offset})`;
  return database.query<CardRow>(
    `with ${hits}
     select ${CARD_COLUMNS} from hits h join book_listings l on l.id = h.id ${CARD_JOINS}
     order by ${order}`,
    f.params,
  );
}

/**
 * For a viewer with blocks: how many of the listings counted by the shared totals belong to
 * members a block stands between them and the viewer (every filter, price included). Few rows,
 * found on the listings' seller index; the totals themselves stay shared and cached.
 */
async function blockedMatches(database: Database, q: LibraryQuery, viewer: string) {
  const f = buildFilters(q);
  f.add(`l.user_id = any(${blockedMembersOf(f.param(viewer))})`);
  const [row] = await database.query<{ n: number }>(
    `select count(*)::int as n from book_listings l ${f.where()}`,
    f.params,
  );
  return row.n;
}

async function runSearch(
  database: Database,
  q: LibraryQuery,
  cache?: TotalsCache,
  apartFrom?: string,
): Promise<ListingPage> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? LIBRARY_PAGE_SIZE;
  const broad = !q.author && !(q.q && prefixQuery(q.q));
  // Total under every filter; price bounds under every filter but the price range itself,
  // so the slider keeps its full span while it narrows the results.
  const loadTotals = () => (broad ? countedTotals(database, q) : matchedTotals(database, q));
  const key = JSON.stringify([
    q.q ?? null,
    q.author ?? null,
    q.genre ?? null,
    q.type ?? null,
    q.minPrice ?? null,
    q.maxPrice ?? null,
    q.status ?? 'available',
  ]);
  const shared = cache ? cache.get(key, loadTotals) : loadTotals();
  // Price bounds stay those of every reader (a blocked member's prices may widen the slider).
  const totals: Promise<Totals> = apartFrom
    ? Promise.all([shared, blockedMatches(database, q, apartFrom)]).then(([t, n]) => ({
        ...t,
        total: Math.max(0, t.total - n),
      }))
    : shared;
  let items: Promise<CardRow[]>;
  if (broad) items = loadItems(database, q, false, apartFrom);
  else {
    // Reading in index order tests about (listings before the page's end) × base / matches
    // listings; finding the matches costs about twice their number.
    const { total, base = 0 } = await totals;
    items = loadItems(database, q, 2 * total * total <= page * pageSize * base, apartFrom);
  }
  const [t, rows] = await Promise.all([totals, items]);
  return {
    items: rows.map(toCard),
    total: t.total,
    page,
    pageSize,
    // No priced listing under these filters: the default range of the library screen.
    priceBounds:
      t.min === null || t.max === null
        ? { min: DEFAULT_PRICE_RANGE[0], max: DEFAULT_PRICE_RANGE[1] }
        : { min: t.min, max: t.max },
  };
}

/**
 * Replaces each word of q that no title or author word starts with by the most similar known
 * word (pg_trgm similarity over `search_words`); null when nothing could be corrected.
 */
export async function correctTypos(database: Database, q: string): Promise<string | null> {
  const words = q
    .normalize('NFKC')
    .match(/[\p{L}\p{N}]+/gu)
    ?.slice(0, 8);
  if (!words?.length) return null;
  const rows = await database.query<{ word: string; fix: string | null }>(
    `select q.word,
       case when exists (select 1 from search_words s
                         where s.word collate "C" >= q.norm
                           and s.word collate "C" < q.norm || chr(1114111))
            then null
            else (select s.word from search_words s
                  where s.word % q.norm
                  order by similarity(s.word, q.norm) desc, s.word limit 1)
       end as fix
     from (select w as word, lower(immutable_unaccent(w)) as norm
           from unnest($1::text[]) as w) as q`,
    [words.map((w) => w.replace(/[\\%_]/g, ''))],
  );
  if (!rows.some((r) => r.fix)) return null;
  return rows.map((r) => r.fix ?? r.word).join(' ');
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
