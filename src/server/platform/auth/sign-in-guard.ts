import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { sql, type Sql } from '../../db/sql';
import type { AuthLimits } from './limits';
import { USERNAME_PATTERN } from './instance';
import { deviceCookieOf, setDeviceCookie, verifyDeviceCookie } from './device-cookie';

/** The account a sign-in names, as the limits see it. */
export interface SignInTarget {
  /** The account's budget key: its e-mail, or what was typed when no account has that name. */
  key: string;
  /** The account's e-mail, when there is one. */
  email?: string;
  userId?: string;
  passwordHash: string | null;
}

async function findTarget(database: Database, where: Sql, key: string): Promise<SignInTarget> {
  const [row] = await database.query<{ id: string; email: string; passwordHash: string | null }>(
    sql`select u.id, u.email::text as email, a.password as "passwordHash"
        from users u
        left join accounts a on a.user_id = u.id and a.provider_id = 'credential'
        where ${where} limit 1`,
  );
  if (!row) return { key, passwordHash: null };
  return { key: row.email, email: row.email, userId: row.id, passwordHash: row.passwordHash };
}

/** Something no account can have (a NUL byte, 100 KB) is not looked up: nobody has it. */
const looksLike = (pattern: RegExp, value: string) => value.length <= 254 && pattern.test(value);

/** The account of an e-mail address (case-insensitive: the column is citext). */
export const targetOfEmail = (database: Database, email: string): Promise<SignInTarget> =>
  looksLike(/^[^\s@\0]+@[^\s@\0]+$/, email.trim())
    ? findTarget(database, sql`u.email = ${email.trim()}::citext`, email)
    : Promise.resolve({ key: email, passwordHash: null });

/**
 * The account a username names: both ways of signing in share its budget. An unknown username
 * has a budget of its own, so that it answers exactly as a known one, 429 included.
 */
export const targetOfUsername = (database: Database, username: string): Promise<SignInTarget> =>
  looksLike(USERNAME_PATTERN, username.trim())
    ? findTarget(database, sql`u.username = ${username.trim()}::citext`, `username:${username}`)
    : Promise.resolve({ key: `username:${username}`, passwordHash: null });

/**
 * Runs one password sign-in attempt within its budgets. With a valid device cookie for the account
 * the attempt counts against that cookie's budget only; without one, against the account and
 * address pair's and the account's (so the right password too waits once they are used up: a
 * guesser cannot tell a hit from a miss). Counted before the attempt, so attempts racing each
 * other are all counted; a success clears the budgets it counted against and renews the device
 * cookie.
 */
export async function guardSignIn(
  deps: { limits: AuthLimits; config: Pick<Config, 'secureCookies' | 'authSecret'> },
  request: FastifyRequest,
  reply: FastifyReply,
  target: SignInTarget,
  attempt: () => Promise<Response>,
): Promise<Response> {
  const { limits, config } = deps;
  const { userId, passwordHash } = target;
  const nonce =
    userId &&
    verifyDeviceCookie(config.authSecret, deviceCookieOf(request, config), {
      userId,
      passwordHash,
    });
  const device = nonce ? `${userId}:${nonce}` : undefined;
  const pair = `${target.key}\n${request.ip}`;
  if (device) await limits.signInDevice.consume(device);
  else {
    await limits.signInFromAddress.consume(pair);
    await limits.signIn.consume(target.key);
  }
  const response = await attempt();
  if (!response.ok) return response;
  if (device) await limits.signInDevice.reset(device);
  else await Promise.all([limits.signInFromAddress.reset(pair), limits.signIn.reset(target.key)]);
  if (userId && passwordHash) setDeviceCookie(reply, config, { userId, passwordHash });
  return response;
}
