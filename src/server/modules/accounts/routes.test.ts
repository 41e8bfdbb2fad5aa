import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { createTestApp } from '../../test/app';
import { cookieFrom, createMember, randomClientIp, signIn } from '../../test/members';
import { sessions } from '../../db/schema';

describe('accounts: sign-in, providers, CSRF, sessions', async () => {
  // Everything the server logs is captured, to check that no password is ever written.
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const testApp = await createTestApp({
    deps: { logger: { level: 'trace', stream: logStream } },
  });
  const { inject, database } = testApp;
  const call = (o: InjectOptions) => inject({ remoteAddress: randomClientIp(), ...o });
  const signInWith = (identifier: string, password: string, lang = 'en') =>
    call({
      method: 'POST',
      url: '/api/accounts/sign-in',
      headers: { 'accept-language': lang },
      payload: { identifier, password },
    });

  const anna = await createMember(testApp, {
    email: 'anna.verdi@example.com',
    password: 'segreto-di-anna',
    username: 'AnnaLegge',
  });

  it('signs in by e-mail: 200 with Me and a session cookie', async () => {
    const res = await signInWith('anna.verdi@example.com', 'segreto-di-anna');
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({
      id: anna.id,
      email: 'anna.verdi@example.com',
      displayName: 'anna.verdi',
      username: 'AnnaLegge',
      emailVerified: true,
      accountStatus: 'verified',
    });
    const cookie = cookieFrom(res);
    expect(cookie).toContain('scaffale.session_token=');
    const me = await inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(anna.id);
  });

  it('signs in by e-mail in any letter case and by username in any letter case', async () => {
    expect((await signInWith('Anna.Verdi@Example.COM', 'segreto-di-anna')).statusCode).toBe(200);
    for (const name of ['AnnaLegge', 'annalegge', 'ANNALEGGE']) {
      const res = await signInWith(name, 'segreto-di-anna');
      expect(res.statusCode).toBe(200);
      expect(res.json().user.id).toBe(anna.id);
      expect(cookieFrom(res)).toContain('session_token');
    }
  });

  it('an unknown username answers exactly as a known one with a wrong password', async () => {
    for (const lang of ['en', 'it']) {
      const unknown = await signInWith('nobody_here', 'whatever-pass', lang);
      const known = await signInWith('AnnaLegge', 'whatever-pass', lang);
      expect(unknown.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.json()).toEqual(known.json());
      expect(unknown.headers['set-cookie']).toBeUndefined();
    }
  });

  it('a wrong password is a 401 with the provider message, for e-mail and username alike', async () => {
    for (const identifier of ['anna.verdi@example.com', 'AnnaLegge', 'ghost@example.com']) {
      const res = await signInWith(identifier, 'wrong-password');
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toEqual({
        code: 'invalid_email_or_password',
        message: 'Invalid login credentials',
      });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('missing fields are a 400 with field messages', async () => {
    const res = await call({
      method: 'POST',
      url: '/api/accounts/sign-in',
      headers: { 'accept-language': 'en' },
      payload: { identifier: '  ' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      identifier: 'This field is required',
      password: 'This field is required',
    });
  });

  it('a pending (unconfirmed) member can sign in; the status says pending', async () => {
    const pending = await createMember(testApp, { verified: false });
    const res = await signInWith(pending.email, pending.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ emailVerified: false, accountStatus: 'pending' });
  });

  it('GET /api/accounts/providers says whether Google is configured', async () => {
    const res = await inject({ method: 'GET', url: '/api/accounts/providers' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ google: false });
  });

  describe('CSRF', () => {
    const attempt = (headers: Record<string, string | undefined>) =>
      call({
        method: 'POST',
        url: '/api/accounts/sign-in',
        headers: { 'accept-language': 'en', ...headers },
        payload: { identifier: 'anna.verdi@example.com', password: 'segreto-di-anna' },
      });

    it('refuses a state-changing request with no Origin or Referer', async () => {
      const res = await attempt({ origin: undefined });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: { code: 'forbidden', message: 'Access denied' } });
    });

    it('refuses a foreign Origin, even with a same-site looking Referer', async () => {
      for (const headers of [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { origin: 'http://localhost:3001' },
        { origin: 'https://evil.example', referer: 'http://localhost:3000/login' },
        { origin: undefined, referer: 'https://evil.example/page' },
      ]) {
        const res = await attempt(headers);
        expect(res.statusCode, JSON.stringify(headers)).toBe(403);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('accepts our own Origin, our Referer, or Sec-Fetch-Site same-origin', async () => {
      for (const headers of [
        { origin: 'http://localhost:3000' },
        { origin: undefined, referer: 'http://localhost:3000/login?x=1' },
        { origin: undefined, 'sec-fetch-site': 'same-origin' },
      ]) {
        const res = await attempt(headers);
        expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      }
    });

    it('guards better-auth routes and our other modules too; GET stays open', async () => {
      const signUp = await call({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin: 'https://evil.example', 'accept-language': 'en' },
        payload: {
          acceptTerms: true,
          email: 'csrf@example.com',
          password: 'long-enough',
          name: '',
        },
      });
      expect(signUp.statusCode).toBe(403);
      const signOut = await call({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: { origin: 'https://evil.example', cookie: anna.cookie },
      });
      expect(signOut.statusCode).toBe(403);
      const patch = await call({
        method: 'PATCH',
        url: '/api/me',
        headers: { origin: 'https://evil.example', cookie: anna.cookie },
        payload: { bio: 'hacked' },
      });
      expect(patch.statusCode).toBe(403);
      const me = await inject({
        method: 'GET',
        url: '/api/me',
        headers: { origin: 'https://evil.example', cookie: anna.cookie },
      });
      expect(me.statusCode).toBe(200);
      expect(me.json().bio).toBeNull();
    });
  });

  it('rate-limits sign-in: the 11th attempt in a minute from one address is a 429', async () => {
    const remoteAddress = randomClientIp();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i++) {
      // Other accounts each time: this is the address's budget, not an account's.
      last = await inject({
        method: 'POST',
        url: '/api/accounts/sign-in',
        remoteAddress,
        headers: { 'accept-language': 'en' },
        payload: { identifier: `nobody-${i}@example.com`, password: 'wrong-password' },
      });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(last!.statusCode).toBe(429);
    expect(last!.json().error.code).toBe('rate_limited');
    expect(last!.json().error.message).toMatch(/^Too many requests\. Please wait \d+ seconds/);
    // Another address is not affected.
    expect((await signInWith('anna.verdi@example.com', 'segreto-di-anna')).statusCode).toBe(200);
  }, 60_000); // eleven password checks, each hashing as a real one does

  it('rate-limits sign-up, forgotten-password and verification e-mails too', async () => {
    for (const [url, payload] of [
      [
        '/api/auth/sign-up/email',
        { acceptTerms: true, email: 'x@example.com', password: '1', name: '' },
      ],
      ['/api/auth/request-password-reset', { email: 'x@example.com' }],
      ['/api/auth/send-verification-email', { email: 'x@example.com' }],
    ] as const) {
      const remoteAddress = randomClientIp();
      let last;
      for (let i = 0; i < 11; i++)
        last = await inject({ method: 'POST', url, remoteAddress, payload });
      expect(last!.statusCode, url).toBe(429);
      expect(last!.json().error.code).toBe('rate_limited');
    }
  });

  describe('DELETE /api/me/sessions/others', () => {
    it('anonymous: 401', async () => {
      const res = await call({ method: 'DELETE', url: '/api/me/sessions/others' });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
    });

    it('ends the other sessions of the owner only', async () => {
      const owner = await createMember(testApp);
      const laptop = await signIn(testApp, owner.email, owner.password);
      const phone = await signIn(testApp, owner.email, owner.password);
      const other = await createMember(testApp);

      const res = await call({
        method: 'DELETE',
        url: '/api/me/sessions/others',
        headers: { cookie: laptop },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ended: 2 });
      const status = async (cookie: string) =>
        (await inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode;
      expect(await status(laptop)).toBe(200);
      expect(await status(phone)).toBe(401);
      expect(await status(owner.cookie)).toBe(401);
      expect(await status(other.cookie)).toBe(200);
      const left = await database.db.select().from(sessions).where(eq(sessions.userId, other.id));
      expect(left).toHaveLength(1);
    });
  });

  it('an unknown /api/auth path is a 404 in our error format', async () => {
    const res = await inject({
      method: 'GET',
      url: '/api/auth/no-such-thing',
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });

  it('never logs a password or a token', async () => {
    await signInWith('anna.verdi@example.com', 'segreto-di-anna');
    await inject({ method: 'GET', url: '/api/auth/verify-email?token=tok-secret-123' });
    const log = logLines.join('');
    expect(log).toContain('/api/accounts/sign-in');
    expect(log).not.toContain('segreto-di-anna');
    expect(log).not.toContain('wrong-password');
    expect(log).not.toContain('tok-secret-123');
  });
});

describe('accounts behind HTTPS', async () => {
  const testApp = await createTestApp({
    config: { publicUrl: 'https://scaffale.example', secureCookies: true },
  });

  it('the session cookie is Secure (with the __Secure- prefix) and still works', async () => {
    const member = await createMember(testApp);
    expect(member.cookie).toMatch(/^__Secure-scaffale\.session_token=/);
    const res = await testApp.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      remoteAddress: randomClientIp(),
      payload: { identifier: member.email, password: member.password },
    });
    expect(res.statusCode).toBe(200);
    expect([res.headers['set-cookie']].flat().join('\n')).toMatch(
      /__Secure-scaffale\.session_token=[^;]+;.*Secure/i,
    );
    const me = await testApp.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: member.cookie },
    });
    expect(me.statusCode).toBe(200);
  });

  it('the CSRF check now expects the https origin', async () => {
    const res = await testApp.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      remoteAddress: randomClientIp(),
      headers: { origin: 'http://scaffale.example' },
      payload: { identifier: 'someone@example.com', password: 'whatever' },
    });
    expect(res.statusCode).toBe(403);
  });
});
