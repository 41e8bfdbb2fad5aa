import type { Config } from '../../config';
import { createRateLimiter, MemoryCounterStore, type CounterStore } from '../rate-limits';
import type { RateLimiter } from '../rate-limits';

/**
 * Budgets per account, from any address (the per-address limits stay on each route):
 * AUTH_ACCOUNT_RATE_LIMIT_PER_HOUR (20) an hour each.
 */
export interface AuthLimits {
  /** Failed sign-ins per account, keyed by its e-mail (a username counts as its e-mail). */
  signIn: RateLimiter;
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
}

declare module 'fastify' {
  interface FastifyInstance {
    authLimits: AuthLimits;
  }
}

export function createAuthLimits(
  config: Pick<Config, 'authAccountRateLimitPerHour'>,
  store: CounterStore = new MemoryCounterStore(),
  now: () => number = Date.now,
): AuthLimits {
  const limiter = (name: string) =>
    createRateLimiter({
      name,
      max: config.authAccountRateLimitPerHour,
      windowMs: 60 * 60 * 1000,
      store,
      now,
    });
  return {
    signIn: limiter('sign-in'),
    signUp: limiter('sign-up'),
    passwordReset: limiter('password-reset'),
    verificationEmail: limiter('verification-email'),
    passwordCheck: limiter('password-check'),
  };
}
