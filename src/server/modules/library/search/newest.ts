import { LIBRARY_PAGE_SIZE } from '@shared/marketplace';
import type { Database } from '../../../db/client';
import { CARD_COLUMNS, CARD_JOINS, type CardRow } from '../../listings';
import { ORDER, buildFilters } from './filters';
import type { CompiledWords, Search } from './words';

/**
 * The newest page of a word search with many matches (past the cap, or too many to sort them
 * all) was read along the newest-first index, testing each listing's words: about (page's end)
 * × listings / matches rows, each on its own table page. For `picoult` (3,031 available matches
 * at a million listings) 6,204 rows and 6,276 pages for 24 cards, 1.2 s under load when they
 * were not in memory (decision 0098).
 *
 * Instead, PostgreSQL's BitmapAnd of the words' index and the newest index under a time bound:
 * the listings written since `since`, a share of the table that should hold MARGIN times the
 * page's end in matches (the matches spread over time as the listings do). Only the matches in
 * that window are read (`picoult`: 87 table pages). The bound comes from PostgreSQL's own
 * statistics of `created_at` (pg_stats' histogram, each bucket an equal share of the rows):
 * never a wrong page, since every listing outside the window is older than every one inside; when
 * the window holds less than the page, the search reads as before (in the same statement).
 */
const MARGIN = 3;
/** The listings a walk along the newest index would test, below which it is cheaper. */
const WALK_MIN = 3_000;

/** The histogram is read again after this long (it changes with ANALYZE). */
const BOUNDS_TTL_MS = 60_000;
const bounds = new WeakMap<Database, { at: number; values: number[] }>();

/** The bounds of PostgreSQL's histogram of book_listings.created_at, in ms since the epoch. */
async function createdBounds(database: Database): Promise<number[]> {
  const known = bounds.get(database);
  if (known && Date.now() - known.at < BOUNDS_TTL_MS) return known.values;
  const [row] = await database.query<{ values: number[] | null }>(
    `select array(select extract(epoch from b)::float8 * 1000
                  from unnest(s.histogram_bounds::text::timestamptz[]) b) as values
     from pg_stats s
     where s.schemaname = current_schema() and s.tablename = 'book_listings'
       and s.attname = 'created_at'`,
  );
  const values = row?.values ?? [];
  bounds.set(database, { at: Date.now(), values });
  return values;
}

/**
 * The time bound of the newest window for a page ending at `end` of about `matches` matches
 * (an ISO time), or null when the window would be most of the table or PostgreSQL has
 * no statistics yet.
 */
async function newestSince(
  database: Database,
  matches: number,
  end: number,
  base: number,
): Promise<string | null> {
  // Along the newest index about end × base / matches listings are tested: worth a window only
  // when that is long (the words' bitmap costs about one entry per match, the window's bitmap
  // MARGIN entries per listing tested).
  if ((end * base) / Math.max(1, matches) < WALK_MIN) return null;
  const share = (MARGIN * end) / Math.max(1, matches);
  if (share >= 0.5) return null;
  const values = await createdBounds(database);
  if (values.length < 3) return null;
  const buckets = values.length - 1;
  // The time with `share` of the rows after it: within its bucket, by linear interpolation
  // (the listings of a bucket spread evenly over its time).
  const at = buckets * (1 - share);
  const i = Math.floor(at);
  const low = values[i];
  const high = values[Math.min(i + 1, buckets)];
  return new Date(low + (high - low) * (at - i)).toISOString();
}

/**
 * The newest page of a word search from the matches written since the window's bound: the
 * words' index and the newest index in a BitmapAnd behind a fence, the other filters outside
 * it; when the window holds less than the page, the page read along the newest index as before,
 * in the same statement (a one-time condition: never both). Null when there is no window.
 */
export async function newestPage(
  database: Database,
  q: Search & { words: CompiledWords },
  { matches, base }: { matches: number; base: number },
  apartFrom: string | undefined,
): Promise<CardRow[] | null> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? LIBRARY_PAGE_SIZE;
  const since = await newestSince(database, matches, page * pageSize, base);
  if (!since) return null;
  const f = buildFilters({ ...q, q: undefined, words: undefined, apartFrom });
  const match = f.param(q.words.match);
  const limit = f.param(pageSize);
  const offset = f.param((page - 1) * pageSize);
  const order = ORDER.newest;
  return database.query<CardRow>(
    `with win as materialized (
       select l.id from (select l.* from book_listings l
                         where l.search_vector @@ ${match}::tsquery
                           and l.created_at >= ${f.param(since)}::timestamptz offset 0) l
       ${f.where()} order by ${order} limit ${limit} offset ${offset}),
     hits as (
       select w.id from win w where (select count(*) from win) >= ${limit}
       union all
       select e.id from (select l.id from book_listings l
                         ${f.where()} and l.search_vector @@ ${match}::tsquery
                         order by ${order} limit ${limit} offset ${offset}) e
       where (select count(*) from win) < ${limit})
     select ${CARD_COLUMNS} from hits h join book_listings l on l.id = h.id ${CARD_JOINS}
     order by ${order}`,
    f.params,
  );
}
