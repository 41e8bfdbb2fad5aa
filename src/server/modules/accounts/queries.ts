import type { Database } from '../../db/client';
import { sql } from '../../db/sql';

/** Ends every session of a member except one; returns how many ended. */
export async function endOtherSessions(
  database: Database,
  userId: string,
  keepSessionId: string,
): Promise<number> {
  const rows = await database.query(
    sql`delete from sessions where user_id = ${userId} and id <> ${keepSessionId} returning id`,
  );
  return rows.length;
}
