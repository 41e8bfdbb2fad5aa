import type { Database } from './client';
import { statementOf, type Statement } from './sql';

/** A `sql` fragment, or text with its `$n` parameters (decision 0091). */
export type Query = <T = Record<string, unknown>>(
  statement: Statement,
  params?: readonly unknown[],
) => Promise<T[]>;

/** The database's own client as a Query. */
export const queryOf =
  (database: Database): Query =>
  (text, params) =>
    database.query(text, params);

/**
 * Runs `work` in one transaction on either driver: PGlite's own transaction, or one pooled
 * PostgreSQL connection between begin and commit. Any error rolls everything back.
 */
export async function inTransaction<T>(
  database: Database,
  work: (query: Query) => Promise<T>,
): Promise<T> {
  if (database.pglite) {
    return database.pglite.transaction(async (tx) =>
      work(async (statement, params) => {
        const { text, values } = statementOf(statement, params);
        return (await tx.query(text, values)).rows as any[];
      }),
    );
  }
  if (!database.pool) throw new Error('no database client');
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    const result = await work(async (statement, params) => {
      const { text, values } = statementOf(statement, params);
      return (await client.query(text, values)).rows;
    });
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * A Database whose raw queries run inside a transaction, for services of other modules that
 * take a Database and only use `query` (e.g. the listings module's mark-sold).
 */
export function transactionalDatabase(database: Database, query: Query): Database {
  return { ...database, query };
}

/** The SQLSTATE of a driver error (drizzle wraps them in `cause`). */
export function sqlState(err: unknown): string | undefined {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}
