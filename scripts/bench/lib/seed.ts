/**
 * The benchmark's data: the 10,000 books of goodbooks-10k (read from ../shared/data beside the
 * repository, never copied into it) and N listings over them by 2,000 sellers, written set-based
 * in one transaction (a million listings in a few minutes rather than hours). Idempotent: books
 * and sellers are keyed, and only the listings still missing are added.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { MARKET_GENRES, isbn10To13 } from '../../../src/shared/marketplace';

export const SELLERS = 2_000;

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
  ref: string;
  title: string;
  authors: string[];
  isbn_10: string | null;
  isbn_13: string | null;
  published_date: string | null;
  language: string | null;
  cover_url: string | null;
}

export function readBooks(csv: URL): CsvBook[] {
  const [header, ...rows] = parseCsv(readFileSync(csv, 'utf8'));
  const col = (name: string) => header.indexOf(name);
  const [idCol, isbnCol, authorsCol, titleCol, yearCol, langCol, imageCol] = [
    'book_id',
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
        ref: `goodbooks-${r[idCol]}`,
        title: r[titleCol],
        authors: r[authorsCol]
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
        isbn_10: isbn10,
        isbn_13: isbn10 ? isbn10To13(isbn10) : null,
        published_date: r[yearCol] ? String(Math.trunc(Number(r[yearCol]))) : null,
        language: r[langCol] || null,
        cover_url: r[imageCol]?.startsWith('https://') ? r[imageCol] : null,
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

/** A deterministic number in [0, 1) for row g and stream k (so every run seeds the same data). */
const rand = (g: string, k: number) =>
  `((hashint8extended(${g}, ${k}) & 4294967295)::float8 / 4294967296)`;
/** A deterministic pick from a text array. */
const pick = (list: readonly string[], g: string, k: number) =>
  `(${pg.escapeLiteral(`{${list.map((s) => `"${s.replace(/"/g, '\\"')}"`).join(',')}}`)}::text[])[1 + floor(${rand(g, k)} * ${list.length})::int]`;

