import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import type { Mailer } from '../mail';
import type { CounterStore } from '../rate-limits';
import { AUTH_BASE_PATH, type Auth } from './instance';
import { sendAuthResponse, toFetchHeaders } from './http';
import { createAuthLimits, type AuthLimits } from './limits';
import { signUpHandler } from './sign-up';

/**
 * Sign-in, sign-up, reset and verification e-mails: AUTH_RATE_LIMIT_PER_MINUTE (default 10) a
 * minute from one address.
 */
export const authRateLimit = (config: Pick<Config, 'authRateLimitPerMinute'>) =>
  ({ max: config.authRateLimitPerMinute, timeWindow: '1 minute' }) as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

const stringField = (body: unknown, key: string) =>
  isObject(body) && typeof body[key] === 'string' && body[key].trim() ? body[key] : undefined;

/** The e-mail of the account a username names, so both ways of signing in share one budget. */
async function accountOfUsername(database: Database, username: string): Promise<string> {
  const [row] = await database.db
    .select({ email: users.email })
    .from(users)
    .where(sql`${users.username} = ${username}::citext`)
    .limit(1);
  return row?.email ?? `username:${username}`;
}

/**
 * Only the better-auth endpoints the app uses are reachable; everything else under /api/auth
 * (update-user, change-email, change-password, delete-user, is-username-available, list-sessions…)
 * answers 404. The app's own fields (name, avatar, username) change only through its own
 * validated routes, and its password checks are its own, rate-limited per member.
 */
export async function registerAuthMount(
  app: FastifyInstance,
  opts: { auth: Auth; config: Config; database: Database; mailer: Mailer; store?: CounterStore },
): Promise<void> {
  const { auth, config, database, mailer } = opts;
  const limits: AuthLimits = createAuthLimits(config, opts.store);
  app.decorate('authLimits', limits);

  /** The request as better-auth's Fetch handler expects it, with the client address we resolved. */
  const call = (request: FastifyRequest, body: unknown = request.body) => {
    const headers = toFetchHeaders(request);
    const hasBody = request.method === 'POST' && body !== undefined;
    if (hasBody) headers.set('content-type', 'application/json');
    return auth.handler(
      new Request(`${config.publicUrl}${request.url}`, {
        method: request.method,
        headers,
        body: hasBody ? JSON.stringify(body) : undefined,
      }),
    );
  };
  const forward = async (request: FastifyRequest, reply: FastifyReply) =>
    sendAuthResponse(request, reply, await call(request));

  /** Sign-in: an account whose password keeps failing is refused for a while, from anywhere. */
  const signIn =
    (accountOf: (body: unknown) => Promise<string | undefined>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const account = await accountOf(request.body);
      if (account) await limits.signIn.check(account);
      const response = await call(request);
      if (account && response.status === 401) await limits.signIn.record(account);
      if (account && response.ok) await limits.signIn.reset(account);
      return sendAuthResponse(request, reply, response);
    };

  /** An e-mail sent to an address: counted per address, whatever the client's address. */
  const mailTo =
    (limit: keyof Pick<AuthLimits, 'passwordReset' | 'verificationEmail'>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const email = stringField(request.body, 'email');
      if (email) await limits[limit].consume(email);
      return forward(request, reply);
    };

  const hidden = { schema: { hide: true } } as const;
  const limited = { ...hidden, config: { rateLimit: authRateLimit(config) } };
  const post = (path: string, handler: (r: FastifyRequest, p: FastifyReply) => unknown) =>
    app.post(`${AUTH_BASE_PATH}${path}`, limited, handler);

  post('/sign-up/email', signUpHandler({ auth, forward: call, config, database, mailer, limits }));
  post(
    '/sign-in/email',
    signIn(async (body) => stringField(body, 'email')),
  );
  post(
    '/sign-in/username',
    signIn(async (body) => {
      const username = stringField(body, 'username');
      return username && accountOfUsername(database, username.trim());
    }),
  );
  post('/request-password-reset', mailTo('passwordReset'));
  post('/send-verification-email', mailTo('verificationEmail'));
  post('/reset-password', forward);
  app.post(`${AUTH_BASE_PATH}/sign-in/social`, limited, forward);
  app.post(`${AUTH_BASE_PATH}/sign-out`, hidden, forward);
  // Links and redirects that come back to us: the confirmation e-mail, Google's answer.
  app.get(`${AUTH_BASE_PATH}/verify-email`, hidden, forward);
  app.get(`${AUTH_BASE_PATH}/callback/:providerId`, hidden, forward);
}
