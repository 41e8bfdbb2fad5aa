import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { createTestApp } from '../../test/app';
import { cookieFrom, createMember, randomClientIp, signIn } from '../../test/members';
import { users } from '../../db/schema';

/** better-auth's e-mail and password flows through our mount: /api/auth/*. */
describe('accounts: sign-up, verification, password reset', async () => {
  const testApp = await createTestApp();
  const { inject, database } = testApp;
  // Each call from its own address, so these tests never meet the per-address rate limit.
  const call = (o: InjectOptions) => inject({ remoteAddress: randomClientIp(), ...o });
  const latestMailTo = async (to: string) => {
    const mails = await database.query<{ subject: string; text: string; html: string }>(
      'select subject, text, html from mail_outbox where "to" = $1 order by id desc limit 1',
      [to],
    );
    return mails[0];
  };
  const linkIn = (text: string) => {
    const match = text.match(/https?:\/\/\S+/);
    if (!match) throw new Error(`no link in ${text}`);
    return new URL(match[0]);
  };

  it('sign-up creates a pending member named after the e-mail, with an Italian confirmation e-mail', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'accept-language': 'it-IT,it;q=0.9' },
      payload: {
        acceptTerms: true,
        email: 'giulia.bianchi@example.com',
        password: 'libri-usati',
        name: 'giulia.bianchi',
        callbackURL: '/login?verified=1',
      },
    });
    expect(res.statusCode).toBe(200);
    // No session before the address is confirmed and the member signs in.
    expect(cookieFrom(res)).not.toContain('session_token');
    const [row] = await database.db
      .select()
      .from(users)
      .where(eq(users.email, 'giulia.bianchi@example.com'));
    expect(row).toMatchObject({
      displayName: 'giulia.bianchi',
      emailVerified: false,
      preferredLanguage: 'it',
    });

    const mail = await latestMailTo('giulia.bianchi@example.com');
    expect(mail.subject).toBe('Conferma il tuo account Scaffale');
    expect(mail.text).toContain('Ciao giulia.bianchi');
    const link = linkIn(mail.text);
    expect(link.origin).toBe('http://localhost:3000');
    expect(link.pathname).toBe('/api/auth/verify-email');
    expect(link.searchParams.get('callbackURL')).toBe('/login?verified=1');
    expect(mail.html).toContain('<a href="http://localhost:3000/api/auth/verify-email?token=');
  });

  it('a sign-up without a name is never named after the e-mail’s local part (asked later)', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'accept-language': 'en-GB,en;q=0.8' },
      payload: { acceptTerms: true, email: 'tom.reader@example.org', password: 'second-hand' },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await database.db
      .select({ displayName: users.displayName })
      .from(users)
      .where(eq(users.email, 'tom.reader@example.org'));
    expect(row.displayName).toBe('');
    const mail = await latestMailTo('tom.reader@example.org');
    expect(mail.subject).toBe('Confirm your Scaffale account');
    expect(mail.text).toContain('Hello tom.reader,');
    expect(mail.text).toContain('Confirm your email address to activate your account');
  });

  it('following the e-mailed link verifies the address and signs the member in', async () => {
    const email = 'verify.me@example.com';
    await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { acceptTerms: true, email, password: 'verify-me-1', name: '' },
    });
    const link = linkIn((await latestMailTo(email)).text);
    const res = await inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?verified=1');
    const cookie = cookieFrom(res);
    expect(cookie).toContain('scaffale.session_token=');

    const me = await inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email, emailVerified: true, accountStatus: 'verified' });

    // Following the link again changes nothing and opens no second session.
    const again = await inject({
      method: 'GET',
      url: `/api/auth/verify-email?token=${link.searchParams.get('token')}`,
    });
    expect(again.statusCode).toBe(200);
    expect(cookieFrom(again)).not.toContain('session_token');
  });

  it('a verification link may only return to our own site', async () => {
    const res = await inject({
      method: 'GET',
      url: `/api/auth/verify-email?token=x&callbackURL=${encodeURIComponent('https://evil.example/')}`,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({
      code: 'invalid_callback_url',
      message: 'The return address is not valid.',
    });
  });

  it('a forged verification token is refused in our error format', async () => {
    const res = await inject({
      method: 'GET',
      url: '/api/auth/verify-email?token=not-a-token',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: {
        code: 'invalid_token',
        message: 'This link is not valid or has expired. Please ask for a new one.',
      },
    });
  });

  it('an invalid e-mail address is refused', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'accept-language': 'en' },
      payload: { acceptTerms: true, email: 'not-an-address', password: 'long-enough', name: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'validation_failed',
      message: 'Invalid email address',
      fields: { email: 'Invalid email address' },
    });
  });

  it('an address already registered (in any letter case) answers as a new one and mails its owner', async () => {
    const member = await createMember(testApp, { email: 'taken@example.com' });
    await database.db.update(users).set({ preferredLanguage: 'en' }).where(eq(users.id, member.id));
    const fresh = await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'accept-language': 'it' },
      payload: {
        acceptTerms: true,
        email: 'not.taken.yet@example.com',
        password: 'another-pass',
        name: '',
      },
    });
    const known = await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'accept-language': 'it' },
      payload: {
        acceptTerms: true,
        email: 'Taken@Example.com',
        password: 'another-pass',
        name: '',
      },
    });
    expect(known.statusCode).toBe(fresh.statusCode);
    expect(known.body).toBe(fresh.body);
    expect(known.json()).toEqual({ status: 'check_email' });
    expect(cookieFrom(known)).toBe('');
    // The owner hears of it in their own language, with the ways back into their account.
    const mail = await latestMailTo('taken@example.com');
    expect(mail.subject).toBe('Someone tried to sign up to Scaffale with your address');
    expect(mail.text).toContain('http://localhost:3000/login');
    expect(mail.text).toContain('http://localhost:3000/login?forgot=1');
    const rows = await database.db
      .select()
      .from(users)
      .where(sql`${users.email} = 'taken@example.com'::citext`);
    expect(rows).toHaveLength(1);
    // The existing member is untouched and still signs in with the old password.
    await expect(signIn(testApp, member.email, member.password)).resolves.toContain(
      'session_token',
    );
  });

  it('a username chosen at sign-up follows the username rule', async () => {
    const bad = await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'accept-language': 'en' },
      payload: {
        acceptTerms: true,
        email: 'bad.name@example.com',
        password: 'good-pass',
        name: '',
        username: 'a b',
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(
      'Username must be 3-20 characters and only contain letters, numbers, and underscores',
    );
    await createMember(testApp, { username: 'Lettore_1' });
    const taken = await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'accept-language': 'en' },
      payload: {
        acceptTerms: true,
        email: 'dupe.name@example.com',
        password: 'good-pass',
        name: '',
        username: 'lettore_1',
      },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.message).toBe('Username is already taken');
  });

  it('forgot password: the same answer for a known and an unknown address', async () => {
    const member = await createMember(testApp, { email: 'forgetful@example.com' });
    const ask = (email: string) =>
      call({
        method: 'POST',
        url: '/api/auth/request-password-reset',
        payload: { email, redirectTo: '/reset-password' },
      });
    const known = await ask(member.email);
    const unknown = await ask('nobody-here@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(await latestMailTo('nobody-here@example.com')).toBeUndefined();
  });

  it('reset via the e-mailed token: new password works, old fails, every session ends', async () => {
    const member = await createMember(testApp, { email: 'reset.me@example.com' });
    // E-mails go out in the member's own language.
    await database.db.update(users).set({ preferredLanguage: 'en' }).where(eq(users.id, member.id));
    const otherDevice = await signIn(testApp, member.email, member.password);
    expect(
      (await inject({ method: 'GET', url: '/api/me', headers: { cookie: otherDevice } }))
        .statusCode,
    ).toBe(200);

    await call({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { 'accept-language': 'en' },
      payload: { email: member.email, redirectTo: '/reset-password' },
    });
    const mail = await latestMailTo(member.email);
    expect(mail.subject).toBe('Reset your Scaffale password');
    const link = linkIn(mail.text);
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost:3000/reset-password');
    const token = link.searchParams.get('token');
    expect(token).toBeTruthy();

    const tooShort = await call({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { 'accept-language': 'en' },
      payload: { newPassword: '123', token },
    });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().error.message).toBe('Password must be at least 8 characters');

    const reset = await call({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { newPassword: 'brand-new-pass', token },
    });
    expect(reset.statusCode).toBe(200);

    for (const cookie of [member.cookie, otherDevice]) {
      const me = await inject({ method: 'GET', url: '/api/me', headers: { cookie } });
      expect(me.statusCode).toBe(401);
    }
    const old = await call({
      method: 'POST',
      url: '/api/accounts/sign-in',
      headers: { 'accept-language': 'en' },
      payload: { identifier: member.email, password: member.password },
    });
    expect(old.statusCode).toBe(401);
    expect(old.json().error.message).toBe('Invalid login credentials');
    await expect(signIn(testApp, member.email, 'brand-new-pass')).resolves.toContain(
      'session_token',
    );

    // The token worked once.
    const reuse = await call({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { 'accept-language': 'en' },
      payload: { newPassword: 'yet-another-pass', token },
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error.code).toBe('invalid_token');
  });

  it('resending the verification e-mail works for a pending member', async () => {
    const member = await createMember(testApp, { email: 'pending@example.com', verified: false });
    const before = await database.query<{ n: number }>(
      'select count(*)::int as n from mail_outbox where "to" = $1',
      [member.email],
    );
    const res = await call({
      method: 'POST',
      url: '/api/auth/send-verification-email',
      payload: { email: member.email, callbackURL: '/login?verified=1' },
    });
    expect(res.statusCode).toBe(200);
    const after = await database.query<{ n: number }>(
      'select count(*)::int as n from mail_outbox where "to" = $1',
      [member.email],
    );
    expect(after[0].n).toBe(before[0].n + 1);
  });

  it('a reset link may only lead to our own site', async () => {
    const member = await createMember(testApp);
    const res = await call({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { 'accept-language': 'en' },
      payload: { email: member.email, redirectTo: 'https://evil.example/steal' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('invalid_redirect_url');
    expect(await latestMailTo(member.email)).toMatchObject({
      subject: expect.stringMatching(/Conferma/),
    });
  });

  it('a sign-up whose callbackURL points to another site is refused', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'accept-language': 'en' },
      payload: {
        acceptTerms: true,
        email: 'phished@example.com',
        password: 'long-enough',
        name: '',
        callbackURL: 'https://evil.example/steal',
      },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({
      code: 'invalid_callback_url',
      message: 'The return address is not valid.',
    });
    const rows = await database.db
      .select()
      .from(users)
      .where(eq(users.email, 'phished@example.com'));
    expect(rows).toHaveLength(0);
  });
});
