import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '@shared/constants';
import { signUpSchema } from '@shared/schemas/accounts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Mailer } from '../mail';
import type { CounterStore } from '../rate-limits';
import { errorSchema } from '../errors';
import { AUTH_BASE_PATH, type Auth } from './instance';
import { sendAuthResponse, toFetchHeaders } from './http';
import { createAuthLimits, type AuthLimits } from './limits';
import { signUpHandler } from './sign-up';
import { guardSignIn, targetOfEmail, targetOfUsername, type SignInTarget } from './sign-in-guard';

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

const stringField = (body: unknown, key: string) =>
  isObject(body) && typeof body[key] === 'string' && body[key].trim() ? body[key] : undefined;

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
  // Every route below that a stranger can call to guess or to send e-mails shares one budget
  // per client address (AUTH_RATE_LIMIT_PER_MINUTE), counted before the body is even read.
  const { addressHook } = limits;
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

  /** Sign-in: within the account's budgets (sign-in-guard.ts). */
  const signIn =
    (targetOf: (body: unknown) => Promise<SignInTarget | undefined>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const target = await targetOf(request.body);
      const attempt = () => call(request);
      const response = target
        ? await guardSignIn({ limits, config }, request, reply, target, attempt)
        : await attempt();
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
  const limited = { ...hidden, onRequest: addressHook };
  const post = (path: string, handler: (r: FastifyRequest, p: FastifyReply) => unknown) =>
    app.post(`${AUTH_BASE_PATH}${path}`, limited, handler);

  // Documented (the one better-auth route whose body is the app's own): the handler checks the
  // body itself, with its own messages, so a failed check reaches it (attachValidation).
  app.post(
    `${AUTH_BASE_PATH}/sign-up/email`,
    {
      onRequest: addressHook,
      attachValidation: true,
      schema: {
        tags: ['accounts'],
        summary: 'Sign up with e-mail and password; the answer is the same for a known address',
        description:
          `acceptTerms must be true (the terms of service and the privacy policy): without it 400 ` +
          `with fields.acceptTerms. The password has ${PASSWORD_MIN_LENGTH} to 128 characters. ` +
          'A confirmation e-mail is sent; the owner of a known address gets an e-mail instead.',
        body: signUpSchema,
        response: {
          200: z.object({ status: z.literal('check_email') }),
          400: errorSchema.describe('Bad input, the terms not accepted, a taken username'),
          403: errorSchema.describe('Another site, or a return path that is not on this site'),
          429: errorSchema,
        },
      },
    },
    signUpHandler({ auth, forward: call, config, database, mailer, limits }),
  );
  post(
    '/sign-in/email',
    signIn(async (body) => {
      const email = stringField(body, 'email');
      return email === undefined ? undefined : targetOfEmail(database, email);
    }),
  );
  post(
    '/sign-in/username',
    signIn(async (body) => {
      const username = stringField(body, 'username');
      return username === undefined ? undefined : targetOfUsername(database, username);
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
