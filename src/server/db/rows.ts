/**
 * What a row's values are on both drivers (PGlite and node-postgres): a `timestamptz` comes as a
 * Date, a timestamp inside json as an ISO string, `int` and `float8` as numbers, `numeric` as a
 * string; `bigint` differs (a number on PGlite, a string on node-postgres), so counts are cast
 * `::int`. Row types say what comes, and a timestamp reaches the API as an ISO string through
 * `toIso` at the read (`rows.test.ts` holds both drivers to it).
 */
import { getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { sql, type Sql } from './sql';

/** A `timestamptz` column as the API writes it: an ISO string in UTC. */
export function toIso(value: Date): string;
export function toIso(value: Date | null): string | null;
export function toIso(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}

/** Columns whose values the schema reads as text. */
const AS_TEXT = new Set(['citext', 'date']);

/**
 * Every column of a table, each named as the schema names its field, so a statement returns rows
 * of `typeof table.$inferSelect` (citext and date as text, as the schema reads them).
 */
export function fieldsOf(table: PgTable): Sql {
  return sql.join(
    Object.entries(getTableColumns(table)).map(([field, column]) => {
      const cast = sql.raw(AS_TEXT.has(column.getSQLType()) ? '::text' : '');
      return sql`${sql.identifier(column.name)}${cast} as ${sql.identifier(field)}`;
    }),
  );
}
