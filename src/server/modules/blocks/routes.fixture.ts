import { beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { befriend as befriendMembers, type Member } from '../../test/members';
import { caller } from '../../test/community';

export let t: TestApp;
export let call: ReturnType<typeof caller>;

export const block = (who: Member | null, other: Member | { id: string }, lang = 'en') =>
  call(who, 'PUT', `/api/blocks/${other.id}`, undefined, lang);
export const unblock = (who: Member | null, other: Member) =>
  call(who, 'DELETE', `/api/blocks/${other.id}`);

export const befriend = (a: Member, b: Member) => befriendMembers(t, a, b);

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
  beforeAll(async () => {
    t = await createTestApp({ config: { adsServingCacheMs: 0 } });
    call = caller(t);
  }, 120_000);
}
