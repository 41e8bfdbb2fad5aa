import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { meSchema } from '@shared/schemas/profile';
import type { Module } from '../../platform/module';
import { unauthorized, errorSchema, errorResponses } from '../../platform/errors';
import { currentUser } from '../../platform/auth';
import { guardSignIn, targetOfEmail, targetOfUsername } from '../../platform/auth/sign-in-guard';
import { forwardCookies, sendAuthResponse, toFetchHeaders } from '../../platform/auth/http';
import { loadMe } from '../profiles';
import { endOtherSessions } from './queries';
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
      onRequest: app.authLimits.addressHook,
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with an e-mail address or a username and the password',
        description:
          'An identifier containing @ is an e-mail address; otherwise it is a username. Sets the ' +
          'session cookie and the device cookie. An unknown username answers as a wrong password ' +
          '(401). 429 past the budgets: per address, per account, per account and address, per ' +
          'device cookie (docs/accounts.md).',
        body: signInSchema,
        response: { 200: z.object({ user: meSchema }), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { identifier, password } = request.body;
      const byEmail = identifier.includes('@');
      const target = byEmail
        ? await targetOfEmail(database, identifier)
        : await targetOfUsername(database, identifier);
      // An unknown username answers exactly as a wrong password: better-auth looks up an address
      // nobody has and hashes the password, as long as it takes to check a known one.
      const email = byEmail
        ? identifier
        : (target.email ?? `${randomUUID()}@unknown-username.invalid`);
      const limits = { limits: app.authLimits, config };
      const response = await guardSignIn(limits, request, reply, target, () =>
        auth.api.signInEmail({
          body: { email, password },
          headers: toFetchHeaders(request),
          asResponse: true,
        }),
      );
      if (!response.ok) return sendAuthResponse(request, reply, response);
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
