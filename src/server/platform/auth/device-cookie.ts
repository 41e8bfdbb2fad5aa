import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * signed in to an account with its password carries a cookie naming that account, signed with
 * the app's secret. Sign-ins to that account from that browser skip the account's lock-out (which
 * strangers can cause from anywhere) and count against a small budget of the cookie's own.
 *
 * The value is `<account id>.<nonce>.<HMAC>`, the HMAC also covering the account's password hash:
 * a new password (changed or reset) voids every device cookie issued before it, so a cookie copied
 * from a shared computer stops helping once its owner changes the password. The cookie gives no
 * session and says nothing but an account id; it is httpOnly, SameSite=Strict, sent only to /api.
 */
const NAME = 'scaffale.device';
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const LABEL = 'scaffale-device-cookie-v1';

export interface DeviceAccount {
  userId: string;
  /** The account's current password hash (none: no password sign-in, no device cookie). */
  passwordHash: string | null;
}

export const deviceCookieName = (config: Pick<Config, 'secureCookies'>) =>
  config.secureCookies ? `__Secure-${NAME}` : NAME;

function mac(secret: string, account: DeviceAccount, nonce: string): Buffer {
  return createHmac('sha256', secret)
    .update([LABEL, account.userId, nonce, account.passwordHash ?? ''].join('\0'))
    .digest();
}

/** The cookie value for this account (a new nonce each time). */
export function signDeviceCookie(secret: string, account: DeviceAccount): string {
  const nonce = randomBytes(16).toString('base64url');
  return `${account.userId}.${nonce}.${mac(secret, account, nonce).toString('base64url')}`;
}

/**
 * The nonce of a valid device cookie for this account, or undefined: absent, malformed, forged,
 * for another account, or signed before the account's current password.
 */
export function verifyDeviceCookie(
  secret: string,
  value: string | undefined,
  account: DeviceAccount,
): string | undefined {
  if (!value || value.length > 200 || !account.passwordHash) return undefined;
  const [userId, nonce, signature, ...rest] = value.split('.');
  if (rest.length || userId !== account.userId || !nonce || !signature) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, account, nonce);
  return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : undefined;
}

/** The request's device cookie, as sent. */
export const deviceCookieOf = (request: FastifyRequest, config: Pick<Config, 'secureCookies'>) =>
  request.cookies[deviceCookieName(config)];

/** Gives the browser a (new) device cookie for the account it just signed in to. */
export function setDeviceCookie(
  reply: FastifyReply,
  config: Pick<Config, 'secureCookies' | 'authSecret'>,
  account: DeviceAccount,
): void {
  reply.setCookie(deviceCookieName(config), signDeviceCookie(config.authSecret, account), {
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure: config.secureCookies,
    maxAge: MAX_AGE_SECONDS,
  });
}
