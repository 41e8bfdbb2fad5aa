import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { createRateLimiter, MemoryCounterStore, type CounterStore } from '../rate-limits';
import type { RateLimiter } from '../rate-limits';

/**
 * The budgets of the authentication routes (docs/accounts.md, "Limits"):
 * - per client address, AUTH_RATE_LIMIT_PER_MINUTE (10) a minute for every sign-in, sign-up,
 *   password-reset and verification-e-mail route together (`perAddress`);
 * - per account, from any address without a device cookie for it,
 *   AUTH_ACCOUNT_RATE_LIMIT_PER_HOUR (20) an hour (`signIn` and the e-mail budgets);
 * - a quarter of that (5) an hour per account and address (`signInFromAddress`), and as much per
 *   device cookie (`signInDevice`): a stranger alone cannot use up an account's budget, and a
 *   browser its owner signed in with before keeps a budget of its own (device-cookie.ts).
 * On PostgreSQL every process counts in one table (rate-limits-store.ts), so these hold however
 * many instances serve the site.
 */
export interface AuthLimits {
  /** Any authentication attempt from one client address, whichever of the routes it is. */
  perAddress: RateLimiter;
  /** Sign-in attempts per account, keyed by its e-mail (a username counts as its e-mail). */
  signIn: RateLimiter;
  /** Sign-in attempts per account and client address, without a device cookie. */
  signInFromAddress: RateLimiter;
  /** Sign-in attempts per device cookie (an account and the cookie's nonce). */
  signInDevice: RateLimiter;
  /** Sign-ups per e-mail address: each one sends that address an e-mail. */
  signUp: RateLimiter;
  /** Password-reset e-mails per address. */
  passwordReset: RateLimiter;
  /** Verification e-mails per address. */
  verificationEmail: RateLimiter;
  /**
   * Checks of a signed-in member's current password (account deletion, any password change),
   * keyed by member id: a stolen session cannot guess the password it lacks.
   */
  passwordCheck: RateLimiter;
  /** onRequest hook of every authentication route: counts the request against `perAddress`. */
  addressHook: (request: FastifyRequest) => Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    authLimits: AuthLimits;
  }
}

const HOUR_MS = 60 * 60 * 1000;

/** Sign-in attempts an hour for one address (or one device) against one account. */
export const perDeviceBudget = (config: Pick<Config, 'authAccountRateLimitPerHour'>) =>
  Math.max(1, Math.ceil(config.authAccountRateLimitPerHour / 4));

export function createAuthLimits(
  config: Pick<Config, 'authAccountRateLimitPerHour' | 'authRateLimitPerMinute'>,
  store: CounterStore = new MemoryCounterStore(),
  now: () => number = Date.now,
): AuthLimits {
  const limiter = (name: string, max = config.authAccountRateLimitPerHour, windowMs = HOUR_MS) =>
    createRateLimiter({ name, max, windowMs, store, now });
  const perAddress = limiter('auth-address', config.authRateLimitPerMinute, 60_000);
  return {
    perAddress,
    signIn: limiter('sign-in'),
    signInFromAddress: limiter('sign-in-address', perDeviceBudget(config)),
    signInDevice: limiter('sign-in-device', perDeviceBudget(config)),
    signUp: limiter('sign-up'),
    passwordReset: limiter('password-reset'),
    verificationEmail: limiter('verification-email'),
    passwordCheck: limiter('password-check'),
    addressHook: (request) => perAddress.consume(request.ip),
  };
}
