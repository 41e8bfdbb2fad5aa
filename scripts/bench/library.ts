/**
 * npm run bench:library — load test of the library search (GET /api/listings) on PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench npm run bench:library
 *
 * Migrates the database, seeds (once) 100,000 listings by ~2,000 sellers over the 10,000 books
 * of goodbooks-10k (read from ../shared/data beside the repository, never copied into it), starts
 * the app on a free port and keeps 50 connections busy for BENCH_SECONDS (default 20) with a mix
 * of text and filter queries. Prints latency percentiles and requests/s, then the time the same
 * searches take when run directly against PostgreSQL (no HTTP, one at a time).
 */
import 'dotenv/config';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MARKET_GENRES, isbn10To13, libraryQuerySchema } from '../../src/shared/marketplace';
import { loadConfig } from '../../src/server/config';
import { openPostgres, type Database } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { buildApp } from '../../src/server/app';
import { searchListings } from '../../src/server/modules/library/search';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const SELLERS = 2_000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BOOKS_CSV = new URL('../../../shared/data/goodbooks-10k/books.csv', import.meta.url);

/** Deterministic pseudo-random numbers, so every run seeds the same data. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** RFC 4180 CSV (quoted fields with commas and doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

interface CsvBook {
  title: string;
  authors: string[];
  isbn10: string | null;
  isbn13: string | null;
  year: string | null;
  language: string | null;
  cover: string | null;
}

function readBooks(): CsvBook[] {
  const [header, ...rows] = parseCsv(readFileSync(BOOKS_CSV, 'utf8'));
  const col = (name: string) => header.indexOf(name);
  const [isbnCol, authorsCol, titleCol, yearCol, langCol, imageCol] = [
    'isbn',
    'authors',
    'title',
    'original_publication_year',
    'language_code',
    'image_url',
  ].map(col);
  return rows
    .filter((r) => r.length === header.length && r[titleCol])
    .map((r) => {
      // The isbn column lost its leading zeros; the isbn13 column is in float notation.
      const raw = r[isbnCol].trim().toUpperCase();
      const isbn10 = /^[\dX]{1,10}$/.test(raw) ? raw.padStart(10, '0') : null;
      return {
        title: r[titleCol],
        authors: r[authorsCol]
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
        isbn10,
        isbn13: isbn10 ? isbn10To13(isbn10) : null,
        year: r[yearCol] ? String(Math.trunc(Number(r[yearCol]))) : null,
        language: r[langCol] || null,
        cover: r[imageCol]?.startsWith('https://') ? r[imageCol] : null,
      };
    });
}

const DESCRIPTIONS = [
  'Copia in ottime condizioni, letta una volta.',
  'Qualche segno a matita, copertina un po’ usurata.',
  'Like new, no markings. Smoke-free home.',
  'Edizione tascabile, pagine leggermente ingiallite.',
  'Hardcover with dust jacket, minor shelf wear.',
  'Scambio volentieri con gialli o fantascienza.',
  'Spedizione tracciata in tutta Italia.',
  'Prima edizione, conservata con cura.',
];
const CONDITIONS = ['new', 'likeNew', 'good', 'good', 'fair', 'poor'];
const TYPES = ['sell', 'sell', 'sell', 'both', 'trade'];
const STATUSES = [...Array(17).fill('available'), 'reserved', 'sold', 'traded', 'unavailable'];

async function seed(database: Database) {
  const [{ n }] = await database.query<{ n: number }>(
    'select count(*)::int as n from book_listings',
  );
  if (n >= LISTINGS) {
    console.log(`seed: ${n} listings already there`);
    return;
  }
  const books = readBooks();
  console.log(`seed: ${books.length} books, ${SELLERS} sellers, ${LISTINGS} listings…`);
  const started = Date.now();
  await database.query(
    `insert into users (id, email, display_name, username, created_at)
     select 'bench-' || g, 'bench-' || g || '@example.com', 'Lettore ' || g, 'lettore_' || g,
       now() - make_interval(days => g % 700)
     from generate_series(1, $1::int) g on conflict do nothing`,
    [SELLERS],
  );
  const random = rng(42);
  const bookIds: string[] = [];
  for (let i = 0; i < books.length; i += 1000) {
    const chunk = books.slice(i, i + 1000).map((b) => ({
      title: b.title,
      authors: b.authors,
      author: b.authors.join(', '),
      isbn_10: b.isbn10,
      isbn_13: b.isbn13,
      published_date: b.year,
      language: b.language,
      cover_url: b.cover,
    }));
    const rows = await database.query<{ id: string }>(
      `insert into books (title, authors, author, isbn_10, isbn_13, published_date, language, cover_url)
       select x.title, array(select jsonb_array_elements_text(x.authors)), x.author, x.isbn_10,
         x.isbn_13, x.published_date, x.language, x.cover_url
       from jsonb_to_recordset($1::jsonb) as x(title text, authors jsonb, author text,
         isbn_10 text, isbn_13 text, published_date text, language text, cover_url text)
       returning id`,
      [JSON.stringify(chunk)],
    );
    bookIds.push(...rows.map((r) => r.id));
  }
  // Each book keeps one genre across its listings.
  const genreOf = books.map(() => MARKET_GENRES[Math.floor(random() * MARKET_GENRES.length)]);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  for (let i = n; i < LISTINGS; i += 5000) {
    const chunk = [];
    for (let j = i; j < Math.min(i + 5000, LISTINGS); j++) {
      // Popular books are listed more often (a skewed pick).
      const b = Math.floor(books.length * random() ** 2);
      const type = pick(TYPES);
      chunk.push({
        book_id: bookIds[b],
        user_id: `bench-${1 + Math.floor(random() * SELLERS)}`,
        title: books[b].title,
        author: books[b].authors.join(', '),
        genre: genreOf[b],
        language: books[b].language,
        isbn: books[b].isbn13,
        listing_type: type,
        condition: pick(CONDITIONS),
        price: type === 'trade' ? null : Math.round((2 + random() * 78) * 100) / 100,
        description: pick(DESCRIPTIONS),
        status: pick(STATUSES),
        age_minutes: Math.floor(random() * 365 * 24 * 60),
      });
    }
    await database.query(
      `insert into book_listings (book_id, user_id, title, author, genre, language, isbn,
         listing_type, condition, price, description, status, created_at, updated_at)
       select x.book_id, x.user_id, x.title, x.author, x.genre, x.language, x.isbn, x.listing_type,
         x.condition, x.price, x.description, x.status,
         now() - make_interval(mins => x.age_minutes), now() - make_interval(mins => x.age_minutes)
       from jsonb_to_recordset($1::jsonb) as x(book_id uuid, user_id text, title text,
         author text, genre text, language text, isbn text, listing_type text, condition text,
         price numeric, description text, status text, age_minutes int)`,
      [JSON.stringify(chunk)],
    );
  }
  await database.exec('vacuum analyze');
  console.log(`seed: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The query mix: mostly browsing with filters, a good share of text search, a few typos. */
