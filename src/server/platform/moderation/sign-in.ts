import { APIError } from 'better-auth/api';
import type { Database } from '../../db/client';

/**
 * better-auth's session.create.before hook: no new session for a member whose account is not
 * active. Runs after the password (or Google) check, so only someone who could sign in learns
 * that the account is suspended; the message is our catalogue's (auth/errors.ts).
 */
export function refuseInactiveMember(database: Database) {
  return async (session: { userId: string }) => {
    const [row] = await database.query<{ status: string }>(
      'select account_status as status from users where id = $1',
      [session.userId],
    );
    if (row && row.status !== 'active')
      throw new APIError('FORBIDDEN', {
        code: 'ACCOUNT_SUSPENDED',
        message: 'This account is suspended.',
      });
    return undefined;
  };
}
