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
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { MARKET_GENRES } from '../../src/shared/marketplace';
import type { SavedSearchFilters } from '../../src/shared/schemas/savedSearches';
import { openPostgres, type Database } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import {
  insertSearches,
  listingKeys,
  storeMatches,
} from '../../src/server/modules/saved-searches/queries';
import { AUTH_SECRET, BOOKS_CSV, ORIGIN, firstJsonLine, node, sessionCookie } from './lib/server';
import { readBooks } from './lib/seed';
import { percentile } from './lib/stats';

const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 100_000);
const PER_MEMBER = 10;
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Sellers take turns (the listings route allows 120 a minute per member). */
const SELLERS = 60;
const P = 'bench-ss-';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.log('bench:saved-searches needs a PostgreSQL server: set DATABASE_URL (skipped).');
  process.exit(0);
}

let server: ChildProcess | undefined;
process.on('exit', () => server?.kill('SIGTERM'));

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
  const members = Math.ceil(SEARCHES / PER_MEMBER);
  await database.query(
    `insert into users (id, email, email_verified, display_name)
     select '${P}seller-' || g, '${P}seller-' || g || '@bench.local', true, 'Seller ' || g
     from generate_series(1, $1) g
     union all
     select '${P}member-' || g, '${P}member-' || g || '@bench.local', true, 'Member ' || g
     from generate_series(1, $2) g`,
    [SELLERS, members],
  );
  const tokens = Array.from({ length: SELLERS }, () => randomBytes(24).toString('base64url'));
  await database.query(
    `insert into sessions (id, user_id, token, expires_at)
     select '${P}' || t, '${P}seller-' || i, t, now() + interval '1 day'
     from unnest($1::text[]) with ordinality as x(t, i)`,
    [tokens],
  );
  return tokens.map(sessionCookie);
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

interface Figures {
  mean: number;
  p50: number;
  p95: number;
  n: number;
}
function figures(ms: number[]): Figures {
  const sorted = [...ms].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  return { mean, p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length };
}
const fmt = (f: Figures) =>
  `mean ${f.mean.toFixed(1)} ms, p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms (n=${f.n})`;

const bookAt = (n: number) => books[(n * 7919) % books.length];

async function listBooks(
  url: string,
  cookies: string[],
  from: number,
  count: number,
  warmup: number,
) {
  const times: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const b = bookAt(from + i);
    const started = performance.now();
    const res = await fetch(`${url}/api/listings`, {
      method: 'POST',
      headers: {
        origin: ORIGIN,
        cookie: cookies[i % cookies.length],
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        mode: 'full',
        title: b.title,
        author: b.author,
        genre: b.genre,
        listingType: 'sell',
        price: b.price,
        description: 'Copia in buone condizioni, spedizione tracciata.',
      }),
    });
    const elapsed = performance.now() - started;
    if (res.status !== 201)
      throw new Error(`POST /api/listings: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    if (i >= warmup) times.push(elapsed);
  }
  return times;
}

async function floor(database: Database, from: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + LISTINGS; i++) {
    const b = bookAt(from + i);
    const started = performance.now();
    await database.query(
      `insert into book_listings (book_id, user_id, title, author, genre, listing_type, condition,
         price, currency, description, images)
       values ((select id from books order by id limit 1), $1, $2, $3, $4, 'sell', 'good', $5,
         'EUR', $6, '{}') returning id`,
      [
        `${P}seller-${(i % SELLERS) + 1}`,
        b.title,
        b.author,
        b.genre,
        b.price,
        'Copia in buone condizioni, spedizione tracciata.',
      ],
    );
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  return times;
}

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
  const machine = () =>
    `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`;
  console.log(`bench:saved-searches on ${machine()}`);
  const cookies = await seed(database);
  await clearSearches(database);
  server = node('scripts/bench/chat-server.ts', [], {
    BENCH_SERVER: 'app',
    DATABASE_URL: databaseUrl,
    AUTH_SECRET,
  });
  const { url } = await firstJsonLine<{ url: string }>(server, 'server');

  const countMatches = async () =>
    (
      await database.query<{ n: number }>(
        `select count(*)::int as n from saved_search_matches where user_id like '${P}%'`,
      )
    )[0].n;
  const noneTimes: number[] = [];
  const fullTimes: number[] = [];
  const afterLast: number[] = [];
  let searches = 0;
  let told = 0;
  const perRound = Math.ceil(LISTINGS / ROUNDS);
  const warm = Math.ceil(WARMUP / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    await clearSearches(database);
    noneTimes.push(...(await listBooks(url, cookies, round * 1_000, perRound, warm)));
    await clearListings(database);
    searches = await fillSearches(database);
    fullTimes.push(...(await listBooks(url, cookies, 5_000 + round * 1_000, perRound, warm)));
    // The matches are stored after each answer: how long after the last answer they all are.
    const lastAnswer = performance.now();
    let n = await countMatches();
    for (let stable = 0; stable < 5;) {
      await new Promise((r) => setTimeout(r, 20));
      const again = await countMatches();
      stable = again === n ? stable + 1 : 0;
      n = again;
    }
    afterLast.push(Math.max(0, performance.now() - lastAnswer - 100));
    told += n;
    if (round < ROUNDS - 1) await clearListings(database);
  }
  const match = await matching(database);
  await clearListings(database);
  const none = figures(noneTimes);
  const full = figures(fullTimes);
  const insert = figures(await floor(database, 10_000));
  await clearListings(database);

  console.log(
    `listing a book, ${LISTINGS} POST /api/listings one after the other, in ${ROUNDS} alternating rounds:`,
  );
  console.log(`  no saved searches:        ${fmt(none)}`);
  console.log(
    `  ${searches.toLocaleString('en')} saved searches: ${fmt(full)}; ${told} members told (${(told / (perRound * ROUNDS + warm * ROUNDS)).toFixed(1)} a listing), all stored at most ${Math.max(...afterLast).toFixed(0)} ms after the last answer of a round`,
  );
  console.log(`  floor (INSERT on PostgreSQL alone): ${fmt(insert)}`);
  console.log(
    `  the matching alone (keys + GIN lookup + checks + store, ${match.times.length} listings): ${fmt(figures(match.times))}, ${match.found} matches`,
  );
  console.log(
    `  ratio with/without searches: mean ${(full.mean / none.mean).toFixed(2)}x, p50 ${(full.p50 / none.p50).toFixed(2)}x, p95 ${(full.p95 / none.p95).toFixed(2)}x (aim: within 2x)`,
  );
  console.log(`  machine at the end: ${machine()}`);
  await clearSearches(database);
  await database.query(`delete from users where id like '${P}%'`);
  await database.close();
  server?.kill('SIGTERM');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
