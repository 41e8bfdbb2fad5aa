import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp } from '../../test/app';
import { createMember, randomClientIp } from '../../test/members';

/**
 * Guessing and flooding from many addresses at once: every attempt below comes from a new
 * address, so only the per-account budget (AUTH_ACCOUNT_RATE_LIMIT_PER_HOUR, 20) can stop it.
 */
describe('accounts: limits per account, whatever the address', async () => {
  const testApp = await createTestApp();
  const { inject, database, config } = testApp;
  const budget = config.authAccountRateLimitPerHour;
  const fromAnywhere = (o: InjectOptions) =>
    inject({
      remoteAddress: randomClientIp(),
      ...o,
      headers: { 'accept-language': 'en', ...o.headers },
    });
  const mailsTo = async (to: string) =>
    (
      await database.query<{ n: number }>(
        'select count(*)::int as n from mail_outbox where "to" = $1',
        [to],
      )
    )[0].n;
  const expectRateLimited = (res: Awaited<ReturnType<typeof inject>>) => {
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json().error.code).toBe('rate_limited');
    expect(res.json().error.message).toMatch(
      /^Too many requests\. Please wait \d+ seconds and try again\.$/,
    );
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3600);
  };

  it('the real budget is tested here (the e2e server raises it)', () => {
    expect(budget).toBe(20);
  });

  it('sign-in: a password guessed from many addresses is refused after 20 failures, by e-mail and username alike', async () => {
    const target = await createMember(testApp, { username: 'Bersaglio' });
    const bystander = await createMember(testApp);
    const attempts: InjectOptions[] = [
      {
        method: 'POST',
        url: '/api/accounts/sign-in',
        payload: { identifier: target.email.toUpperCase(), password: 'guess' },
      },
      {
        method: 'POST',
        url: '/api/accounts/sign-in',
        payload: { identifier: 'bersaglio', password: 'guess' },
      },
      {
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email: target.email, password: 'guess' },
      },
      {
        method: 'POST',
        url: '/api/auth/sign-in/username',
        payload: { username: 'BERSAGLIO', password: 'guess' },
      },
    ];
    for (let i = 0; i < budget; i++) {
      const res = await fromAnywhere(attempts[i % attempts.length]);
      expect(res.statusCode, `attempt ${i + 1}: ${res.body}`).toBe(401);
    }
    for (const attempt of attempts) expectRateLimited(await fromAnywhere(attempt));
    // Even the right password waits: the guesser cannot tell a hit from a miss.
    expectRateLimited(
      await fromAnywhere({
        method: 'POST',
        url: '/api/accounts/sign-in',
        payload: { identifier: target.email, password: target.password },
      }),
    );
    // Other members are not affected.
    const other = await fromAnywhere({
      method: 'POST',
      url: '/api/accounts/sign-in',
      payload: { identifier: bystander.email, password: bystander.password },
    });
    expect(other.statusCode).toBe(200);
  }, 120_000);

  it('sign-up: a known address answers exactly as a new one; one address gets at most 20 an hour', async () => {
    const owner = await createMember(testApp);
    const signUp = (email: string) =>
      fromAnywhere({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { acceptTerms: true, email, password: 'long-enough-1', name: '' },
      });
    const fresh = await signUp(`fresh-${Date.now()}@example.com`);
    const known = await signUp(owner.email);
    expect(known.statusCode).toBe(200);
    expect(known.statusCode).toBe(fresh.statusCode);
    expect(known.body).toBe(fresh.body);
    // Its own sign-up and the one above were the first two of the address's budget.
    const before = await mailsTo(owner.email);
    for (let i = 2; i < budget; i++) expect((await signUp(owner.email)).statusCode).toBe(200);
    expectRateLimited(await signUp(owner.email.toUpperCase()));
    expect(await mailsTo(owner.email)).toBe(before + budget - 2);
  }, 120_000);

  it('password reset and verification e-mails: at most 20 an hour to one address', async () => {
    for (const [url, verified, extra] of [
      ['/api/auth/request-password-reset', true, { redirectTo: '/reset-password' }],
      ['/api/auth/send-verification-email', false, { callbackURL: '/login?verified=1' }],
    ] as const) {
      const member = await createMember(testApp, { verified });
      const before = await mailsTo(member.email);
      const ask = () =>
        fromAnywhere({
          method: 'POST',
          url,
          payload: { email: member.email, ...extra },
        });
      for (let i = 0; i < budget; i++) expect((await ask()).statusCode, url).toBe(200);
      expectRateLimited(await ask());
      expect(await mailsTo(member.email)).toBe(before + budget);
    }
  }, 120_000);
});

describe('accounts: a stolen session cannot guess the password it lacks', async () => {
  // A budget below the route's own limit (10 per 15 minutes), so this tests the password budget.
  const testApp = await createTestApp({ config: { authAccountRateLimitPerHour: 3 } });
  const budget = 3;

  it('account deletion refuses password checks past the budget, from any address, and deletes nothing', async () => {
    const member = await createMember(testApp);
    const confirmWith = (password: string) =>
      testApp.inject({
        method: 'POST',
        url: '/api/me/delete',
        remoteAddress: randomClientIp(),
        headers: { cookie: member.cookie, 'accept-language': 'en' },
        payload: { password },
      });
    for (let i = 0; i < budget; i++)
      expect((await confirmWith(`guess-${i}`)).statusCode, `guess ${i + 1}`).toBe(400);
    const limited = await confirmWith(member.password);
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    const [row] = await testApp.database.query<{ email: string }>(
      'select email from users where id = $1',
      [member.id],
    );
    expect(row.email).toBe(member.email);
  }, 120_000);
});

