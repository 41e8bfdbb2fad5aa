import type { Database } from '../../db/client';

export type QueryFn = <T>(text: string, params?: unknown[]) => Promise<T[]>;

/**
 * Typo matching uses pg_trgm's `%>` (word similarity, GIN-indexed), whose threshold is a
 * session setting (default 0.6: one swapped pair of letters in a 7-letter word scores 0.5).
 * These queries run on a connection where it is lowered to FUZZY_THRESHOLD.
 */
export const FUZZY_THRESHOLD = 0.4;
const SET_THRESHOLD = `select set_config('pg_trgm.word_similarity_threshold', '${FUZZY_THRESHOLD}', false)`;
const prepared = new WeakSet<Database>();

export async function withFuzzyMatching<T>(
  database: Database,
  run: (query: QueryFn) => Promise<T>,
): Promise<T> {
  if (database.kind === 'postgres' && database.pool) {
    const client = await database.pool.connect();
    try {
      await client.query(SET_THRESHOLD);
      return await run(async <R>(text: string, params?: unknown[]) => {
        const res = await client.query(text, params as unknown[]);
        return res.rows as R[];
      });
    } finally {
      client.release();
    }
  }
  // PGlite is a single session: set once.
  if (!prepared.has(database)) {
    await database.query(SET_THRESHOLD);
    prepared.add(database);
  }
  return run(<R>(text: string, params?: unknown[]) => database.query<R>(text, params));
}
