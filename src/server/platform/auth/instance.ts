import { randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { username } from 'better-auth/plugins/username';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { FastifyBaseLogger } from 'fastify';
import {
  PASSWORD_MIN_LENGTH,
  TERMS_VERSION,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  isLanguage,
  pickLanguage,
  type Language,
} from '@shared/constants';
import { DISPLAY_NAME_MAX_LENGTH, stripInvisibleControls } from '@shared/names';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { accounts, sessions, users, verifications } from '../../db/schema';
import type { Mailer } from '../mail';
import { resetPasswordEmail, verificationEmail } from './emails';
import { refuseInactiveMember } from '../moderation/sign-in';

export const AUTH_BASE_PATH = '/api/auth';
/** Header our mount sets from Fastify's request.ip (which honours TRUST_PROXY); clients cannot. */
export const CLIENT_IP_HEADER = 'x-scaffale-client-ip';
export const SESSION_IDLE_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_REFRESH_SECONDS = 24 * 60 * 60;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
export const VERIFIED_CALLBACK = '/login?verified=1';
export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,20}$/;
/** User fields better-auth may set when it creates an account, and never change afterwards. */
const APP_OWNED_FIELDS = [
  'name',
  'image',
  'username',
  'displayUsername',
  'termsAcceptedAt',
  'termsVersion',
] as const;

export interface AuthDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  log?: FastifyBaseLogger;
}

function languageOf(request: Request | undefined): Language {
  const explicit = request?.headers.get('x-language');
  return pickLanguage(explicit ?? request?.headers.get('accept-language'));
}

function userLanguage(user: Record<string, unknown>, request?: Request): Language {
  return isLanguage(user.preferredLanguage) ? user.preferredLanguage : languageOf(request);
}

/**
 * The better-auth instance on our database: e-mail and password with verification and reset,
 * username sign-in, Google through OpenID Connect when configured, cookie sessions.
 */
export function createAuth({ config, database, mailer, log }: AuthDeps) {
  const google = config.google;
  return betterAuth({
    appName: 'Scaffale',
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    database: drizzleAdapter(database.db, {
      provider: 'pg',
      transaction: true,
      schema: { users, sessions, accounts, verifications },
    }),
    user: {
      modelName: 'users',
      fields: { name: 'displayName', image: 'avatarUrl' },
      additionalFields: {
        preferredLanguage: { type: 'string', required: false, input: false },
        // Read with every session, so a suspended member's cookies stop working at once.
        accountStatus: { type: 'string', required: false, input: false, defaultValue: 'active' },
        // Set only by the e-mail sign-up, whose route refuses a body without acceptTerms: true.
        termsAcceptedAt: { type: 'date', required: false, input: false },
        termsVersion: { type: 'string', required: false, input: false },
      },
    },
    session: {
      modelName: 'sessions',
      expiresIn: SESSION_IDLE_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
      // No cookie cache: a revoked session (sign-out elsewhere, password reset) ends at once.
      cookieCache: { enabled: false },
    },
    account: {
      modelName: 'accounts',
      encryptOAuthTokens: true,
      accountLinking: { enabled: true, trustedProviders: ['google'] },
    },
    verification: { modelName: 'verifications' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: 128,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      async sendResetPassword({ user, token }, request) {
        const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await mailer.send(resetPasswordEmail(userLanguage(user, request), user, link));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      async sendVerificationEmail({ user, url }, request) {
        // Whatever callbackURL a client asked for, the link lands on the login page.
        const link = new URL(url);
        link.searchParams.set('callbackURL', VERIFIED_CALLBACK);
        await mailer.send(verificationEmail(userLanguage(user, request), user, link.toString()));
      },
    },
    databaseHooks: {
      // A suspended (or deleted) member cannot sign in, whichever way (password, Google).
      session: { create: { before: refuseInactiveMember(database) } },
      user: {
        create: {
          async before(user, context) {
            const request = context?.request;
            // A name from Google follows the app's rules too (controls stripped, at most 50).
            const name = stripInvisibleControls(user.name ?? '')
              .trim()
              .slice(0, DISPLAY_NAME_MAX_LENGTH)
              .trim();
            return {
              data: {
                ...user,
                // Never the e-mail's local part (others would see it): a member without a
                // name is asked for one, and a username, before anything else (needsProfile).
                name,
                // Only Google's own picture: an address signing up sets no avatar.
                image: context?.path?.startsWith('/callback/') ? user.image : null,
                preferredLanguage: isLanguage(user.preferredLanguage)
                  ? user.preferredLanguage
                  : languageOf(request),
                // The e-mail sign-up passed our route, which requires the terms accepted; a Google
                // account accepts them on its first-visit page (needsTerms).
                ...(context?.path === '/sign-up/email'
                  ? { termsAcceptedAt: new Date(), termsVersion: TERMS_VERSION }
                  : { termsAcceptedAt: null, termsVersion: null }),
              },
            };
          },
        },
        update: {
          // The app owns these: they change only through its validated routes, never here.
          async before(user) {
            const data: Record<string, unknown> = { ...user };
            for (const key of APP_OWNED_FIELDS) delete data[key];
            return { data };
          },
        },
      },
    },
    // @fastify/rate-limit limits the sensitive routes in our mount, in our error format.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: config.secureCookies,
      cookiePrefix: 'scaffale',
      // Explicit, so tests (NODE_ENV=test) run the same origin and callback URL checks.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      database: { generateId: () => randomUUID() },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    logger: {
      level: 'warn',
      log(level, message, ...args) {
        if (!log) return;
        const fn = level === 'error' ? log.error : level === 'warn' ? log.warn : log.info;
        fn.call(log, { args }, `better-auth: ${message}`);
      },
    },
    telemetry: { enabled: false },
    plugins: [
      username({
        minUsernameLength: USERNAME_MIN_LENGTH,
        maxUsernameLength: USERNAME_MAX_LENGTH,
        usernameValidator: (name) => USERNAME_PATTERN.test(name),
        // Keep the case the member chose; the citext column compares case-insensitively.
        usernameNormalization: false,
        // The @name shown is always the username itself (PATCH /api/me keeps its letter case in
        // display_username), so nobody can show another member's name as theirs.
        displayUsername: false,
      }),
      ...(google
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'google',
                  clientId: google.clientId,
                  clientSecret: google.clientSecret,
                  discoveryUrl: `${google.issuer}/.well-known/openid-configuration`,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