describe('accounts: the per-account budget is a setting', async () => {
  const testApp = await createTestApp({ config: { authAccountRateLimitPerHour: 3 } });
  const { inject } = testApp;
  const fromAnywhere = (o: InjectOptions) =>
    inject({ remoteAddress: randomClientIp(), ...o, headers: { 'accept-language': 'en' } });

  it('a success clears the failures before it, and the budget follows the setting', async () => {
    const member = await createMember(testApp);
    const signInWith = (password: string) =>
      fromAnywhere({
        method: 'POST',
        url: '/api/accounts/sign-in',
        payload: { identifier: member.email, password },
      });
    for (let i = 0; i < 3 - 1; i++) expect((await signInWith('typo')).statusCode).toBe(401);
    expect((await signInWith(member.password)).statusCode).toBe(200);
    for (let i = 0; i < 3 - 1; i++) expect((await signInWith('typo')).statusCode).toBe(401);
    expect((await signInWith(member.password)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await signInWith('typo')).statusCode).toBe(401);
    expect((await signInWith(member.password)).statusCode).toBe(429);
  }, 120_000);
});

/**
 * AUTH_RATE_LIMIT_PER_MINUTE is one budget per client address for every authentication route
 * together, counted once over every instance: on PostgreSQL two app instances on one database
 * stand for two processes (the embedded database is one process by design, so one instance).
 */
describe('accounts: one budget per address for every sign-in route, over every instance', async () => {
  const onPostgres = !!process.env.TEST_DATABASE_URL;
  const one = await createTestApp();
  const two = onPostgres ? await createTestApp({ database: one.database }) : one;
  const perMinute = one.config.authRateLimitPerMinute;
  const attempts = (n: number): InjectOptions => {
    const who = `nobody${n}`;
    return [
      {
        method: 'POST',
        url: '/api/accounts/sign-in',
        payload: { identifier: `${who}@example.com`, password: 'guess' },
      },
      {
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email: `${who}@example.com`, password: 'guess' },
      },
      {
        method: 'POST',
        url: '/api/auth/sign-in/username',
        payload: { username: who, password: 'guess' },
      },
    ][n % 3] as InjectOptions;
  };

  it('the real budget is tested here', () => expect(perMinute).toBe(10));

  it('30 attempts in a minute over the three sign-in routes: 10 reach the check, then 429 with Retry-After', async () => {
    const address = randomClientIp();
    const results = [];
    for (let n = 0; n < 30; n++) {
      const app = n % 2 ? two : one;
      results.push(
        await app.inject({
          remoteAddress: address,
          ...attempts(n),
          headers: { 'accept-language': 'en' },
        }),
      );
    }
    const statuses = results.map((r) => r.statusCode);
    expect(statuses).toEqual([...Array(perMinute).fill(401), ...Array(30 - perMinute).fill(429)]);
    for (const res of results.slice(perMinute)) {
      expect(res.json().error.message).toMatch(
        /^Too many requests\. Please wait \d+ seconds and try again\.$/,
      );
      const wait = Number(res.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
    }
    // Sign-up and the e-mail routes share the budget (README: "sign-in, sign-up and reset").
    for (const [url, payload] of [
      [
        '/api/auth/sign-up/email',
        { acceptTerms: true, email: 'new@example.com', password: 'long-enough-1' },
      ],
      ['/api/auth/request-password-reset', { email: 'new@example.com' }],
      ['/api/auth/send-verification-email', { email: 'new@example.com' }],
      ['/api/auth/reset-password', { token: 'x', newPassword: 'long-enough-1' }],
    ] as const) {
      const res = await two.inject({ method: 'POST', url, remoteAddress: address, payload });
      expect(res.statusCode, url).toBe(429);
    }
    // Another address is not affected.
    const other = await one.inject({ remoteAddress: randomClientIp(), ...attempts(0) });
    expect(other.statusCode).toBe(401);
  }, 120_000);

  it('racing attempts from one address are all counted', async () => {
    const address = randomClientIp();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        (n % 2 ? two : one).inject({ remoteAddress: address, ...attempts(n) }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - perMinute);
  }, 120_000);

  it('an unknown username answers as a known one with a wrong password, on both username routes, and takes as long', async () => {
    const known = await createMember(one, { username: 'Conosciuta' });
    const ask = (o: InjectOptions) =>
      one.inject({ remoteAddress: randomClientIp(), ...o, headers: { 'accept-language': 'it' } });
    for (const [route, body] of [
      ['/api/accounts/sign-in', (u: string) => ({ identifier: u, password: 'sbagliata' })],
      ['/api/auth/sign-in/username', (u: string) => ({ username: u, password: 'sbagliata' })],
    ] as const) {
      const a = await ask({ method: 'POST', url: route, payload: body(known.username!) });
      const b = await ask({ method: 'POST', url: route, payload: body('Sconosciuta') });
      expect(a.statusCode, route).toBe(401);
      expect(b.statusCode, route).toBe(a.statusCode);
      expect(b.json(), route).toEqual(a.json());
      expect(b.headers['retry-after']).toBeUndefined();
    }
    // Timing: the unknown name is hashed too (scrypt), so it is not several times faster.
    const median = async (identifier: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        await ask({
          method: 'POST',
          url: '/api/accounts/sign-in',
          payload: { identifier, password: `sbagliata-${i}` },
        });
        times.push(performance.now() - start);
      }
      return times.sort((x, y) => x - y)[2];
    };
    const unknownMs = await median(`Sconosciuta${Date.now() % 1000}`);
    const knownMs = await median(known.username!);
    expect(unknownMs).toBeGreaterThan(knownMs / 3);
  }, 120_000);
});
