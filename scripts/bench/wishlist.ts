/**
 * npm run bench:wishlist — what listing a book costs when 100,000 wishlist items exist, against
 * listing it with none (issue 9: within 2x), and the floor: the same insert straight on
 * PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench npm run bench:wishlist
 *
 * BENCH_ITEMS wishlist items (default 100,000) over BENCH_WISHERS members (default 10,000) and
 * BENCH_BOOKS catalogue books (default 20,000), so a listed book has about five wishers, each
 * told by a 'wishlist.listed' notification, and every listing is for sale and trade (the trade
 * match query runs too). BENCH_LISTINGS listings (default 300, after BENCH_WARMUP uncounted ones)
 * are POSTed one after the other to /api/listings of the real app, which runs in its own process
 * (chat-server.ts with BENCH_SERVER=app); this process is the load generator and times each
 * request from send to answer. The floor times the listing's own INSERT from this process.
 */
import 'dotenv/config';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { openPostgres, type Database } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { AUTH_SECRET, ORIGIN, firstJsonLine, node, sessionCookie } from './lib/server';
import { percentile } from './lib/stats';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const WISHERS = Number(process.env.BENCH_WISHERS ?? 10_000);
const BOOKS = Number(process.env.BENCH_BOOKS ?? 20_000);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
/** The two conditions alternate this many times (each round lists LISTINGS / ROUNDS books). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Sellers take turns (the listings route allows 120 a minute per member). */
const SELLERS = 60;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.log('bench:wishlist needs a PostgreSQL server: set DATABASE_URL (skipped).');
  process.exit(0);
}

let server: ChildProcess | undefined;
process.on('exit', () => server?.kill('SIGTERM'));

async function startServer(): Promise<string> {
  server = node('scripts/bench/chat-server.ts', [], {
    BENCH_SERVER: 'app',
    DATABASE_URL: databaseUrl,
    AUTH_SECRET,
  });
  return (await firstJsonLine<{ url: string }>(server, 'server')).url;
}

