import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, createTestDatabase, type TestApp } from '../test/app';
import { createMember, randomClientIp } from '../test/members';
import { createCounterStore, PostgresCounterStore, storedKey } from './rate-limits-store';
import { MemoryCounterStore } from './rate-limits';

const onPostgres = !!process.env.TEST_DATABASE_URL;

describe('rate-limit counters', async () => {
  const database = await createTestDatabase();
  const store = createCounterStore(database);

  it('are shared on PostgreSQL and in memory on the embedded database', () => {
    expect(store).toBeInstanceOf(onPostgres ? PostgresCounterStore : MemoryCounterStore);
  });

  it('count within a window, and a new window starts from zero when it ends', async () => {
    const key = `window:${Math.random()}`;
    const t0 = 1_000_000;
    expect(await store.add(key, 1, 1000, t0)).toEqual({ count: 1, resetAt: t0 + 1000 });
    expect(await store.add(key, 2, 1000, t0 + 500)).toEqual({ count: 3, resetAt: t0 + 1000 });
    expect(await store.get(key, t0 + 999)).toEqual({ count: 3, resetAt: t0 + 1000 });
    expect(await store.get(key, t0 + 1000)).toBeUndefined();
    expect(await store.add(key, 1, 1000, t0 + 1000)).toEqual({ count: 1, resetAt: t0 + 2000 });
    await store.delete(key);
    expect(await store.get(key, t0 + 1000)).toBeUndefined();
  });

  it('take keys with NUL bytes and huge keys, and tell them apart', async () => {
    const huge = 'x'.repeat(100_000);
    expect(storedKey(huge)).toMatch(/^sha256:[0-9a-f]{64}$/);
    // No key is stored as written: an e-mail in a key is personal data.
    expect(storedKey('signin:ada@example.com')).not.toContain('ada');
    expect(storedKey('a\0b')).not.toBe(storedKey('a\0c'));
    expect((await store.add(huge, 1, 60_000, Date.now())).count).toBe(1);
    expect((await store.add(`${huge}y`, 1, 60_000, Date.now())).count).toBe(1);
    expect((await store.add('a\0b', 1, 60_000, Date.now())).count).toBe(1);
    expect((await store.add('a\0b', 1, 60_000, Date.now())).count).toBe(2);
  });

  it('count every one of many attempts made at the same moment, once', async () => {
    const key = `race:${Math.random()}`;
    const now = Date.now();
    const counts = await Promise.all(
      Array.from({ length: 40 }, () => store.add(key, 1, 60_000, now)),
    );
    expect(counts.map((w) => w.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });
});

/**
 * Two app instances on one PostgreSQL database stand for two processes or machines: every limit
 * must count the attempts of both, once. (The embedded database is one process by design.)
 */
describe.skipIf(!onPostgres)('two app instances on one PostgreSQL database', async () => {
  const database = onPostgres ? await createTestDatabase() : undefined;
  const config = { authAccountRateLimitPerHour: 4, authRateLimitPerMinute: 4 };
  const one = onPostgres ? await createTestApp({ database, config }) : ({} as TestApp);
  const two = onPostgres ? await createTestApp({ database, config }) : ({} as TestApp);
  const english = (o: InjectOptions): InjectOptions => ({
    ...o,
    headers: { 'accept-language': 'en', ...o.headers },
  });
  const expectLimited = (res: Awaited<ReturnType<TestApp['inject']>>) => {
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json().error.message).toMatch(
      /^Too many requests\. Please wait \d+ seconds and try again\.$/,
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('sign-in from one address: the budget counts the attempts on both instances once', async () => {
    const member = await createMember(one);
    const address = randomClientIp();
    const attempt = (app: TestApp) =>
      app.inject(
        english({
          method: 'POST',
          url: '/api/accounts/sign-in',
          remoteAddress: address,
          payload: { identifier: member.email, password: member.password },
        }),
      );
    for (let i = 0; i < 4; i++)
      expect((await attempt(i % 2 ? two : one)).statusCode, `attempt ${i + 1}`).toBe(200);
    expectLimited(await attempt(one));
    expectLimited(await attempt(two));
    // Another address is not affected.
    const other = await two.inject(
      english({
        method: 'POST',
        url: '/api/accounts/sign-in',
        remoteAddress: randomClientIp(),
        payload: { identifier: member.email, password: member.password },
      }),
    );
    expect(other.statusCode).toBe(200);
  });

  it('sign-in guessed from many addresses on both instances: one budget per account', async () => {
    const target = await createMember(one);
    const bystander = await createMember(one);
    const guess = (app: TestApp, email = target.email, password = 'guess') =>
      app.inject(
        english({
          method: 'POST',
          url: '/api/accounts/sign-in',
          remoteAddress: randomClientIp(),
          payload: { identifier: email, password },
        }),
      );
    for (let i = 0; i < 4; i++)
      expect((await guess(i % 2 ? two : one)).statusCode, `guess ${i + 1}`).toBe(401);
    expectLimited(await guess(one));
    expectLimited(await guess(two, target.email, target.password));
    expect((await guess(two, bystander.email, bystander.password)).statusCode).toBe(200);
  });

  it('password-reset e-mails to one address: one budget across both instances', async () => {
    const member = await createMember(one);
    const mails = async () =>
      (
        await database!.query<{ n: number }>(
          'select count(*)::int as n from mail_outbox where "to" = $1',
          [member.email],
        )
      )[0].n;
    const before = await mails();
    const ask = (app: TestApp) =>
      app.inject(
        english({
          method: 'POST',
          url: '/api/auth/request-password-reset',
          remoteAddress: randomClientIp(),
          payload: { email: member.email, redirectTo: '/reset-password' },
        }),
      );
    for (let i = 0; i < 4; i++)
      expect((await ask(i % 2 ? two : one)).statusCode, `request ${i + 1}`).toBe(200);
    expectLimited(await ask(two));
    expect((await mails()) - before).toBe(4);
  });

  it('password checks of a signed-in member: one budget across both instances, nothing deleted', async () => {
    const member = await createMember(one);
    const confirmWith = (app: TestApp, password: string) =>
      app.inject(
        english({
          method: 'POST',
          url: '/api/me/delete',
          remoteAddress: randomClientIp(),
          headers: { cookie: member.cookie },
          payload: { password },
        }),
      );
    for (let i = 0; i < 4; i++)
      expect((await confirmWith(i % 2 ? two : one, `guess-${i}`)).statusCode).toBe(400);
    expectLimited(await confirmWith(two, member.password));
    const [row] = await database!.query<{ n: number }>(
      'select count(*)::int as n from users where id = $1',
      [member.id],
    );
    expect(row.n).toBe(1);
  });

  it('attempts racing on both instances at once are all counted', async () => {
    const member = await createMember(one);
    const address = randomClientIp();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? two : one).inject(
          english({
            method: 'POST',
            url: '/api/accounts/sign-in',
            remoteAddress: address,
            // Other accounts each time: the address's budget is the one raced here.
            payload: { identifier: `race-${i}-${member.email}`, password: 'wrong' },
          }),
        ),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    // 4 from the address at most reach the password check; the others are refused.
    expect(statuses.filter((s) => s !== 429)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  });
});
