import type { Database } from '../../db/client';
import { fieldsOf } from '../../db/rows';
import { users } from '../../db/schema';
import { sql } from '../../db/sql';

/** A member's row, its fields named as the schema names them. */
export type UserRow = typeof users.$inferSelect;

const USER_FIELDS = fieldsOf(users);

export async function findUser(database: Database, id: string): Promise<UserRow | undefined> {
  const [row] = await database.query<UserRow>(
    sql`select ${USER_FIELDS} from users where id = ${id}`,
  );
  return row;
}

/** Whether another member holds this username; citext makes the comparison case-insensitive. */
export async function usernameHeldByOther(
  database: Database,
  username: string,
  ownId: string,
): Promise<boolean> {
  const rows = await database.query(
    sql`select 1 from users where username = ${username}::citext and id <> ${ownId} limit 1`,
  );
  return rows.length > 0;
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
    | 'termsAcceptedAt'
    | 'termsVersion'
  >
>;

/** Updates the member's own row only: the id always comes from the session, never the body. */
export async function updateUser(
  database: Database,
  id: string,
  patch: ProfilePatch,
  now: Date,
): Promise<UserRow | undefined> {
  const sets = Object.entries(patch)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => {
      const column = users[field as keyof ProfilePatch];
      return sql`${sql.identifier(column.name)} = ${value}`;
    });
  const [row] = await database.query<UserRow>(
    sql`update users set ${sql.join([...sets, sql`updated_at = ${now}`])}
        where id = ${id} returning ${USER_FIELDS}`,
  );
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
