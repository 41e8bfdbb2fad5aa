import type { Database } from '../../db/client';

export interface AdminRow {
  id: string;
  email: string;
  displayName: string;
  grantedAt: string;
}

export type RoleResult =
  { ok: true; message: string } | { ok: false; message: string; code: 'not_found' | 'unchanged' };

/**
 * The admin role, granted and revoked from the command line only (npm run admin): nobody can
 * make themselves an admin through the web. Each change is written to the moderation log.
 */
export async function grantAdmin(database: Database, email: string): Promise<RoleResult> {
  const [user] = await database.query<{ id: string; email: string }>(
    'select id, email::text as email from users where email = $1::citext',
    [email.trim()],
  );
  if (!user)
    return { ok: false, code: 'not_found', message: `No member with the e-mail ${email}.` };
  // The grant and its log line in one statement: both or neither.
  const rows = await database.query(
    `with granted as (
       insert into admins (user_id) values ($1) on conflict do nothing returning user_id)
     insert into moderation_log (action, target_user_id, reason)
       select 'grant_admin', user_id, 'granted from the command line' from granted returning id`,
    [user.id],
  );
  if (rows.length === 0)
    return { ok: false, code: 'unchanged', message: `${user.email} is already an admin.` };
  return { ok: true, message: `${user.email} is now an admin.` };
}

export async function revokeAdmin(database: Database, email: string): Promise<RoleResult> {
  const [user] = await database.query<{ id: string; email: string }>(
    'select id, email::text as email from users where email = $1::citext',
    [email.trim()],
  );
  if (!user)
    return { ok: false, code: 'not_found', message: `No member with the e-mail ${email}.` };
  const rows = await database.query(
    `with revoked as (delete from admins where user_id = $1 returning user_id)
     insert into moderation_log (action, target_user_id, reason)
       select 'revoke_admin', user_id, 'revoked from the command line' from revoked returning id`,
    [user.id],
  );
  if (rows.length === 0)
    return { ok: false, code: 'unchanged', message: `${user.email} is not an admin.` };
  return { ok: true, message: `${user.email} is no longer an admin.` };
}

export async function listAdmins(database: Database): Promise<AdminRow[]> {
  const rows = await database.query<{
    id: string;
    email: string;
    display_name: string;
    granted_at: Date;
  }>(
    `select u.id, u.email::text as email, u.display_name, a.granted_at
     from admins a join users u on u.id = a.user_id order by a.granted_at, u.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    displayName: r.display_name,
    grantedAt: new Date(r.granted_at).toISOString(),
  }));
}

/** Runs one command line: grant EMAIL, revoke EMAIL or list. */
export async function runAdminCommand(
  database: Database,
  args: string[],
): Promise<{ ok: boolean; output: string }> {
  const [command, email] = args;
  if (command === 'list') {
    const admins = await listAdmins(database);
    return {
      ok: true,
      output: admins.length
        ? admins.map((a) => `${a.email}\t${a.displayName}\tsince ${a.grantedAt}`).join('\n')
        : 'No admins yet. Grant one with: npm run admin -- grant EMAIL',
    };
  }
  if ((command === 'grant' || command === 'revoke') && email) {
    const result =
      command === 'grant' ? await grantAdmin(database, email) : await revokeAdmin(database, email);
    // Granting twice is not a failure: the member is an admin either way.
    return { ok: result.ok || result.code === 'unchanged', output: result.message };
  }
  return {
    ok: false,
    output: 'Usage: npm run admin -- grant EMAIL | revoke EMAIL | list',
  };
}
