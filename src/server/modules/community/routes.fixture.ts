import { beforeAll, beforeEach } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { caller, createBook } from '../../test/community';

export let t: TestApp;
export let call: ReturnType<typeof caller>;
export let anna: Member;
export let bruno: Member;
export let carla: Member;
export let calvino: string;
export let eco: string;

export const postCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from community_posts'))[0].n;

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
  beforeAll(async () => {
    t = await createTestApp();
    call = caller(t);
    [anna, bruno, carla] = await Promise.all([
      createMember(t, { username: 'anna_c', displayName: 'Anna Conti' }),
      createMember(t, { username: 'bruno_b', displayName: 'Bruno Bianchi' }),
      createMember(t, { username: 'carla_c', displayName: 'Carla Càrdone' }),
    ]);
    calvino = await createBook(t, 'Il barone rampante', 'Italo Calvino');
    eco = await createBook(t, 'Il nome della rosa', 'Umberto Eco');
  });

  beforeEach(async () => {
    await t.database.query('delete from community_posts');
    await t.database.query('delete from connections');
  });
}
