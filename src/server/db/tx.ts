import type { Database } from './client';

export type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

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
      work(async (text, params) => (await tx.query(text, params as any[])).rows as any[]),
    );
  }
  if (!database.pool) throw new Error('no database client');
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    const result = await work(async (text, params) => (await client.query(text, params)).rows);
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