/** A valid ISBN-13 per bench book: 979, the book's number, the check digit. */
function isbnOf(n: number): string {
  const twelve = `979${String(n).padStart(9, '0')}`;
  const sum = [...twelve].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

/** Members (sellers with sessions, wishers) and the catalogue books, written directly. */
async function seed(database: Database) {
  await database.query(`delete from book_listings where user_id like 'bench-wl-%'`);
  await database.query(`delete from users where id like 'bench-wl-%'`);
  await database.query(
    `insert into users (id, email, email_verified, display_name)
     select 'bench-wl-seller-' || g, 'bench-wl-seller-' || g || '@bench.local', true, 'Seller ' || g
     from generate_series(1, $1) g
     union all
     select 'bench-wl-wisher-' || g, 'bench-wl-wisher-' || g || '@bench.local', true, 'Wisher ' || g
     from generate_series(1, $2) g`,
    [SELLERS, WISHERS],
  );
  await database.query(`delete from books where title like 'Bench wished book %'`);
  const numbers = Array.from({ length: BOOKS }, (_, i) => i + 1);
  await database.query(
    `insert into books (title, authors, author, isbn_13)
     select 'Bench wished book ' || g, array['Bench Author ' || (g % 997)],
       'Bench Author ' || (g % 997), isbn
     from unnest($1::int[], $2::text[]) as x(g, isbn)`,
    [numbers, numbers.map(isbnOf)],
  );
  const tokens = Array.from({ length: SELLERS }, () => randomBytes(24).toString('base64url'));
  await database.query(
    `insert into sessions (id, user_id, token, expires_at)
     select 'bench-wl-' || t, 'bench-wl-seller-' || i, t, now() + interval '1 day'
     from unnest($1::text[]) with ordinality as x(t, i)`,
    [tokens],
  );
  return tokens.map(sessionCookie);
}

/** ITEMS wishes: wisher w wishes the books w, w + WISHERS, ... (mod BOOKS), with their lists. */
async function fillWishlists(database: Database) {
  await database.query(
    `insert into wishlists (user_id) select 'bench-wl-wisher-' || g from generate_series(1, $1) g
     on conflict do nothing`,
    [WISHERS],
  );
  const perWisher = Math.ceil(ITEMS / WISHERS);
  await database.query(
    `insert into wishlist_items (wishlist_id, user_id, book_id, title, author, isbn_13)
     select w.id, w.user_id, b.id, b.title, b.author, b.isbn_13
     from wishlists w
     cross join generate_series(0, $2 - 1) k
     join books b on b.title = 'Bench wished book ' ||
       ((((substr(w.user_id, 17)::int - 1) * 7919 + k * 104729) % $3) + 1)
     where w.user_id like 'bench-wl-wisher-%'
     limit $1
     on conflict do nothing`,
    [ITEMS, perWisher, BOOKS],
  );
  await database.query('analyze wishlist_items');
  await database.query('analyze book_listings');
  const [row] = await database.query<{ n: number }>(
    'select count(*)::int as n from wishlist_items',
  );
  return row.n;
}

async function clearWishlists(database: Database) {
  await database.query(`delete from wishlists where user_id like 'bench-wl-%'`);
  await database.query('analyze wishlist_items');
}

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

/** POSTs listings one after the other, books `from`.., and times each answer. */
async function listBooks(
  url: string,
  cookies: string[],
  from: number,
  count: number,
  warmup: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const n = ((from + i * 37) % BOOKS) + 1;
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
        title: `Bench wished book ${n}`,
        author: `Bench Author ${n % 997}`,
        genre: 'fiction',
        listingType: 'both',
        price: 9.5,
        description: 'Bench listing',
        isbn: isbnOf(n),
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

/** The floor: the listing's INSERT alone, from this process, on the same database. */
async function floor(database: Database, from: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + LISTINGS; i++) {
    const n = ((from + i * 37) % BOOKS) + 1;
    const [book] = await database.query<{ id: string }>('select id from books where isbn_13 = $1', [
      isbnOf(n),
    ]);
    const started = performance.now();
    await database.query(
      `insert into book_listings (book_id, user_id, title, author, genre, isbn, listing_type,
         condition, price, currency, description, images)
       values ($1, $2, $3, $4, 'fiction', $5, 'both', 'good', 9.5, 'EUR', 'Bench listing', '{}')
       returning id`,
      [
        book.id,
        `bench-wl-seller-${(i % SELLERS) + 1}`,
        `Bench wished book ${n}`,
        `Bench Author ${n % 997}`,
        isbnOf(n),
      ],
    );
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  return times;
}

const fmt = (f: Figures) =>
  `mean ${f.mean.toFixed(1)} ms, p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms (n=${f.n})`;

async function main() {
  const database = openPostgres(databaseUrl!, 2);
  await migrate(database);
  console.log(
    `bench:wishlist on ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const cookies = await seed(database);
  await clearWishlists(database);
  const url = await startServer();

  const noneTimes: number[] = [];
  const fullTimes: number[] = [];
  const afterLast: number[] = [];
  let items = 0;
  let told = 0;
  const perRound = Math.ceil(LISTINGS / ROUNDS);
  const warm = Math.ceil(WARMUP / ROUNDS);
  const countTold = async () =>
    (
      await database.query<{ n: number }>(
        `select count(*)::int as n from notifications where recipient_id like 'bench-wl-%'`,
      )
    )[0].n;
  // The two conditions alternate, so that the machine's other load falls on both alike.
  for (let round = 0; round < ROUNDS; round++) {
    await clearWishlists(database);
    noneTimes.push(...(await listBooks(url, cookies, round * 1_000, perRound, warm)));
    await database.query(`delete from book_listings where user_id like 'bench-wl-%'`);
    items = await fillWishlists(database);
    const before = await countTold();
    fullTimes.push(...(await listBooks(url, cookies, 5_000 + round * 1_000, perRound, warm)));
    // The alerts are stored after each answer: how long after the last answer they are all in.
    const lastAnswer = performance.now();
    let n = await countTold();
    for (let stable = 0; stable < 5;) {
      await new Promise((r) => setTimeout(r, 20));
      const again = await countTold();
      stable = again === n ? stable + 1 : 0;
      n = again;
    }
    afterLast.push(Math.max(0, performance.now() - lastAnswer - 100));
    told += n - before;
    await database.query(`delete from book_listings where user_id like 'bench-wl-%'`);
    await database.query(`delete from notifications where recipient_id like 'bench-wl-%'`);
  }
  const none = figures(noneTimes);
  const full = figures(fullTimes);
  const insert = figures(await floor(database, 10_000));
  await database.query(`delete from book_listings where user_id like 'bench-wl-%'`);

  console.log(
    `listing a book, ${LISTINGS} POST /api/listings one after the other, in ${ROUNDS} alternating rounds:`,
  );
  console.log(`  no wishlist items:        ${fmt(none)}`);
  console.log(
    `  ${items.toLocaleString('en')} wishlist items: ${fmt(full)}; ${told} wishers told, all stored at most ${Math.max(...afterLast).toFixed(0)} ms after the last answer of a round`,
  );
  console.log(`  floor (INSERT on PostgreSQL alone): ${fmt(insert)}`);
  console.log(
    `  ratio with/without items: mean ${(full.mean / none.mean).toFixed(2)}x, p50 ${(full.p50 / none.p50).toFixed(2)}x, p95 ${(full.p95 / none.p95).toFixed(2)}x (aim: within 2x)`,
  );
  await clearWishlists(database);
  await database.query(`delete from users where id like 'bench-wl-%'`);
  await database.query(`delete from books where title like 'Bench wished book %'`);
  await database.close();
  server?.kill('SIGTERM');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
