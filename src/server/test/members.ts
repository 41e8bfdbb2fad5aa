import { randomBytes, randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { users } from '../db/schema';
import { grantAdmin } from '../modules/moderation';
import type { TestApp } from './app';

export interface Member {
  id: string;
  email: string;
  password: string;
  username: string | null;
  /** The Cookie header value of a live session: inject({ headers: { cookie } }). */
  cookie: string;
}

export interface MemberOptions {
  email?: string;
  password?: string;
  username?: string;
  displayName?: string;
  /** E-mail confirmed (default true). */
  verified?: boolean;
}

/** A distinct client address, so helpers never use up the per-address sign-in rate limit. */
export function randomClientIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** The Cookie header value carrying the cookies an answer sets (name=value pairs only). */
export function cookieFrom(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list
    .map((c) => String(c).split(';')[0])
    .filter((pair) => !/=$/.test(pair))
    .join('; ');
}

/** Signs in through better-auth's e-mail route and returns the session's Cookie header value. */
export async function signIn(testApp: TestApp, email: string, password: string): Promise<string> {
  const res = await testApp.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    remoteAddress: randomClientIp(),
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = cookieFrom(res);
  if (!cookie.includes('session_token')) throw new Error('sign-in set no session cookie');
  return cookie;
}

/**
 * A member signed up and signed in through the real better-auth routes, with a live session.
 * Verification is marked in the database (the e-mail link itself is tested in accounts).
 */
export async function createMember(testApp: TestApp, opts: MemberOptions = {}): Promise<Member> {
  const email = opts.email ?? `member-${randomBytes(5).toString('hex')}@example.com`;
  const password = opts.password ?? 'correct-horse-7';
  const res = await testApp.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    remoteAddress: randomClientIp(),
    payload: {
      acceptTerms: true,
      email,
      password,
      // A chosen name, as the sign-up form asks for one (the local part keeps tests readable).
      name: opts.displayName ?? email.split('@')[0].toLowerCase(),
      ...(opts.username ? { username: opts.username } : {}),
    },
  });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  // Sign-up answers alike for new and known addresses, so the new member is found by e-mail.
  const [user] = await testApp.database.db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(sql`${users.email} = ${email}::citext`);
  if (!user) throw new Error(`sign-up created no member for ${email}`);
  if (opts.verified ?? true) {
    await testApp.database.db
      .update(users)
      .set({ emailVerified: true })
      .where(eq(users.id, user.id));
  }
  const cookie = await signIn(testApp, email, password);
  return { id: user.id, email, password, username: user.username ?? null, cookie };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The route tests' `call`: a request as a member (null: signed out), in a language (English
 * unless told). `testApp` is read at each call, as the tests build theirs in beforeAll:
 * `const call = callAs(() => t);`.
 */
export function callAs(testApp: () => TestApp) {
  return (who: Member | null, method: Method, url: string, payload?: unknown, lang = 'en') =>
    testApp().inject({
      method,
      url,
      headers: { 'accept-language': lang, ...(who ? { cookie: who.cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

/** A request as a member (or signed out: no member), in a language (English unless told). */
export function requester(t: TestApp) {
  return (method: Method, url: string, who?: Member, payload?: unknown, lang = 'en') =>
    t.inject({
      method,
      url,
      headers: { 'accept-language': lang, ...(who ? { cookie: who.cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

/**
 * Sends one request in English and in Italian: both are refused with `status`, each with its
 * language's message.
 */
export async function expectRefusal(
  t: TestApp,
  [method, url, who, payload]: [Method, string, Member | undefined, unknown],
  expected: { status: number; en: string; it: string },
) {
  for (const lang of ['en', 'it'] as const) {
    const res = await requester(t)(method, url, who, payload, lang);
    expect(res.statusCode, res.body).toBe(expected.status);
    expect(res.json().error.message).toBe(expected[lang]);
  }
}

/** Makes members friends: accepted rows in the connections table (migration 0005). */
export async function befriend(t: TestApp, a: Member, ...others: Member[]) {
  for (const b of others) {
    await t.database.query(
      `insert into connections (requester_id, addressee_id, status)
       select $1, $2, 'accepted' where not exists (select 1 from connections
         where (requester_id = $1 and addressee_id = $2) or (requester_id = $2 and addressee_id = $1))`,
      [a.id, b.id],
    );
  }
}

/** Makes `who` an admin, as `npm run admin -- grant` does. */
export async function makeAdmin(t: TestApp, who: Member) {
  expect((await grantAdmin(t.database, who.email)).ok).toBe(true);
}
