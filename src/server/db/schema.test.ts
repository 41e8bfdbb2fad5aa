import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client';
import * as schema from './schema';
import { createTestDatabase } from '../test/app';

/**
 * The Drizzle schema (src/server/db/schema) against the migrated database: the migrations are
 * the truth (decisions 0046 and 0091). Every Drizzle table exists with the same
 * columns, SQL types, nullability and defaults; every table and column of the database is in
 * the Drizzle schema unless listed below as raw-SQL-only, with the reason.
 */
const RAW_SQL_ONLY: Record<string, string> = {
  schema_migrations:
    'the migrator’s own bookkeeping (src/server/db/migrate.ts), not a module’s data',
  rate_limits:
    'unlogged hit counters of the shared rate limits (0031); only platform/rate-limits-store SQL',
  search_words:
    'typo-correction vocabulary kept by a trigger on book_listings (0004); read only by the search SQL',
  listing_terms:
    'titles and authors for suggestions, kept by a trigger on book_listings (0037); read only by the suggestions SQL',
  listing_term_starts:
    'where each word of a listing_terms row starts (0037); read only by the suggestions SQL',
  listing_counts:
    'per-filter listing counts kept by a trigger (0010, 0016); read only by the library’s count SQL',
  'books.search_text': 'generated search column (0003); read only by the search SQL',
  'books.search_vector': 'generated tsvector (0003); read only by the search SQL',
  'book_listings.search_text': 'generated search column (0003); read only by the search SQL',
  'book_listings.search_vector': 'generated tsvector (0003); read only by the search SQL',
  'book_listings.author_norm': 'generated, unaccented author for trigram search (0003)',
  'book_listings.work_titles':
    "the work's other titles, kept by triggers for the search vector (0053); read only by the search SQL",
  'book_listings.author_variants':
    "the other spellings of the author's name, kept by triggers for the search vector and relevance (0055)",
  'book_listings.title_words':
    'generated words of the title for relevance (0059); read only by the search SQL',
  'book_listings.titles_words':
    "generated words of the title and its work's other titles for relevance (0059); read only by the search SQL",
  'book_listings.author_words':
    "generated words of the author's name and spellings for relevance (0059); read only by the search SQL",
  'community_posts.search_vector':
    'tsvector kept by a trigger (0013); read only by the community search SQL',
  'saved_searches.query':
    'the saved words as the library reads them (0039); written and read only by the matching SQL',
  'saved_searches.author_norm':
    'the saved author as the library compares it (0039); read only by the matching SQL',
  'saved_searches.keys': 'GIN index keys of a saved search (0039); read only by the matching SQL',
  'wishlist_items.match_key':
    'generated wish_key(title, author) (0012); read only by the wish-matching SQL',
};

type DbColumn = {
  table_name: string;
  column_name: string;
  type: string;
  not_null: boolean;
  default_sql: string | null;
  generated: boolean;
};

/** One spelling for a type: PostgreSQL's format_type() and Drizzle's getSQLType() differ in words. */
function normalType(type: string): string {
  return type
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\(\s*(\d+)\s*,\s*(\d+)\s*\)/g, '($1,$2)')
    .replace(/^character varying/, 'varchar')
    .replace(/^timestamp without time zone/, 'timestamp')
    .replace(/^time without time zone/, 'time')
    .replace(/^bigserial$/, 'bigint')
    .replace(/^serial$/, 'integer')
    .replace(/^double precision$/, 'double precision');
}

const drizzleTables = (Object.values(schema) as unknown[])
  .filter((x): x is PgTable => is(x, PgTable))
  .map((table) => getTableConfig(table));

let database: Database;
let columns: DbColumn[];

beforeAll(async () => {
  database = await createTestDatabase();
  columns = await database.query<DbColumn>(
    `select c.relname as table_name, a.attname as column_name,
       format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
       pg_get_expr(d.adbin, d.adrelid) as default_sql, a.attgenerated <> '' as generated
     from pg_attribute a
     join pg_class c on c.oid = a.attrelid and c.relkind in ('r', 'p')
     join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where a.attnum > 0 and not a.attisdropped
     order by c.relname, a.attnum`,
  );
}, 60_000);
afterAll(() => database?.close());

describe('the Drizzle schema matches the migrated database', () => {
  it('every Drizzle table and column exists with its type, nullability and default', () => {
    expect(drizzleTables.length).toBeGreaterThan(30);
    const problems: string[] = [];
    for (const table of drizzleTables) {
      const dbColumns = columns.filter((c) => c.table_name === table.name);
      if (dbColumns.length === 0) {
        problems.push(`${table.name}: table missing from the database`);
        continue;
      }
      for (const column of table.columns) {
        const where = `${table.name}.${column.name}`;
        const db = dbColumns.find((c) => c.column_name === column.name);
        if (!db) {
          problems.push(`${where}: column missing from the database`);
          continue;
        }
        const drizzleType = normalType(column.getSQLType());
        if (drizzleType !== normalType(db.type))
          problems.push(
            `${where}: type ${db.type} in the database, ${column.getSQLType()} in Drizzle`,
          );
        if (column.notNull !== db.not_null)
          problems.push(
            `${where}: ${db.not_null ? 'not null' : 'nullable'} in the database, ${column.notNull ? 'not null' : 'nullable'} in Drizzle`,
          );
        const dbHasDefault = db.default_sql !== null || db.generated;
        // A SQL default or generated column in Drizzle must be one in the database; a database
        // default must be known to Drizzle (or inserts through it would be typed as required).
        const drizzleSqlDefault = column.default !== undefined || column.generated !== undefined;
        const drizzleAnyDefault = column.hasDefault || drizzleSqlDefault;
        if (drizzleSqlDefault && !dbHasDefault)
          problems.push(`${where}: a default in Drizzle, none in the database`);
        if (dbHasDefault && !drizzleAnyDefault)
          problems.push(
            `${where}: default ${db.default_sql ?? '(generated)'} in the database, none in Drizzle`,
          );
        if (db.generated !== (column.generated !== undefined))
          problems.push(
            `${where}: generated ${db.generated ? 'in the database only' : 'in Drizzle only'}`,
          );
        if (
          db.default_sql !== null &&
          (typeof column.default === 'string' ||
            typeof column.default === 'number' ||
            typeof column.default === 'boolean')
        ) {
          const literal = String(db.default_sql).replace(/^'(.*)'::[\w ]+(\[\])?$/, '$1');
          if (literal !== String(column.default))
            problems.push(
              `${where}: default ${db.default_sql} in the database, ${String(column.default)} in Drizzle`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every table and column of the database is in Drizzle, or listed as raw-SQL-only', () => {
    const known = new Map(
      drizzleTables.map((t) => [t.name, new Set(t.columns.map((c) => c.name))]),
    );
    const lacking: string[] = [];
    for (const c of columns) {
      if (RAW_SQL_ONLY[c.table_name] || RAW_SQL_ONLY[`${c.table_name}.${c.column_name}`]) continue;
      const table = known.get(c.table_name);
      if (!table) lacking.push(`${c.table_name} (table)`);
      else if (!table.has(c.column_name)) lacking.push(`${c.table_name}.${c.column_name}`);
    }
    expect([...new Set(lacking)]).toEqual([]);
  });

  it('every raw-SQL-only entry names a table or column that exists', () => {
    for (const entry of Object.keys(RAW_SQL_ONLY)) {
      const [table, column] = entry.split('.');
      expect(
        columns.some((c) => c.table_name === table && (!column || c.column_name === column)),
        entry,
      ).toBe(true);
    }
  });
});