export async function seed(url: string, listings: number, csv: URL): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from book_listings',
    );
    const have = rows[0].n;
    if (have >= listings) {
      console.log(`seed: ${have.toLocaleString('en')} listings already there`);
      return;
    }
    const books = readBooks(csv);
    console.log(
      `seed: ${books.length} books, ${SELLERS} sellers, listings ${have + 1} to ${listings}…`,
    );
    const started = Date.now();
    await client.query('begin');
    // A superuser's bulk load: no per-row triggers (search words and counts are filled once below), no
    // foreign key checks (the rows are built from the keys themselves).
    await client.query(`set local session_replication_role = replica`);
    await client.query(`set local maintenance_work_mem = '512MB'`);
    await client.query(
      `insert into users (id, email, display_name, username, created_at)
       select 'bench-' || g, 'bench-' || g || '@example.com', 'Lettore ' || g, 'lettore_' || g,
         now() - make_interval(days => g % 700)
       from generate_series(1, $1::int) g on conflict do nothing`,
      [SELLERS],
    );
    await client.query(
      `insert into books (google_books_id, title, authors, author, isbn_10, isbn_13,
         published_date, language, cover_url)
       select x.ref, x.title, array(select jsonb_array_elements_text(x.authors)),
         array_to_string(array(select jsonb_array_elements_text(x.authors)), ', '),
         x.isbn_10, x.isbn_13, x.published_date, x.language, x.cover_url
       from jsonb_to_recordset($1::jsonb) as x(ref text, title text, authors jsonb,
         isbn_10 text, isbn_13 text, published_date text, language text, cover_url text)
       on conflict (google_books_id) do nothing`,
      [JSON.stringify(books)],
    );
    // Every book's work (migration 0053), as the listings' trigger would give it on their first
    // listing: one work per title and author, its title in the book's language. Set-based, since
    // the trigger is off here; the listings below carry their book's work.
    await client.query(
      `create temporary table bench_works on commit drop as
       select gen_random_uuid() as work_id, array_agg(b.id) as books, min(b.title) as title,
         min(b.author) as author, min(coalesce(language_code(b.language), 'und')) as language,
         min(nullif(substring(coalesce(b.published_date, '') from '^(-?\\d{1,4})'), '')::int) as year
       from books b where b.google_books_id like 'goodbooks-%' and b.work_id is null
       group by lower(immutable_unaccent(b.title)), lower(immutable_unaccent(b.author))`,
    );
    await client.query(
      `insert into works (id, author, first_year)
       select work_id, left(author, 300), case when year between -3000 and 2100 then year end from bench_works`,
    );
    await client.query(
      `insert into work_titles (work_id, language, title)
       select work_id, language, left(title, 300) from bench_works`,
    );
    await client.query(
      `update books b set work_id = w.work_id
       from bench_works w where b.id = any(w.books) and b.work_id is null`,
    );
    // Books numbered 0..n-1 in the data set's order (its most popular first); each keeps one genre.
    await client.query(
      `create temporary table bench_books on commit drop as
       select (row_number() over (order by substr(google_books_id, 11)::int) - 1)::int as n,
         id, work_id, title, author, language, isbn_13,
         ${pick(MARKET_GENRES, 'substr(google_books_id, 11)::bigint', 1)} as genre
       from books where google_books_id like 'goodbooks-%'`,
    );
    await client.query('create index on bench_books (n)');
    // Filling an empty table: indexes are built once afterwards, far faster than row by row.
    const indexes =
      have === 0
        ? (
            await client.query<{ name: string; def: string }>(
              `select indexname as name, indexdef as def from pg_indexes
               where tablename = 'book_listings' and indexname <> 'book_listings_pkey'`,
            )
          ).rows
        : [];
    for (const i of indexes) await client.query(`drop index ${pg.escapeIdentifier(i.name)}`);
    const count = (await client.query('select count(*)::int as n from bench_books')).rows[0].n;
    // Popular books are listed more often (a skewed pick of the book).
    await client.query(
      `insert into book_listings (book_id, work_id, user_id, title, author, genre, language, isbn,
         listing_type, condition, price, description, status, created_at, updated_at)
       select b.id, b.work_id, r.user_id, b.title, b.author, b.genre, b.language, b.isbn_13,
         r.listing_type, r.condition,
         case when r.listing_type = 'trade' then null else round((2 + r.p * 78)::numeric, 2) end,
         r.description, r.status, r.created_at, r.created_at
       from (
         select g,
           floor(${count} * ${rand('g', 2)} ^ 2)::int as book,
           'bench-' || (1 + floor(${rand('g', 3)} * ${SELLERS})::int) as user_id,
           ${pick(TYPES, 'g', 4)} as listing_type,
           ${pick(CONDITIONS, 'g', 5)} as condition,
           ${rand('g', 6)} as p,
           ${pick(DESCRIPTIONS, 'g', 7)} as description,
           ${pick(STATUSES, 'g', 8)} as status,
           now() - make_interval(mins => floor(${rand('g', 9)} * 365 * 24 * 60)::int) as created_at
         from generate_series($1::bigint, $2::bigint) g
       ) r join bench_books b on b.n = r.book`,
      [have + 1, listings],
    );
    for (const i of indexes) await client.query(i.def);
    await client.query(
      `insert into search_words (word)
       select distinct w from bench_books,
         unnest(tsvector_to_array(to_tsvector('simple', immutable_unaccent(title || ' ' || author)))) as w
       where length(w) >= 3
       on conflict do nothing`,
    );
    // The counts the trigger would have kept (migration 0010).
    await client.query('select refresh_listing_counts()');
    await client.query('commit');
    await client.query('vacuum analyze');
    console.log(`seed: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}
