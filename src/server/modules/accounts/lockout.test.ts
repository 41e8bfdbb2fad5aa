import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp } from '../../test/app';
import { cookieFrom, createMember, randomClientIp, type Member } from '../../test/members';

/**
 * Guessing a public username's password from many addresses (a botnet: X-Forwarded-For behind our
 * proxy, TRUST_PROXY) must not lock its owner out: a browser the owner signed in with before
 * carries a device cookie that skips the account's lock-out. Everyone else still meets the
 * account's budget (AUTH_ACCOUNT_RATE_LIMIT_PER_HOUR, 20), and one address alone only a quarter
 * of it (5), so a single stranger cannot even lock out the owner's new browsers.
 */
describe('accounts: no lock-out by strangers (device cookies)', async () => {
  const testApp = await createTestApp({ config: { trustProxy: true } });
  const { config } = testApp;
  const budget = config.authAccountRateLimitPerHour;
  const perAddress = Math.ceil(budget / 4);
  const DEVICE = 'scaffale.device';

  /** A request from `address` (the proxy's X-Forwarded-For), with these cookies. */
  const from = (address: string, o: InjectOptions, cookie?: string) =>
    testApp.inject({
      ...o,
      headers: {
        'accept-language': 'en',
        'x-forwarded-for': address,
        ...(cookie ? { cookie } : {}),
        ...o.headers,
      },
    });
  const byUsername = (username: string, password: string): InjectOptions => ({
    method: 'POST',
    url: '/api/auth/sign-in/username',
    payload: { username, password },
  });
  const byIdentifier = (identifier: string, password: string): InjectOptions => ({
    method: 'POST',
    url: '/api/accounts/sign-in',
    payload: { identifier, password },
  });
  /** The device cookie among a Cookie header's pairs (what the browser would send back). */
  const deviceOf = (cookie: string) => {
    const pair = cookie.split('; ').find((p) => p.startsWith(`${DEVICE}=`));
    if (!pair) throw new Error(`no device cookie in ${cookie}`);
    return pair;
  };
  const expectRefused = (res: Awaited<ReturnType<TestApp['inject']>>) => {
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json().error.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['set-cookie']).toBeUndefined();
  };
  /** The botnet: `budget + 5` wrong passwords, each from a new address. */
  const lockOut = async (member: Member & { username: string }) => {
    const statuses: number[] = [];
    for (let i = 0; i < budget + 5; i++) {
      const attempt =
        i % 2
          ? byUsername(member.username, `guess-${i}`)
          : byIdentifier(member.username, `guess-${i}`);
      statuses.push((await from(randomClientIp(), attempt)).statusCode);
    }
    expect(statuses).toEqual([...Array(budget).fill(401), ...Array(5).fill(429)]);
  };
  const newMember = async (username: string) =>
    (await createMember(testApp, { username })) as Member & { username: string };

  it('a sign-in sets an httpOnly, SameSite=Strict device cookie for /api, naming the account only', async () => {
    const member = await newMember('Dispositivo');
    const res = await from(randomClientIp(), byIdentifier(member.email, member.password));
    expect(res.statusCode).toBe(200);
    const raw = [res.headers['set-cookie']].flat().map(String);
    const device = raw.find((c) => c.startsWith(`${DEVICE}=`));
    expect(device).toMatch(/; Max-Age=31536000; Path=\/api; HttpOnly; SameSite=Strict$/);
    const value = device!.split(';')[0].slice(DEVICE.length + 1);
    const [id, nonce, mac] = value.split('.');
    expect(id).toBe(member.id);
    expect(nonce).toMatch(/^[\w-]{22}$/);
    expect(mac).toMatch(/^[\w-]{43}$/);
    expect(value).not.toContain(member.email.split('@')[0]);
    // A wrong password sets none.
    const wrong = await from(randomClientIp(), byIdentifier(member.email, 'wrong'));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('after 20+ wrong passwords from rotating addresses the owner still signs in with their device cookie', async () => {
    const owner = await newMember('Proprietaria');
    const device = deviceOf(owner.cookie);
    await lockOut(owner);
    // The owner, from yet another address, with the cookie of their earlier sign-in.
    const home = await from(randomClientIp(), byUsername(owner.username, owner.password), device);
    expect(home.statusCode, home.body).toBe(200);
    expect(cookieFrom(home)).toContain('session_token');
    // …by e-mail too, and the renewed cookie works as well.
    const renewed = deviceOf(cookieFrom(home));
    expect(renewed).not.toBe(device);
    const again = await from(randomClientIp(), byIdentifier(owner.email, owner.password), renewed);
    expect(again.statusCode, again.body).toBe(200);
    // Without the cookie, from a fresh address, the account's budget still holds: right password too.
    expectRefused(await from(randomClientIp(), byIdentifier(owner.email, owner.password)));
    expectRefused(await from(randomClientIp(), byUsername(owner.username, owner.password)));
  }, 300_000);

  it('a forged cookie, another account’s cookie or a tampered one gives nothing', async () => {
    const owner = await newMember('Bersaglio2');
    const other = await newMember('Altrui');
    const ownDevice = deviceOf(owner.cookie);
    const [id, nonce, mac] = ownDevice.slice(DEVICE.length + 1).split('.');
    await lockOut(owner);
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const forged = [
      deviceOf(other.cookie),
      `${DEVICE}=${other.id}.${nonce}.${mac}`,
      `${DEVICE}=${id}.${flip(nonce)}.${mac}`,
      `${DEVICE}=${id}.${nonce}.${flip(mac)}`,
      `${DEVICE}=${id}.${nonce}`,
      `${DEVICE}=${id}.${nonce}.${mac}.${mac}`,
      `${DEVICE}=${id}.${nonce}.${'A'.repeat(100_000)}`,
      `${DEVICE}=${id}%00.${nonce}.${mac}`,
    ];
    for (const cookie of forged)
      expectRefused(
        await from(randomClientIp(), byIdentifier(owner.email, owner.password), cookie),
      );
    // The other account's cookie still works for the other account.
    const theirs = await from(
      randomClientIp(),
      byIdentifier(other.email, other.password),
      deviceOf(other.cookie),
    );
    expect(theirs.statusCode).toBe(200);
  }, 300_000);

  it('a device cookie has its own small budget: 5 wrong passwords, then it waits too', async () => {
    const owner = await newMember('Smemorata');
    const device = deviceOf(owner.cookie);
    await lockOut(owner);
    for (let i = 0; i < perAddress; i++)
      expect(
        (await from(randomClientIp(), byIdentifier(owner.email, 'typo'), device)).statusCode,
      ).toBe(401);
    expectRefused(await from(randomClientIp(), byIdentifier(owner.email, owner.password), device));
  }, 300_000);

  it('a device cookie from before a password change no longer helps; the changing browser’s new one does', async () => {
    const owner = await newMember('Cambiata');
    const old = deviceOf(owner.cookie);
    const changed = await from(
      randomClientIp(),
      {
        method: 'POST',
        url: '/api/me/password',
        payload: { currentPassword: owner.password, newPassword: 'a-new-password-9' },
      },
      owner.cookie,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    // The browser that changed it gets a cookie for the new password.
    const renewed = deviceOf(cookieFrom(changed));
    expect(renewed).not.toBe(old);
    await lockOut(owner);
    expectRefused(await from(randomClientIp(), byIdentifier(owner.email, 'a-new-password-9'), old));
    const res = await from(
      randomClientIp(),
      byIdentifier(owner.email, 'a-new-password-9'),
      renewed,
    );
    expect(res.statusCode, res.body).toBe(200);
  }, 300_000);

  it('one stranger’s address alone cannot lock the owner out, even without a device cookie', async () => {
    const owner = await newMember('Vicina');
    const stranger = randomClientIp();
    for (let i = 0; i < perAddress; i++)
      expect((await from(stranger, byUsername(owner.username, `guess-${i}`))).statusCode).toBe(401);
    expectRefused(await from(stranger, byUsername(owner.username, `guess-x`)));
    expectRefused(await from(stranger, byIdentifier(owner.email, owner.password)));
    // The owner, on a new browser at another address: within the account's budget.
    const res = await from(randomClientIp(), byIdentifier(owner.username, owner.password));
    expect(res.statusCode, res.body).toBe(200);
  }, 300_000);

  it('NUL bytes and huge values in any sign-in field: a clear 4xx, never a 500', async () => {
    const odd = ['a\0b@example.com', 'nul\0name', 'x'.repeat(100_000), `${'y'.repeat(300)}@e.com`];
    for (const value of odd) {
      for (const attempt of [
        byIdentifier(value, 'guess'),
        byUsername(value, 'guess'),
        {
          method: 'POST',
          url: '/api/auth/sign-in/email',
          payload: { email: value, password: 'guess' },
        },
      ] as InjectOptions[]) {
        const res = await from(randomClientIp(), attempt, `${DEVICE}=${encodeURIComponent(value)}`);
        expect(res.statusCode, `${attempt.url} ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${attempt.url} ${res.body}`).toBeLessThan(500);
        expect(res.json().error.message).toBeTruthy();
      }
    }
  }, 300_000);

  it('guesses racing from many addresses at once: exactly the budget reaches the password check', async () => {
    const owner = await newMember('Corsa');
    const results = await Promise.all(
      Array.from({ length: budget + 10 }, (_, i) =>
        from(randomClientIp(), byIdentifier(owner.email, `race-${i}`)),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(budget);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  }, 300_000);
});
