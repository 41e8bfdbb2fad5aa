import type { Database } from '../../db/client';
import { statementOf } from '../../db/sql';
import type { Query } from '../../db/tx';

export type QueryFn = Query;

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
      return await run(async (statement, params) => {
        const { text, values } = statementOf(statement, params);
        return (await client.query(text, values)).rows;
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
  return run((statement, params) => database.query(statement, params));
}