function queryMix(): string[] {
  const text = [
    'harry',
    'hunger games',
    'tolkien',
    'king',
    'love',
    'war',
    'the girl',
    'austen',
    'murakami',
    'gatsby',
    'dragon',
    'night',
    'rowling',
    'orwell 1984',
    'christie',
  ];
  const typos = ['hary poter', 'tolkein', 'murakmi'];
  const genres = ['fiction', 'fantasy', 'mystery', 'romance', 'sciFi', 'history', 'children'];
  const mix: string[] = [''];
  for (const q of text) {
    mix.push(`q=${encodeURIComponent(q)}`);
    mix.push(`q=${encodeURIComponent(q)}&sort=price_asc`);
  }
  for (const g of genres) {
    mix.push(`genre=${g}`);
    mix.push(`genre=${g}&sort=price_desc&page=2`);
    mix.push(`genre=${g}&minPrice=5&maxPrice=20&type=sell`);
  }
  mix.push('sort=price_asc', 'sort=price_desc', 'page=3', 'page=40', 'type=trade', 'type=both');
  mix.push('minPrice=10&maxPrice=25', 'maxPrice=8', 'status=all', 'status=sold');
  mix.push('author=king', 'author=rowling&status=all', 'q=harry&genre=fantasy&maxPrice=30');
  for (const q of typos) mix.push(`q=${encodeURIComponent(q)}`);
  return mix;
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function load(port: number, mix: string[], seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const deadline = performance.now() + seconds * 1000;
  const one = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - t0)
            : reject(new Error(String(res.statusCode))),
        );
      });
      req.on('error', reject);
    });
  const worker = async () => {
    while (performance.now() < deadline) {
      const q = mix[next++ % mix.length];
      try {
        latencies.push(await one(`/api/listings${q ? `?${q}` : ''}`));
      } catch {
        errors++;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { latencies, errors, elapsed };
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      'Set DATABASE_URL to a PostgreSQL database, e.g. postgres://postgres@127.0.0.1:5432/scaffale_bench',
    );
    process.exit(2);
  }
  if (!existsSync(BOOKS_CSV)) {
    console.log(`skipped: ${fileURLToPath(BOOKS_CSV)} is not there (the goodbooks-10k data set).`);
    return;
  }
  const database = openPostgres(url, 20);
  try {
    await migrate(database);
    await seed(database);
    const config = loadConfig(
      {
        ...process.env,
        LOG_LEVEL: 'silent',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'scaffale-bench-')),
      },
      { databaseUrl: url },
    );
    const app = await buildApp({ config, database });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const mix = queryMix();

    console.log(
      `warm-up 3 s, then ${SECONDS} s with ${CONNECTIONS} connections over ${mix.length} queries…`,
    );
    await load(port, mix, 3);
    const { latencies, errors, elapsed } = await load(port, mix, SECONDS);
    await app.close();
    const fmt = (n: number) => `${n.toFixed(1)} ms`;
    console.log(
      `\nmachine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (other work on the machine inflates every figure)`,
    );
    console.log('\nHTTP GET /api/listings (through Fastify, validation, JSON)');
    console.log(`  requests  ${latencies.length} in ${elapsed.toFixed(1)} s, errors ${errors}`);
    console.log(`  req/s     ${(latencies.length / elapsed).toFixed(0)}`);
    console.log(`  p50       ${fmt(percentile(latencies, 50))}`);
    console.log(`  p95       ${fmt(percentile(latencies, 95))}`);
    console.log(`  p99       ${fmt(percentile(latencies, 99))}`);

    // The same searches straight on PostgreSQL, one at a time (no HTTP, no concurrency).
    const direct: number[] = [];
    const perQuery: [string, number][] = [];
    for (const q of mix) {
      const query = libraryQuerySchema.parse(Object.fromEntries(new URLSearchParams(q)));
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        await searchListings(database, query);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      direct.push(...times);
      perQuery.push([q || '(no filter)', times[2]]);
    }
    direct.sort((a, b) => a - b);
    console.log('\nPostgreSQL alone (searchListings, sequential, 5 runs per query)');
    console.log(`  p50       ${fmt(percentile(direct, 50))}`);
    console.log(`  p95       ${fmt(percentile(direct, 95))}`);
    console.log(`  p99       ${fmt(percentile(direct, 99))}`);
    console.log('  slowest queries (median of 5):');
    for (const [q, ms] of perQuery.sort((a, b) => b[1] - a[1]).slice(0, 6))
      console.log(`    ${fmt(ms).padStart(9)}  ${q}`);
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
