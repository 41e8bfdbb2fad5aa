import { beforeAll, beforeEach } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, type Member } from '../../test/members';
import { caller, createBook } from './test-support';

export let t: TestApp;
export let call: ReturnType<typeof caller>;
export let anna: Member;
export let bruno: Member;
export let carla: Member;
export let calvino: string;
export let eco: string;

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

export const postCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from community_posts'))[0].n;
