import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp } from '../../test/helpers';
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
        payload: { email, password: 'long-enough-1', name: '' },
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
