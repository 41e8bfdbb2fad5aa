import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../errors';
import { AUTH_BASE_PATH, type Auth } from './instance';
import { sendAuthResponse, toFetchHeaders } from './http';

/**
 * Sign-in, sign-up, reset and verification e-mails: AUTH_RATE_LIMIT_PER_MINUTE (default 10) a
 * minute from one address.
 */
export const authRateLimit = (config: Pick<Config, 'authRateLimitPerMinute'>) =>
  ({ max: config.authRateLimitPerMinute, timeWindow: '1 minute' }) as const;

const limitedPaths = [
  '/sign-up/email',
  '/sign-in/email',
  '/sign-in/username',
  '/request-password-reset',
  '/send-verification-email',
  '/reset-password',
];

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * better-auth answers every /api/auth/* request through a Fetch handler: the Fastify request is
 * converted to a Fetch Request (with the client address Fastify resolved) and the answer back.
 */
export async function registerAuthMount(
  app: FastifyInstance,
  opts: { auth: Auth; config: Config; database: Database },
): Promise<void> {
  const { auth, config, database } = opts;

  const forward = async (request: FastifyRequest, reply: FastifyReply, body?: unknown) => {
    const headers = toFetchHeaders(request);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && body !== undefined;
    if (hasBody) headers.set('content-type', 'application/json');
    const fetchRequest = new Request(`${config.publicUrl}${request.url}`, {
      method: request.method,
      headers,
      body: hasBody ? JSON.stringify(body) : undefined,
    });
    return sendAuthResponse(request, reply, await auth.handler(fetchRequest));
  };

  const handler = (request: FastifyRequest, reply: FastifyReply) =>
    forward(request, reply, request.body);

  // Sign-up: the display name defaults to the e-mail's local part (a database hook fills it),
  // and an address already registered is a clear 409 rather than a silent success.
  const signUp = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = isObject(request.body) ? { ...request.body } : request.body;
    if (isObject(body)) {
      if (typeof body.name !== 'string') body.name = '';
      if (typeof body.email === 'string' && body.email.trim()) {
        const email = body.email.trim();
        const [existing] = await database.db
          .select({ id: users.id })
          .from(users)
          .where(sql`${users.email} = ${email}::citext`)
          .limit(1);
        if (existing)
          throw new AppError(409, 'user_already_exists', 'auth.errors.emailTaken', {
            email: 'auth.errors.emailTaken',
          });
      }
    }
    return forward(request, reply, body);
  };

  const common = { schema: { hide: true } } as const;
  for (const path of limitedPaths) {
    app.post(
      `${AUTH_BASE_PATH}${path}`,
      { ...common, config: { rateLimit: authRateLimit(config) } },
      path === '/sign-up/email' ? signUp : handler,
    );
  }
  app.route({ ...common, method: ['GET', 'POST'], url: `${AUTH_BASE_PATH}/*`, handler });
}
