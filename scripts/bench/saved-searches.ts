/**
 * npm run bench:saved-searches — what listing a book costs when 100,000 saved searches exist,
 * against listing it with none (issue 22, item 5: within 2x), and the floor: the listing's
 * INSERT straight on PostgreSQL, all in the same run.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench_ss npm run bench:saved-searches
 *
 * BENCH_SEARCHES saved searches (default 100,000), ten per member, made from the goodbooks-10k
 * catalogue (../shared/data, read, never copied): 55 % one title word (some with a maximum price),
 * 20 % two title words, 15 % an author's surname, 9 % a title word in a genre, 1 % a genre under
 * a price. BENCH_LISTINGS books of the same catalogue (default 300, after BENCH_WARMUP uncounted
 * ones) are POSTed one after the other to /api/listings of the real app, in its own process
 * (chat-server.ts with BENCH_SERVER=app); this process is the load generator and times each
 * request from send to answer. The two conditions alternate in BENCH_ROUNDS rounds, so the
 * machine's other load falls on both alike. The matching itself (its two queries, timed from
 * here) and how long after the last answer of a round every match is stored are printed too.
 */
import 'dotenv/config';
import { MARKET_GENRES } from '../../src/shared/marketplace';
import type { SavedSearchFilters } from '../../src/shared/schemas/savedSearches';
import { openPostgres, type Database } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { insertSearches, listingKeys, storeMatches } from '../../src/server/modules/saved-searches';
import { BOOKS_CSV } from './lib/server';
import { readBooks } from './lib/seed';
import * as cost from './lib/listing-cost';

const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 100_000);
const PER_MEMBER = 10;
const P = 'bench-ss-';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.log('bench:saved-searches needs a PostgreSQL server: set DATABASE_URL (skipped).');
  process.exit(0);
}

/** A repeatable sequence (the same searches and listings in every run). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rnd = random(22);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];

const books = readBooks(BOOKS_CSV).map((b, i) => ({
  title: b.title,
  author: b.authors[0] ?? 'Unknown',
  genre: MARKET_GENRES[i % MARKET_GENRES.length],
  price: 4 + (i % 27),
}));
const wordsOf = (title: string) =>
  (title.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4);

function searchFilters(): SavedSearchFilters {
  const book = pick(books);
  const words = wordsOf(book.title);
  const word = words.length ? pick(words) : book.title.slice(0, 6);
  const r = rnd();
  if (r < 0.55)
    return { q: word, ...(rnd() < 0.3 ? { maxPrice: 10 + Math.floor(rnd() * 20) } : {}) };
  if (r < 0.75) return { q: words.length > 1 ? `${words[0]} ${words[1]}` : word };
  if (r < 0.9) return { author: book.author.split(' ').at(-1) ?? book.author };
  if (r < 0.99) return { q: word, genre: book.genre };
  return { genre: book.genre, maxPrice: 5 + Math.floor(rnd() * 10) };
}

async function seed(database: Database) {
  await database.query(`delete from users where id like '${P}%'`);
  const cookies = await cost.seedSellers(database, P);
  await database.query(
    `insert into users (id, email, email_verified, display_name)
     select '${P}member-' || g, '${P}member-' || g || '@bench.local', true, 'Member ' || g
     from generate_series(1, $1) g`,
    [Math.ceil(SEARCHES / PER_MEMBER)],
  );
  return cookies;
}

const searchRows = Array.from({ length: SEARCHES }, (_, i) => ({
  userId: `${P}member-${Math.floor(i / PER_MEMBER) + 1}`,
  name: `search ${i}`,
  filters: searchFilters(),
}));

async function fillSearches(database: Database) {
  for (let i = 0; i < searchRows.length; i += 10_000)
    await insertSearches(database, searchRows.slice(i, i + 10_000));
  await database.query('analyze saved_searches');
  const [row] = await database.query<{ n: number }>(
    'select count(*)::int as n from saved_searches',
  );
  return row.n;
}
const clearSearches = async (database: Database) => {
  await database.query(`delete from saved_searches where user_id like '${P}%'`);
  await database.query('analyze saved_searches');
};
const clearListings = async (database: Database) => {
  await database.query(`delete from book_listings where user_id like '${P}%'`);
  await database.query(`delete from notifications where recipient_id like '${P}%'`);
};

const bookAt = (n: number) => books[(n * 7919) % books.length];

const listingOf = (from: number) => (i: number) => {
  const b = bookAt(from + i);
  return {
    mode: 'full',
    title: b.title,
    author: b.author,
    genre: b.genre,
    listingType: 'sell',
    price: b.price,
    description: 'Copia in buone condizioni, spedizione tracciata.',
  };
};

const insertAt = (database: Database) => async (i: number) => {
  const b = bookAt(10_000 + i);
  return () =>
    database.query(
      `insert into book_listings (book_id, user_id, title, author, genre, listing_type, condition,
         price, currency, description, images)
       values ((select id from books order by id limit 1), $1, $2, $3, $4, 'sell', 'good', $5,
         'EUR', $6, '{}') returning id`,
      [
        `${P}seller-${(i % cost.SELLERS) + 1}`,
        b.title,
        b.author,
        b.genre,
        b.price,
        'Copia in buone condizioni, spedizione tracciata.',
      ],
    );
};

/** The matching's two queries for listings already in the table, timed from here. */
async function matching(database: Database): Promise<{ times: number[]; found: number }> {
  const ids = await database.query<{ id: string }>(
    `select id from book_listings where user_id like '${P}%' limit 100`,
  );
  await database.query('delete from saved_search_matches where listing_id = any($1::uuid[])', [
    ids.map((r) => r.id),
  ]);
  const times: number[] = [];
  let found = 0;
  for (const { id } of ids) {
    const started = performance.now();
    const keys = await listingKeys(database, id);
    if (keys) found += (await storeMatches(database, id, keys, new Date().toISOString())).length;
    times.push(performance.now() - started);
  }
  return { times, found };
}

async function main() {
  const database = openPostgres(databaseUrl!, 2);
  await migrate(database);
  console.log(`bench:saved-searches on ${cost.machine()}`);
  const cookies = await seed(database);
  await clearSearches(database);
  const url = await cost.startApp(databaseUrl!);

  const conditions = cost.benchConditions();
  const result = await cost.alternate({
    ...conditions,
    empty: () => clearSearches(database),
    fill: () => fillSearches(database),
    list: (from, count, warmup) => cost.postListings(url, cookies, count, warmup, listingOf(from)),
    clearListings: () => clearListings(database),
    told: async () =>
      (
        await database.query<{ n: number }>(
          `select count(*)::int as n from saved_search_matches where user_id like '${P}%'`,
        )
      )[0].n,
    // The last round's listings stay for the matching's own measurement.
    keepLast: true,
  });
  const match = await matching(database);
  await clearListings(database);
  const insert = cost.figures(
    await cost.timeInserts(conditions.listings, conditions.warmup, insertAt(database)),
  );
  await clearListings(database);

  cost.report(
    'saved searches',
    result,
    insert,
    conditions,
    `${result.told} members told (${(result.told / result.listed).toFixed(1)} a listing)`,
  );
  console.log(
    `  the matching alone (keys + GIN lookup + checks + store, ${match.times.length} listings): ${cost.fmt(cost.figures(match.times))}, ${match.found} matches`,
  );
  console.log(`  machine at the end: ${cost.machine()}`);
  await clearSearches(database);
  await database.query(`delete from users where id like '${P}%'`);
  await database.close();
  cost.stopApp();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
