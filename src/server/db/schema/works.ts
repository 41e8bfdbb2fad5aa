import { sql } from 'drizzle-orm';
import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';

/**
 * A work: every edition of one book in every language (migration 0053). Catalogue books and
 * listings point at it (`work_id`); triggers keep a listing's work and its titles' search words.
 */
export const works = pgTable('works', {
  id: uuidPk(),
  author: text('author').notNull().default(''),
  authorNorm: text('author_norm').generatedAlwaysAs(sql`lower(immutable_unaccent(author))`),
  firstYear: integer('first_year'),
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** A work's title in one language (ISO 639 code, 'und' when unknown). */
export const workTitles = pgTable(
  'work_titles',
  {
    workId: uuid('work_id')
      .notNull()
      .references(() => works.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    title: text('title').notNull(),
    titleNorm: text('title_norm').generatedAlwaysAs(sql`lower(immutable_unaccent(title))`),
  },
  (t) => [primaryKey({ columns: [t.workId, t.language] })],
);

/**
 * The spellings of an author's name across transliterations (migration 0055): each word and the
 * key of its group ('tolstoy' → 'tolstoj'). A listing's author's other spellings are its search
 * words too (book_listings.author_variants, kept by triggers).
 */
export const authorSpellings = pgTable('author_spellings', {
  spelling: text('spelling').primaryKey(),
  authorKey: text('author_key').notNull(),
});
