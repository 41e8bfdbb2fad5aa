import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { isLanguage } from '@shared/constants';
import { signUpSchema } from '@shared/schemas/accounts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { sql } from '../../db/sql';
import { AppError } from '../errors';
import { requestLanguage } from '../i18n';
import type { Mailer } from '../mail';
import { accountExistsEmail } from './emails';
import { convertAuthError } from './errors';
import { VERIFIED_CALLBACK, type Auth } from './instance';
import type { AuthLimits } from './limits';

/** What every accepted sign-up answers, whether the address was new or already had an account. */
export const SIGN_UP_ANSWER = { status: 'check_email' } as const;

/** The sign-up body's problems as one 400 in our format (a single field's message leads). */
function invalidSignUp(error: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0] ?? '_')];
    for (const key of keys)
      fields[key] ??= issue.code === 'unrecognized_keys' ? 'validation.invalid' : issue.message;
  }
  const only = Object.values(fields);
  return new AppError(
    400,
    'validation_failed',
    only.length === 1 ? only[0] : 'errors.validation',
    fields,
  );
}

/** A return path on this site: one slash, then anything but a second slash or a backslash. */
const isLocalPath = (url: string) => /^\/(?![/\\])/.test(url);

/**
 * Sign-up. The body passes the app's own rules first (the same as the profile's for the name
 * and the username), and only the fields we name reach better-auth, so nobody can give
 * themselves an avatar, a display username or anything else the app owns. A known address
 * answers exactly as a new one, and its owner gets an e-mail instead of a second account.
 */
export function signUpHandler(deps: {
  auth: Auth;
  /** Sends a body to better-auth as this request, with its headers (language, address). */
  forward: (request: FastifyRequest, body: unknown) => Promise<Response>;
  config: Config;
  database: Database;
  mailer: Mailer;
  limits: AuthLimits;
}) {
  const { auth, forward, config, database, mailer, limits } = deps;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const parsed = signUpSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw invalidSignUp(parsed.error);
    const { email, password, username, callbackURL } = parsed.data;
    if (callbackURL !== undefined && !isLocalPath(callbackURL))
      throw new AppError(403, 'invalid_callback_url', 'auth.errors.invalidCallbackUrl');
    // Refused alike for a known and an unknown address, before either is looked at.
    const { minPasswordLength, maxPasswordLength } = (await auth.$context).password.config;
    if (password.length < minPasswordLength)
      throw new AppError(400, 'password_too_short', 'validation.passwordTooShort', {
        password: 'validation.passwordTooShort',
      });
    if (password.length > maxPasswordLength)
      throw new AppError(400, 'password_too_long', 'auth.errors.passwordTooLong', {
        password: 'auth.errors.passwordTooLong',
      });
    await limits.signUp.consume(email);
    if (username) {
      const [taken] = await database.query(
        sql`select 1 from users where username = ${username}::citext limit 1`,
      );
      if (taken)
        throw new AppError(400, 'username_is_already_taken', 'auth.errors.usernameTaken', {
          username: 'auth.errors.usernameTaken',
        });
    }

    const tellOwner = async () => {
      const [owner] = await database.query<{
        email: string;
        name: string;
        preferredLanguage: string;
      }>(
        sql`select email::text as email, display_name as name,
              preferred_language as "preferredLanguage"
            from users where email = ${email}::citext limit 1`,
      );
      if (!owner) return false;
      const lang = isLanguage(owner.preferredLanguage)
        ? owner.preferredLanguage
        : requestLanguage(request);
      await mailer.send(
        accountExistsEmail(lang, owner, {
          signIn: `${config.publicUrl}/login`,
          reset: `${config.publicUrl}/login?forgot=1`,
        }),
      );
      return true;
    };

    if (await tellOwner()) {
      // About the time a real sign-up spends hashing, so the answer's timing tells nothing.
      await (await auth.$context).password.hash(password);
      return reply.send(SIGN_UP_ANSWER);
    }
    // A sign-up without a name or a username is asked for both after confirming (needsProfile).
    const response = await forward(request, {
      email,
      password,
      name: parsed.data.name ?? '',
      ...(username ? { username } : {}),
      callbackURL: VERIFIED_CALLBACK,
    });
    if (response.ok) {
      await response.body?.cancel();
      return reply.send(SIGN_UP_ANSWER);
    }
    const body = (await response.json().catch(() => undefined)) as { code?: string } | undefined;
    // Another sign-up for the same address won the race: the same answer as any known address.
    if (body?.code?.startsWith('USER_ALREADY_EXISTS') && (await tellOwner()))
      return reply.send(SIGN_UP_ANSWER);
    const converted = convertAuthError(response.status, body, requestLanguage(request));
    return reply.status(converted.status).send(converted.body);
  };
}
