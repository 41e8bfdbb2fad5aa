import { z } from 'zod';
import { isLanguage } from '@shared/constants';
import { changePasswordSchema } from '@shared/schemas/profile';
import type { Module } from '../../platform/module';
import { AppError, unauthorized, errorResponses } from '../../platform/errors';
import { currentUser } from '../../platform/auth';
import { toFetchHeaders } from '../../platform/auth/http';
import { passwordChangedEmail } from '../../platform/auth/emails';
import { setDeviceCookie } from '../../platform/auth/device-cookie';
import { memberWriteLimit } from '../../platform/route-presets';
import { inTransaction } from '../../db/tx';

const wrongCurrent = () =>
  new AppError(400, 'invalid_password', 'settings.password.errors.wrongCurrent', {
    currentPassword: 'settings.password.errors.wrongCurrent',
  });

/**
 * POST /api/me/password: better-auth's own change-password endpoint is not reachable (auth routes
 * are allow-listed), so the app checks the current password itself, within the same per-member
 * budget as every other check of a signed-in member's password, stores the new hash and ends every
 * other session of the member in one transaction. Deleting those session rows is what closes
 * their sockets (migration 0025's trigger); the session making the change stays signed in.
 */
export const passwordRoutes: Module = async (app, { auth, config, database, mailer }) => {
  app.post(
    '/api/me/password',
    {
      preHandler: app.requireUser,
      config: memberWriteLimit(10, '10 minutes'),
      schema: {
        tags: ['accounts'],
        summary: 'Change the password: every other session of the member ends',
        description:
          'Needs the current password (400 invalid_password when wrong; wrong guesses count ' +
          'against the per-member password budget, 429 once spent). The new password follows the ' +
          'sign-up limits. Members who only sign in with Google have no password (400 no_password): ' +
          'they set one through "Forgot password". An e-mail tells the member, in their language.',
        security: [{ session: [] }],
        body: changePasswordSchema,
        response: {
          200: z.object({ endedSessions: z.number().int() }),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { currentPassword, newPassword } = request.body;
      const session = await auth.api.getSession({ headers: toFetchHeaders(request) });
      if (!session || session.user.id !== user.id) throw unauthorized();

      const context = await auth.$context;
      const { minPasswordLength, maxPasswordLength } = context.password.config;
      if (newPassword.length < minPasswordLength)
        throw new AppError(400, 'password_too_short', 'validation.passwordTooShort', {
          newPassword: 'validation.passwordTooShort',
        });
      if (newPassword.length > maxPasswordLength)
        throw new AppError(400, 'password_too_long', 'auth.errors.passwordTooLong', {
          newPassword: 'auth.errors.passwordTooLong',
        });

      const [credential] = await database.query<{ password: string | null }>(
        `select password from accounts
         where user_id = $1 and provider_id = 'credential' and password is not null limit 1`,
        [user.id],
      );
      if (!credential?.password)
        throw new AppError(400, 'no_password', 'settings.password.errors.noPassword');

      // A stolen session must not guess the password it lacks: one budget per member, counted
      // before the check so that guesses sent at once are all counted.
      await app.authLimits.passwordCheck.consume(user.id);
      if (
        !(await context.password.verify({ password: currentPassword, hash: credential.password }))
      )
        throw wrongCurrent();
      await app.authLimits.passwordCheck.reset(user.id);

      const hash = await context.password.hash(newPassword);
      const ended = await inTransaction(database, async (q) => {
        const changed = await q(
          `update accounts set password = $2, updated_at = now()
           where user_id = $1 and provider_id = 'credential' and password = $3 returning id`,
          [user.id, hash, credential.password],
        );
        // Another change won the race since the check: its password stands, this one is refused.
        if (!changed.length) throw wrongCurrent();
        return q(`delete from sessions where user_id = $1 and id <> $2 returning id`, [
          user.id,
          session.session.id,
        ]);
      });

      // The device cookies issued before this password no longer count: this browser gets a new one.
      setDeviceCookie(reply, config, { userId: user.id, passwordHash: hash });

      const [member] = await database.query<{
        email: string;
        display_name: string;
        preferred_language: string;
      }>(`select email::text as email, display_name, preferred_language from users where id = $1`, [
        user.id,
      ]);
      if (member) {
        const lang = isLanguage(member.preferred_language) ? member.preferred_language : 'en';
        await mailer
          .send(
            passwordChangedEmail(
              lang,
              { email: member.email, name: member.display_name },
              { reset: `${config.publicUrl}/login?forgot=1` },
            ),
          )
          .catch((err: unknown) => request.log.error({ err }, 'password-changed e-mail failed'));
      }
      return { endedSessions: ended.length };
    },
  );
};
