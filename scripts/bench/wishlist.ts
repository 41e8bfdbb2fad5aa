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
import { openPostgres, type Database } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import * as cost from './lib/listing-cost';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const WISHERS = Number(process.env.BENCH_WISHERS ?? 10_000);
const BOOKS = Number(process.env.BENCH_BOOKS ?? 20_000);
const P = 'bench-wl-';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.log('bench:wishlist needs a PostgreSQL server: set DATABASE_URL (skipped).');
  process.exit(0);
}

/** A valid ISBN-13 per bench book: 979, the book's number, the check digit. */
function isbnOf(n: number): string {
  const twelve = `979${String(n).padStart(9, '0')}`;
  const sum = [...twelve].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

/** Members (sellers with sessions, wishers) and the catalogue books, written directly. */
async function seed(database: Database) {
  await database.query(`delete from book_listings where user_id like '${P}%'`);
  await database.query(`delete from users where id like '${P}%'`);
  const cookies = await cost.seedSellers(database, P);
  await database.query(
    `insert into users (id, email, email_verified, display_name)
     select '${P}wisher-' || g, '${P}wisher-' || g || '@bench.local', true, 'Wisher ' || g
     from generate_series(1, $1) g`,
    [WISHERS],
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
  return cookies;
}

/** ITEMS wishes: wisher w wishes the books w, w + WISHERS, ... (mod BOOKS), with their lists. */
async function fillWishlists(database: Database) {
  await database.query(
    `insert into wishlists (user_id) select '${P}wisher-' || g from generate_series(1, $1) g
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
     where w.user_id like '${P}wisher-%'
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
  await database.query(`delete from wishlists where user_id like '${P}%'`);
  await database.query('analyze wishlist_items');
}

const bookNumber = (from: number, i: number) => ((from + i * 37) % BOOKS) + 1;

async function main() {
  const database = openPostgres(databaseUrl!, 2);
  await migrate(database);
  console.log(`bench:wishlist on ${cost.machine()}`);
  const cookies = await seed(database);
  await clearWishlists(database);
  const url = await cost.startApp(databaseUrl!);

  const conditions = cost.benchConditions();
  const result = await cost.alternate({
    ...conditions,
    empty: () => clearWishlists(database),
    fill: () => fillWishlists(database),
    list: (from, count, warmup) =>
      cost.postListings(url, cookies, count, warmup, (i) => {
        const n = bookNumber(from, i);
        return {
          mode: 'full',
          title: `Bench wished book ${n}`,
          author: `Bench Author ${n % 997}`,
          genre: 'fiction',
          listingType: 'both',
          price: 9.5,
          description: 'Bench listing',
          isbn: isbnOf(n),
        };
      }),
    clearListings: async () => {
      await database.query(`delete from book_listings where user_id like '${P}%'`);
      await database.query(`delete from notifications where recipient_id like '${P}%'`);
    },
    told: async () =>
      (
        await database.query<{ n: number }>(
          `select count(*)::int as n from notifications where recipient_id like '${P}%'`,
        )
      )[0].n,
  });
  const insert = cost.figures(
    await cost.timeInserts(conditions.listings, conditions.warmup, async (i) => {
      const n = bookNumber(10_000, i);
      const [book] = await database.query<{ id: string }>(
        'select id from books where isbn_13 = $1',
        [isbnOf(n)],
      );
      return () =>
        database.query(
          `insert into book_listings (book_id, user_id, title, author, genre, isbn, listing_type,
             condition, price, currency, description, images)
           values ($1, $2, $3, $4, 'fiction', $5, 'both', 'good', 9.5, 'EUR', 'Bench listing', '{}')
           returning id`,
          [
            book.id,
            `${P}seller-${(i % cost.SELLERS) + 1}`,
            `Bench wished book ${n}`,
            `Bench Author ${n % 997}`,
            isbnOf(n),
          ],
        );
    }),
  );
  await database.query(`delete from book_listings where user_id like '${P}%'`);

  cost.report('wishlist items', result, insert, conditions, `${result.told} wishers told`);
  await clearWishlists(database);
  await database.query(`delete from users where id like '${P}%'`);
  await database.query(`delete from books where title like 'Bench wished book %'`);
  await database.close();
  cost.stopApp();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
