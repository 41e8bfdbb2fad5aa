import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';

describe('seed:demo watching step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('adds watched listings and a seller on holiday, once', async () => {
    await runSeed({ config, database, log: quiet });
    const count = async () =>
      (
        await database.query<{ watches: number; holidays: number }>(
          `select (select count(*)::int from listing_watches) as watches,
             (select count(*)::int from member_holidays) as holidays`,
        )
      )[0];
    const first = await count();
    expect(first.watches).toBeGreaterThanOrEqual(6);
    expect(first.holidays).toBe(1);
    await runSeed({ config, database, log: quiet });
    expect(await count()).toEqual(first);

    // Emily's watched page lists them; Dan's profile says when he is back.
    const cookie = await signIn(testApp, 'emily.carter@example.org', DEMO_PASSWORD);
    const page = (
      await inject({ method: 'GET', url: '/api/me/watches', headers: { cookie } })
    ).json();
    expect(page.total).toBeGreaterThanOrEqual(1);
    const [dan] = await database.query<{ id: string }>(
      `select id from users where username = 'dan_hughes'`,
    );
    const holiday = (await inject({ method: 'GET', url: `/api/users/${dan.id}/holiday` })).json();
    expect(holiday.backAt).not.toBeNull();
  }, 180_000);
});
