import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

export async function findUser(database: Database, id: string): Promise<UserRow | undefined> {
  const [row] = await database.db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Whether another member holds this username; citext makes the comparison case-insensitive. */
export async function usernameHeldByOther(
  database: Database,
  username: string,
  ownId: string,
): Promise<boolean> {
  const [row] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.username, username), ne(users.id, ownId)))
    .limit(1);
  return row !== undefined;
}

export type ProfilePatch = Partial<
  Pick<
    UserRow,
    | 'username'
    | 'displayUsername'
    | 'displayName'
    | 'bio'
    | 'firstName'
    | 'lastName'
    | 'locationCity'
    | 'locationCountry'
    | 'preferredLanguage'
    | 'emailNotifications'
  >
>;

/** Updates the member's own row only: the id always comes from the session, never the body. */
export async function updateUser(
  database: Database,
  id: string,
  patch: ProfilePatch,
  now: Date,
): Promise<UserRow | undefined> {
  const [row] = await database.db
    .update(users)
    .set({ ...patch, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/**
 * Points the member's avatar at a new file and returns the URL it replaced. The row lock in the
 * subquery makes two simultaneous uploads each see the URL the other replaced, so every
 * replaced file is known to exactly one caller and can be deleted.
 */
export async function replaceAvatarUrl(
  database: Database,
  id: string,
  url: string,
  now: Date,
): Promise<{ found: boolean; previous: string | null }> {
  const rows = await database.query<{ previous: string | null }>(
    `update users as u set avatar_url = $2, updated_at = $3
       from (select id, avatar_url from users where id = $1 for update) as old
      where u.id = old.id
      returning old.avatar_url as previous`,
    [id, url, now.toISOString()],
  );
  return rows.length
    ? { found: true, previous: rows[0].previous }
    : { found: false, previous: null };
}
