import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../../test/members';
import { t, call, block, unblock, useFixture } from './routes.fixture';

useFixture();

describe('the blocks API', () => {
  let ann: Member;
  let bob: Member;
  let cat: Member;
  beforeAll(async () => {
    ann = await createMember(t, { displayName: 'Ann Blocker' });
    bob = await createMember(t, { displayName: 'Bob Blocked', username: 'bob_blocked' });
    cat = await createMember(t, { displayName: 'Cat Bystander' });
  });

  it('answers 401 to visitors on every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/blocks'],
      ['GET', `/api/blocks/${bob.id}`],
      ['PUT', `/api/blocks/${bob.id}`],
      ['DELETE', `/api/blocks/${bob.id}`],
    ] as const) {
      const res = await call(null, method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error.message).toBe('Unauthorized. Please login.');
    }
    const [row] = await t.database.query<{ n: number }>('select count(*)::int as n from blocks');
    expect(row.n).toBe(0);
  });

  it('refuses blocking oneself (400, in the member language) and an unknown member (404)', async () => {
    const self = await block(ann, ann, 'it');
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe('Non puoi bloccare te stesso.');
    const selfEn = await block(ann, ann);
    expect(selfEn.json().error.message).toBe("You can't block yourself.");
    const unknown = await block(ann, { id: 'nobody-at-all' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Member not found.');
  });

  it('blocks once however often asked, lists and reports the state, and unblocks', async () => {
    const first = await block(ann, bob);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ userId: bob.id, blocked: true });
    const again = await block(ann, bob);
    expect(again.statusCode).toBe(200);
    const [row] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from blocks where blocker_id = $1',
      [ann.id],
    );
    expect(row.n).toBe(1);

    const list = await call(ann, 'GET', '/api/blocks');
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('private, no-store');
    expect(list.json()).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(list.json().items[0].member).toMatchObject({
      id: bob.id,
      displayName: 'Bob Blocked',
      username: 'bob_blocked',
    });
    // Another member's list and state know nothing of Ann's block.
    expect((await call(cat, 'GET', '/api/blocks')).json().total).toBe(0);
    expect((await call(ann, 'GET', `/api/blocks/${bob.id}`)).json().blocked).toBe(true);
    // Silent: the blocked member cannot learn it from the state route.
    expect((await call(bob, 'GET', `/api/blocks/${ann.id}`)).json().blocked).toBe(false);
    // Bob's unblock of Ann (whom he never blocked) changes nothing of Ann's block.
    expect((await unblock(bob, ann)).statusCode).toBe(200);
    expect((await call(ann, 'GET', `/api/blocks/${bob.id}`)).json().blocked).toBe(true);

    const gone = await unblock(ann, bob);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ userId: bob.id, blocked: false });
    expect((await call(ann, 'GET', '/api/blocks')).json().total).toBe(0);
    expect((await unblock(ann, bob)).statusCode).toBe(200);
  });

  it('pages the list, most recent first, and refuses a bad page', async () => {
    const me = await createMember(t);
    // Members made in SQL (signing 21 people up would take most of the test's time).
    const others = await t.database.query<{ id: string }>(
      `insert into users (id, email, display_name)
       select 'paged-' || g, 'paged-' || g || '@example.com', 'Paged ' || g
       from generate_series(1, 21) g returning id`,
    );
    for (const o of others) {
      await t.database.query(
        `insert into blocks (blocker_id, blocked_id, created_at)
         values ($1, $2, now() - make_interval(mins => $3))`,
        [me.id, o.id, 100 - others.indexOf(o)],
      );
    }
    const p1 = (await call(me, 'GET', '/api/blocks')).json();
    expect(p1.total).toBe(21);
    expect(p1.items).toHaveLength(20);
    expect(p1.items[0].member.id).toBe(others[20].id);
    const p2 = (await call(me, 'GET', '/api/blocks?page=2')).json();
    expect(p2.items.map((i: { member: { id: string } }) => i.member.id)).toEqual([others[0].id]);
    expect((await call(me, 'GET', '/api/blocks?page=0')).statusCode).toBe(400);
  });

  it('is silent: the blocked member gets no notification and no e-mail', async () => {
    const a = await createMember(t);
    const b = await createMember(t);
    const before = await t.database.query<{ n: number }>(
      `select (select count(*) from notifications where recipient_id = $1)
         + (select count(*) from mail_outbox where "to" = $2) as n`,
      [b.id, b.email],
    );
    expect((await block(a, b)).statusCode).toBe(200);
    const after = await t.database.query<{ n: number }>(
      `select (select count(*) from notifications where recipient_id = $1)
         + (select count(*) from mail_outbox where "to" = $2) as n`,
      [b.id, b.email],
    );
    expect(Number(after[0].n)).toBe(Number(before[0].n));
  });
});
