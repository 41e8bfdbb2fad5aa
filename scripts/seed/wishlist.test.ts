import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';

describe('seed:demo wishlist step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('adds wishlists that produce alerts and trade matches, once', async () => {
    await runSeed({ config, database, log: quiet });
    const count = async () =>
      (
        await database.query<{ items: number; alerts: number; matches: number }>(
          `select (select count(*)::int from wishlist_items) as items,
             (select count(*)::int from notifications where type = 'wishlist.listed') as alerts,
             (select count(*)::int from notifications where type = 'trade.match') as matches`,
        )
      )[0];
    const first = await count();
    expect(first.items).toBeGreaterThan(8);
    expect(first.alerts).toBeGreaterThanOrEqual(first.items);
    // Two pairs, both members of each told once.
    expect(first.matches).toBe(4);
    await runSeed({ config, database, log: quiet });
    expect(await count()).toEqual(first);

    // Giulia sees her trade partner, and her wishlist through the API.
    const cookie = await signIn(testApp, 'giulia.bianchi@example.org', DEMO_PASSWORD);
    const get = (url: string) => inject({ method: 'GET', url, headers: { cookie } });
    const matches = (await get('/api/me/trade-matches')).json();
    expect(matches.total).toBeGreaterThanOrEqual(1);
    expect(matches.items[0].member.username).toBe('lucaferrari');
    const me = (await get('/api/me')).json();
    const wishlist = (await get(`/api/users/${me.id}/wishlist`)).json();
    expect(wishlist.total).toBeGreaterThanOrEqual(4);
    expect(
      wishlist.items.every((i: { availableListings: number }) => i.availableListings > 0),
    ).toBe(true);
  }, 90_000);
});
