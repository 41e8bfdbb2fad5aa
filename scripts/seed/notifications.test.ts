import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';

describe('seed:demo notifications step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('gives Giulia her two friend requests under the bell, once however often it runs', async () => {
    await runSeed({ config, database, log: quiet });
    const count = async () =>
      (await database.query<{ n: number }>('select count(*)::int as n from notifications'))[0].n;
    const first = await count();
    await runSeed({ config, database, log: quiet });
    expect(await count()).toBe(first);

    const cookie = await signIn(testApp, 'giulia.bianchi@example.org', DEMO_PASSWORD);
    const get = (url: string) => inject({ method: 'GET', url, headers: { cookie } });
    // Her wishlist's and saved searches' alerts (scripts/seed/) are under the bell too.
    const items = (await get('/api/notifications'))
      .json()
      .items.filter((n: { type: string }) => n.type.startsWith('friend.'));
    expect(items.map((n: { type: string }) => n.type)).toEqual([
      'friend.request',
      'friend.request',
    ]);
    const unread = (await get('/api/notifications/unread-count')).json().unread;
    const wishlist = await database.query(
      `select 1 from notifications n join users u on u.id = n.recipient_id
       where u.email = 'giulia.bianchi@example.org' and n.type in ('wishlist.listed', 'trade.match', 'savedSearch.match')`,
    );
    expect(unread).toBe(2 + wishlist.length);
    expect(items[0].link).toMatch(/^\/profile\/[^/]+\/friends$/);
  }, 90_000);
});
