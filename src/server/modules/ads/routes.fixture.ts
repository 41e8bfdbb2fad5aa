import { beforeAll, beforeEach } from 'vitest';
import { createStorage } from '../../platform/storage';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { adsClient, testClock } from '../../test/ads';

export const clock = testClock('2026-03-10T10:00:00Z');
export let t: TestApp;
export let ada: Member; // an author
export let bruno: Member; // another member
export let api: ReturnType<typeof adsClient>;

/** Storage that records what the app asks it to delete. */
export const deleted: string[] = [];
export const realStorage = createStorage({ rootDir: '/tmp/scaffale-test-data/uploads-ads' });
export const storage = {
  ...realStorage,
  async delete(url: string) {
    deleted.push(url);
    return true;
  },
};

export const { call } = {
  call: (...args: Parameters<ReturnType<typeof adsClient>['call']>) => api.call(...args),
};
export const adRow = async (id: string) =>
  (
    await t.database.query<Record<string, unknown>>(
      'select title, status, description from book_advertisements where id = $1',
      [id],
    )
  )[0];
export const adCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from book_advertisements'))[0]
    .n;

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
  beforeAll(async () => {
    t = await createTestApp({
      deps: { now: clock.now, storage },
      config: { adsServingCacheMs: 0 },
    });
    api = adsClient(t, clock.now);
    [ada, bruno] = await Promise.all([
      createMember(t, { username: 'ada_writes', displayName: 'Ada Autrice' }),
      createMember(t, { username: 'bruno_reads', displayName: 'Bruno Lettore' }),
    ]);
    await t.database.query(`update users set bio = 'Scrivo gialli.' where id = $1`, [ada.id]);
  });

  beforeEach(async () => {
    clock.set('2026-03-10T10:00:00Z');
    await t.database.query('delete from book_advertisements');
  });
}
