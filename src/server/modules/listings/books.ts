import { normalizeIsbn, type Genre } from '@shared/marketplace';
import { genreFromCategories } from '@shared/catalogueGenre';
import type { Database } from '../../db/client';
import { findBookByGoogleId, findBookById, findBookByIsbn, type BookRow } from '../catalogue';
import { isUuid } from './queries';

function isbnParts(isbn: string | undefined): { isbn10: string | null; isbn13: string | null } {
  if (!isbn) return { isbn10: null, isbn13: null };
  const s = normalizeIsbn(isbn);
  return s.length === 13 ? { isbn10: null, isbn13: s } : { isbn10: s, isbn13: null };
}

async function insertBook(
  database: Database,
  b: { title: string; author: string; isbn?: string; language?: string },
): Promise<BookRow> {
  const { isbn10, isbn13 } = isbnParts(b.isbn);
  const authors = b.author
    .split(/\s*,\s*/)
    .map((a) => a.trim())
    .filter(Boolean);
  const [row] = await database.query<BookRow>(
    `insert into books (title, authors, author, isbn_10, isbn_13, language)
     values ($1, $2, $3, $4, $5, $6)
     returning id, google_books_id, title, authors, author, isbn_10, isbn_13, publisher,
       published_date, description, page_count, categories, language, cover_url`,
    [b.title, authors, authors.join(', '), isbn10, isbn13, b.language ?? null],
  );
  return row;
}

/**
 * The catalogue row a new listing points at: the one chosen (our id or Google's), else the one
 * with this ISBN, else one with the very same title and author, else a new one. Other members'
 * listings show its cover, so nothing a member sends ever sets it: only the catalogue does.
 */
export async function resolveBook(
  database: Database,
  input: {
    title: string;
    author: string;
    bookId?: string;
    googleBooksId?: string;
    isbn?: string;
    language?: string;
  },
): Promise<BookRow> {
  let book: BookRow | null = null;
  if (input.bookId && isUuid(input.bookId)) book = await findBookById(database, input.bookId);
  if (!book && input.googleBooksId) book = await findBookByGoogleId(database, input.googleBooksId);
  if (!book && input.isbn) book = await findBookByIsbn(database, normalizeIsbn(input.isbn));
  if (!book && !input.isbn) {
    const [same] = await database.query<BookRow>(
      `select id, google_books_id, title, authors, author, isbn_10, isbn_13, publisher,
         published_date, description, page_count, categories, language, cover_url
       from books where lower(title) = lower($1) and lower(author) = lower($2)
       order by (google_books_id is not null) desc, created_at limit 1`,
      [input.title, input.author],
    );
    book = same ?? null;
  }
  if (!book) {
    return insertBook(database, {
      title: input.title,
      author: input.author,
      isbn: input.isbn,
      language: input.language,
    });
  }
  return book;
}

/**
 * The genre of a quick listing: the catalogue's categories for the book, mapped to our genres;
 * a book the catalogue gives none for (a local row, a result without categories) takes the genre
 * its other listings carry most often, and only then 'other'.
 */
export async function genreOfBook(database: Database, book: BookRow): Promise<Genre> {
  if (book.categories.length > 0) return genreFromCategories(book.categories);
  const [most] = await database.query<{ genre: Genre }>(
    `select genre from book_listings where book_id = $1 and genre <> 'other'
     group by genre order by count(*) desc, genre limit 1`,
    [book.id],
  );
  return most?.genre ?? 'other';
}
