import { beforeAll, beforeEach } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { adsClient, testClock } from '../../test/ads';

export const clock = testClock('2026-03-10T10:00:00Z');
export let t: TestApp;
export let ada: Member; // the author
export let bruno: Member; // a reader
export let carla: Member; // another reader
export let api: ReturnType<typeof adsClient>;

export const totals = async (id: string, timeframe = '30d') =>
  (await api.analytics(ada, id, timeframe)).totals;
export const storedEvents = async (id: string) =>
  t.database.query<Record<string, unknown>>(
    'select kind, day::text as day, viewer_hash, placement, device, user_agent, referrer from ad_events where ad_id = $1 order by id',
    [id],
  );

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
  beforeAll(async () => {
    // A cost per click of 0.25 (ADS_COST_PER_CLICK) keeps the sums exact in binary too.
    t = await createTestApp({
      deps: { now: clock.now },
      config: { adsCostPerClick: 0.25, adsServingCacheMs: 0 },
    });
    api = adsClient(t, clock.now);
    [ada, bruno, carla] = await Promise.all([
      createMember(t, { username: 'ada_ev', displayName: 'Ada' }),
      createMember(t, { username: 'bruno_ev', displayName: 'Bruno' }),
      createMember(t, { username: 'carla_ev', displayName: 'Carla' }),
    ]);
  });

  beforeEach(async () => {
    clock.set('2026-03-10T10:00:00Z');
    await t.database.query('delete from book_advertisements');
  });
}
