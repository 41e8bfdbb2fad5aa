import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';
import { demoAds } from './ads';

describe('seed:demo ads step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('adds ads with a month of events that analytics can show; a second run adds nothing', async () => {
    await runSeed({ config, database, log: quiet });
    const count = async () =>
      (
        await database.query<{ ads: number; events: number }>(
          `select (select count(*)::int from book_advertisements) as ads,
             (select count(*)::int from ad_events) as events`,
        )
      )[0];
    const first = await count();
    expect(first.ads).toBe(demoAds.length);
    expect(first.events).toBeGreaterThan(5000);
    await runSeed({ config, database, log: quiet });
    expect(await count()).toEqual(first);

    // Luca's ad: a month of figures, every counter agreeing with the events.
    const cookie = await signIn(testApp, 'luca.ferrari@example.org', DEMO_PASSWORD);
    const mine = (
      await inject({ method: 'GET', url: '/api/ads/mine', headers: { cookie } })
    ).json();
    expect(mine.items).toHaveLength(1);
    const ad = mine.items[0];
    expect(ad).toMatchObject({ status: 'active', running: true, reviewCount: 3 });
    const analytics = (
      await inject({
        method: 'GET',
        url: `/api/ads/${ad.id}/analytics?timeframe=30d`,
        headers: { cookie },
      })
    ).json();
    expect(analytics.series).toHaveLength(30);
    expect(analytics.series.filter((d: { impressions: number }) => d.impressions > 0)).toHaveLength(
      30,
    );
    expect(analytics.totals.clicks).toBeGreaterThan(0);
    expect(analytics.totals.clickRate).toBeGreaterThan(2);
    expect(analytics.totals.clickRate).toBeLessThan(8);
    expect(analytics.recent).toHaveLength(20);
    const [{ events }] = await database.query<{ events: number }>(
      `select count(*)::int as events from ad_events where ad_id = $1 and kind = 'impression'`,
      [ad.id],
    );
    expect(ad.viewCount).toBe(events);

    // Readers see the running ads in the promoted list and the slots (not the paused or draft one).
    const promoted = (await inject({ method: 'GET', url: '/api/ads' })).json();
    expect(promoted.total).toBe(3);
    const slot = (
      await inject({ method: 'GET', url: '/api/ads/slot?placement=library&genre=fantasy' })
    ).json();
    expect(slot.items[0].title).toBe('Le cronache di Valdombra');
  }, 120_000); // the whole seed, twice: a dozen password hashes, listings, a month of ad events
});
