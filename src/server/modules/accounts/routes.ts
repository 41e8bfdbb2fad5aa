import { z } from 'zod';
import { meSchema } from '@shared/schemas/profile';
import type { Module } from '../../platform/module';
import { AppError, unauthorized, errorSchema } from '../../platform/errors';
import { currentUser } from '../../platform/auth';
import { authRateLimit } from '../../platform/auth/mount';
import { forwardCookies, sendAuthResponse, toFetchHeaders } from '../../platform/auth/http';
import { loadMe } from '../profiles/service';
import { endOtherSessions, findEmailByUsername } from './queries';
import { passwordRoutes } from './password';

/** Sign-in form: an e-mail address or a username, and the password. */
export const signInSchema = z.object({
  identifier: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(254, { error: 'validation.tooLong' }),
  password: z
    .string({ error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(1024, { error: 'validation.tooLong' }),
});

export const accountRoutes: Module = async (app, deps) => {
  const { auth, config, database } = deps;
  await passwordRoutes(app, deps);
  app.post(
    '/api/accounts/sign-in',
    {
      config: { rateLimit: authRateLimit(config) },
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with an e-mail address or a username and the password',
        description:
          'An identifier containing @ is an e-mail address; otherwise it is a username. Sets the session cookie.',
        body: signInSchema,
        response: {
          200: z.object({ user: meSchema }),
          400: errorSchema,
          401: errorSchema,
          429: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const { identifier, password } = request.body;
      let email = identifier;
      if (!identifier.includes('@')) {
        const found = await findEmailByUsername(database, identifier);
        if (!found) {
          throw new AppError(400, 'user_not_found', 'auth.errors.noUserWithUsername', {
            identifier: 'auth.errors.noUserWithUsername',
          });
        }
        email = found;
      }
      // One budget per account, however it is named and from wherever the guesses come.
      await app.authLimits.signIn.check(email);
      const response = await auth.api.signInEmail({
        body: { email, password },
        headers: toFetchHeaders(request),
        asResponse: true,
      });
      if (response.status === 401) await app.authLimits.signIn.record(email);
      if (!response.ok) return sendAuthResponse(request, reply, response);
      await app.authLimits.signIn.reset(email);
      const { user } = (await response.json()) as { user: { id: string } };
      forwardCookies(response.headers, reply);
      return { user: await loadMe(database, user.id) };
    },
  );

  app.get(
    '/api/accounts/providers',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Which external sign-in providers are enabled',
        response: { 200: z.object({ google: z.boolean() }) },
      },
    },
    async () => ({ google: Boolean(config.google) }),
  );

  app.delete(
    '/api/me/sessions/others',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['accounts'],
        summary: 'Sign out every other device: ends all sessions but this one',
        response: { 200: z.object({ ended: z.number() }), 401: errorSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const current = await auth.api.getSession({ headers: toFetchHeaders(request) });
      if (!current || current.user.id !== user.id) throw unauthorized();
      const ended = await endOtherSessions(database, user.id, current.session.id);
      return { ended };
    },
  );
};
