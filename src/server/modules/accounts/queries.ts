import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sessions, users } from '../../db/schema';

/** The e-mail behind a username (case-insensitive: the column is citext). Never sent to clients. */
export async function findEmailByUsername(
  database: Database,
  username: string,
): Promise<string | undefined> {
  const [row] = await database.db
    .select({ email: users.email })
    .from(users)
    .where(sql`${users.username} = ${username}::citext`)
    .limit(1);
  return row?.email;
}

/** Ends every session of a member except one; returns how many ended. */
export async function endOtherSessions(
  database: Database,
  userId: string,
  keepSessionId: string,
): Promise<number> {
  const rows = await database.db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id });
  return rows.length;
}
