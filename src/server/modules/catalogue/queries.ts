import type { CatalogueBook } from '@shared/marketplace';
import type { Database } from '../../db/client';
import type { CatalogueEntry } from './google';
import { withFuzzyMatching } from './fuzzy';

export interface BookRow {
  id: string;
  google_books_id: string | null;
  title: string;
  authors: string[];
  author: string;
  isbn_10: string | null;
  isbn_13: string | null;
  publisher: string | null;
  published_date: string | null;
  description: string | null;
  page_count: number | null;
  categories: string[];
  language: string | null;
  cover_url: string | null;
}

const BOOK_COLUMNS = `id, google_books_id, title, authors, author, isbn_10, isbn_13, publisher,
  published_date, description, page_count, categories, language, cover_url`;

export const coverPath = (bookId: string) => `/api/covers/${bookId}`;

export function toCatalogueBook(row: BookRow): CatalogueBook {
  return {
    id: row.id,
    googleBooksId: row.google_books_id,
    title: row.title,
    authors: row.authors,
    author: row.author,
    isbn10: row.isbn_10,
    isbn13: row.isbn_13,
    isbn: row.isbn_13 ?? row.isbn_10,
    publisher: row.publisher,
    publishedDate: row.published_date,
    description: row.description,
    pageCount: row.page_count,
    categories: row.categories,
    language: row.language,
    coverUrl: row.cover_url ? coverPath(row.id) : null,
  };
}

/**
 * Stores Google's answers in one statement (insert or refresh by google_books_id) and returns
 * the rows in the order given.
 */
export async function upsertCatalogueEntries(
  database: Database,
  entries: CatalogueEntry[],
): Promise<BookRow[]> {
  if (entries.length === 0) return [];
  const payload = entries.map((e) => ({
    google_books_id: e.googleBooksId,
    title: e.title,
    authors: e.authors,
    author: e.authors.join(', '),
    isbn_10: e.isbn10,
    isbn_13: e.isbn13,
    publisher: e.publisher,
    published_date: e.publishedDate,
    description: e.description,
    page_count: e.pageCount,
    categories: e.categories,
    language: e.language,
    cover_url: e.coverUrl,
  }));
  const rows = await database.query<BookRow>(
    `insert into books (google_books_id, title, authors, author, isbn_10, isbn_13, publisher,
       published_date, description, page_count, categories, language, cover_url)
     select x.google_books_id, x.title,
       array(select jsonb_array_elements_text(x.authors)), x.author, x.isbn_10, x.isbn_13,
       x.publisher, x.published_date, x.description, x.page_count,
       array(select jsonb_array_elements_text(x.categories)), x.language, x.cover_url
     from jsonb_to_recordset($1::jsonb) as x(google_books_id text, title text, authors jsonb,
       author text, isbn_10 text, isbn_13 text, publisher text, published_date text,
       description text, page_count int, categories jsonb, language text, cover_url text)
     on conflict (google_books_id) do update set
       title = excluded.title, authors = excluded.authors, author = excluded.author,
       isbn_10 = excluded.isbn_10, isbn_13 = excluded.isbn_13, publisher = excluded.publisher,
       published_date = excluded.published_date, description = excluded.description,
       page_count = excluded.page_count, categories = excluded.categories,
       language = excluded.language, cover_url = coalesce(excluded.cover_url, books.cover_url),
       updated_at = now()
     returning ${BOOK_COLUMNS}`,
    [JSON.stringify(payload)],
  );
  const byGoogleId = new Map(rows.map((r) => [r.google_books_id, r]));
  return entries.map((e) => byGoogleId.get(e.googleBooksId)!).filter(Boolean);
}

/** Words of a search text, for prefix tsqueries ('harry:* & pot:*'); no tsquery syntax survives. */
export function prefixQuery(q: string): string | null {
  const words = q.normalize('NFKC').match(/[\p{L}\p{N}]+/gu);
  if (!words || words.length === 0) return null;
  return words
    .slice(0, 32)
    .map((w) => `${w.toLowerCase()}:*`)
    .join(' & ');
}

/**
 * The local catalogue: an exact ISBN, else words (title and authors, accents ignored, prefixes
 * match), else trigram similarity for typos.
 */
export async function searchLocalBooks(
  database: Database,
  q: string,
  limit: number,
): Promise<BookRow[]> {
  const digits = q
    .replace(/^isbn:/i, '')
    .replace(/[\s-]/g, '')
    .toUpperCase();
  if (/^(\d{9}[\dX]|\d{13})$/.test(digits)) {
    const rows = await database.query<BookRow>(
      `select ${BOOK_COLUMNS} from books where isbn_13 = $1 or isbn_10 = $1 limit $2`,
      [digits, limit],
    );
    if (rows.length > 0) return rows;
  }
  const tsquery = prefixQuery(q);
  if (tsquery) {
    const rows = await database.query<BookRow>(
      `select ${BOOK_COLUMNS} from books,
         to_tsquery('simple', immutable_unaccent($1)) as query
       where search_vector @@ query
       order by ts_rank(search_vector, query) desc, title
       limit $2`,
      [tsquery, limit],
    );
    if (rows.length > 0) return rows;
  }
  return withFuzzyMatching(database, (query) =>
    query<BookRow>(
      `select ${BOOK_COLUMNS} from books
     where search_text %> lower(immutable_unaccent($1))
     order by word_similarity(lower(immutable_unaccent($1)), search_text) desc, title
     limit $2`,
      [q, limit],
    ),
  );
}

export async function findBookById(database: Database, id: string): Promise<BookRow | null> {
  const [row] = await database.query<BookRow>(`select ${BOOK_COLUMNS} from books where id = $1`, [
    id,
  ]);
  return row ?? null;
}

export async function findBookByGoogleId(
  database: Database,
  googleBooksId: string,
): Promise<BookRow | null> {
  const [row] = await database.query<BookRow>(
    `select ${BOOK_COLUMNS} from books where google_books_id = $1`,
    [googleBooksId],
  );
  return row ?? null;
}

export async function findBookByIsbn(database: Database, isbn: string): Promise<BookRow | null> {
  const [row] = await database.query<BookRow>(
    `select ${BOOK_COLUMNS} from books where isbn_13 = $1 or isbn_10 = $1
     order by (google_books_id is not null) desc, created_at limit 1`,
    [isbn],
  );
  return row ?? null;
}
