import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { callAs, createMember, type Member } from '../../test/members';
import { recordUserPushes } from '../../test/notifications';

// What is pushed to members; the notification centre's own pushes are tested in its tests.
const { realtime: recordingRealtime, pushed: delivered } = recordUserPushes(
  (event) => !event.type.startsWith('notification.'),
);

let t: TestApp;
let ada: Member;
let bruno: Member;
let carla: Member;
let dario: Member;

beforeAll(async () => {
  t = await createTestApp({ deps: { realtime: recordingRealtime } });
  [ada, bruno, carla, dario] = await Promise.all([
    createMember(t, { username: 'ada_reads', displayName: 'Ada Lovelace' }),
    createMember(t, { username: 'bruno_b', displayName: 'Bruno Bianchi' }),
    createMember(t, { username: 'carla_c', displayName: 'Carla Càrdone' }),
    createMember(t, { username: 'dario_d', displayName: 'Dario Doni' }),
  ]);
});

beforeEach(async () => {
  await t.database.query('delete from connections');
  await t.database.query('delete from transactions');
  delivered.length = 0;
});

const call = callAs(() => t);
const send = (from: Member, to: Member | string) =>
  call(from, 'POST', '/api/connections', { userId: typeof to === 'string' ? to : to.id });
const rowCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from connections'))[0].n;
const statusOf = async (me: Member, other: Member) =>
  (await call(me, 'GET', `/api/connections/status/${other.id}`)).json();
const friendsOf = async (me: Member) => (await call(me, 'GET', '/api/connections')).json();

async function befriend(a: Member, b: Member): Promise<string> {
  const sent = await send(a, b);
  expect(sent.statusCode).toBe(201);
  const accepted = await call(b, 'POST', `/api/connections/${sent.json().id}/accept`);
  expect(accepted.statusCode).toBe(200);
  return sent.json().id;
}

describe('sending a friend request', () => {
  it('creates a pending request both members see, from each side', async () => {
    const res = await send(ada, bruno);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      requesterId: ada.id,
      addresseeId: bruno.id,
      status: 'pending',
    });
    const id = res.json().id;
    expect(await statusOf(ada, bruno)).toEqual({ state: 'pending-outgoing', connectionId: id });
    expect(await statusOf(bruno, ada)).toEqual({ state: 'pending-incoming', connectionId: id });
    expect(await statusOf(ada, carla)).toEqual({ state: 'none', connectionId: null });

    const adaRequests = (await call(ada, 'GET', '/api/connections/requests')).json();
    expect(adaRequests.incoming.items).toEqual([]);
    expect(adaRequests.outgoing).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(adaRequests.outgoing.items[0]).toMatchObject({
      connectionId: id,
      member: { id: bruno.id, displayName: 'Bruno Bianchi', username: 'bruno_b' },
    });
    const brunoRequests = (await call(bruno, 'GET', '/api/connections/requests')).json();
    expect(brunoRequests.outgoing.items).toEqual([]);
    expect(brunoRequests.incoming.items[0]).toMatchObject({
      connectionId: id,
      member: { id: ada.id, displayName: 'Ada Lovelace' },
    });
    // Not friends yet.
    expect((await friendsOf(ada)).items).toEqual([]);
    expect(delivered).toEqual([
      { userIds: [ada.id, bruno.id], event: { type: 'connection.changed', connectionId: id } },
    ]);
  });

  it("refuses a second request in either direction with 409 'Connection already exists'", async () => {
    expect((await send(ada, bruno)).statusCode).toBe(201);
    const again = await send(ada, bruno);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({
      code: 'conflict',
      message: 'Connection already exists',
    });
    const back = await call(bruno, 'POST', '/api/connections', { userId: ada.id }, 'it');
    expect(back.statusCode).toBe(409);
    expect(back.json().error.message).toBe('Il collegamento esiste già');
    expect(await rowCount()).toBe(1);
  });

  it('refuses a request to friends already accepted, either direction', async () => {
    await befriend(ada, bruno);
    expect((await send(ada, bruno)).statusCode).toBe(409);
    expect((await send(bruno, ada)).statusCode).toBe(409);
    expect(await rowCount()).toBe(1);
  });

  it('lets exactly one of two simultaneous opposite requests through (201 and 409, never 500)', async () => {
    for (let round = 0; round < 5; round++) {
      await t.database.query('delete from connections');
      const answers = await Promise.all([send(ada, bruno), send(bruno, ada)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
      expect(await rowCount()).toBe(1);
    }
  });

  it('refuses oneself (400), unknown members (404), a missing id (400) and visitors (401)', async () => {
    const self = await send(ada, ada);
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe('You cannot send a friend request to yourself.');
    const unknown = await send(ada, 'nobody-here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('This member does not exist.');
    const empty = await call(ada, 'POST', '/api/connections', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ userId: 'Choose a member.' });
    const visitor = await call(null, 'POST', '/api/connections', { userId: bruno.id });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().error.message).toBe('Unauthorized. Please login.');
    expect(await rowCount()).toBe(0);
  });
});

describe('answering a request', () => {
  it('the addressee accepts: both list each other as friends', async () => {
    const id = (await send(ada, bruno)).json().id;
    delivered.length = 0;
    const res = await call(bruno, 'POST', `/api/connections/${id}/accept`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'accepted' });
    expect(await statusOf(ada, bruno)).toEqual({ state: 'accepted', connectionId: id });
    expect(await statusOf(bruno, ada)).toEqual({ state: 'accepted', connectionId: id });
    const adaFriends = await friendsOf(ada);
    expect(adaFriends).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(adaFriends.items[0]).toMatchObject({
      connectionId: id,
      member: { id: bruno.id, displayName: 'Bruno Bianchi', username: 'bruno_b' },
      booksExchanged: 0,
      reactions: 0,
      interactions: 0,
    });
    expect((await friendsOf(bruno)).items[0].member.id).toBe(ada.id);
    expect((await call(bruno, 'GET', '/api/connections/requests')).json().incoming.total).toBe(0);
    expect(delivered).toHaveLength(1);
    expect(delivered[0].userIds).toEqual([ada.id, bruno.id]);
  });

  it('the requester cannot accept or decline their own request (403), others get 404; nothing changes', async () => {
    const id = (await send(ada, bruno)).json().id;
    for (const action of ['accept', 'decline']) {
      const own = await call(ada, 'POST', `/api/connections/${id}/${action}`);
      expect(own.statusCode).toBe(403);
      expect(own.json().error.message).toBe(
        'Only the member who received the request can answer it.',
      );
      const stranger = await call(carla, 'POST', `/api/connections/${id}/${action}`);
      expect(stranger.statusCode).toBe(404);
      expect(stranger.json().error.message).toBe('Friend request not found.');
      expect((await call(null, 'POST', `/api/connections/${id}/${action}`)).statusCode).toBe(401);
    }
    expect(await statusOf(bruno, ada)).toEqual({ state: 'pending-incoming', connectionId: id });
    expect(await rowCount()).toBe(1);
  });

  it('the addressee declines: the request is gone (pending to none) and can be sent again', async () => {
    const id = (await send(ada, bruno)).json().id;
    const res = await call(bruno, 'POST', `/api/connections/${id}/decline`);
    expect(res.statusCode).toBe(204);
    expect(await rowCount()).toBe(0);
    expect(await statusOf(ada, bruno)).toEqual({ state: 'none', connectionId: null });
    expect((await send(bruno, ada)).statusCode).toBe(201);
  });

  it('an accepted friendship cannot be accepted or declined again (409)', async () => {
    const id = await befriend(ada, bruno);
    expect((await call(bruno, 'POST', `/api/connections/${id}/accept`)).statusCode).toBe(409);
    const decline = await call(bruno, 'POST', `/api/connections/${id}/decline`);
    expect(decline.statusCode).toBe(409);
    expect(decline.json().error.message).toBe('You are already friends.');
    expect(await statusOf(ada, bruno)).toMatchObject({ state: 'accepted' });
  });

  it('unknown and malformed ids answer 404, never 500', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1'; drop"]) {
      expect((await call(ada, 'POST', `/api/connections/${id}/accept`)).statusCode).toBe(404);
      expect(
        (await call(ada, 'DELETE', `/api/connections/${encodeURIComponent(id)}`)).statusCode,
      ).toBe(404);
    }
  });
});

describe('cancelling and removing', () => {
  it('the requester cancels a pending request; the addressee (403) and others (404) cannot', async () => {
    const id = (await send(ada, bruno)).json().id;
    const byAddressee = await call(bruno, 'DELETE', `/api/connections/${id}`);
    expect(byAddressee.statusCode).toBe(403);
    expect(byAddressee.json().error.message).toBe(
      'Only the member who sent the request can cancel it.',
    );
    expect((await call(carla, 'DELETE', `/api/connections/${id}`)).statusCode).toBe(404);
    expect((await call(null, 'DELETE', `/api/connections/${id}`)).statusCode).toBe(401);
    expect(await rowCount()).toBe(1);
    expect((await call(ada, 'DELETE', `/api/connections/${id}`)).statusCode).toBe(204);
    expect(await rowCount()).toBe(0);
    expect(delivered.at(-1)).toEqual({
      userIds: [ada.id, bruno.id],
      event: { type: 'connection.changed', connectionId: id },
    });
  });

  it('either friend removes the friendship; a stranger cannot', async () => {
    for (const remover of [ada, bruno]) {
      await t.database.query('delete from connections');
      const id = await befriend(ada, bruno);
      expect((await call(carla, 'DELETE', `/api/connections/${id}`)).statusCode).toBe(404);
      expect(await rowCount()).toBe(1);
      expect((await call(remover, 'DELETE', `/api/connections/${id}`)).statusCode).toBe(204);
      expect((await friendsOf(ada)).items).toEqual([]);
      expect((await friendsOf(bruno)).items).toEqual([]);
      expect(await statusOf(bruno, ada)).toEqual({ state: 'none', connectionId: null });
    }
  });
});

describe('the friends list', () => {
  it('sorts by interactions: completed transactions between the two, either side', async () => {
    await befriend(ada, bruno);
    await befriend(carla, ada);
    await befriend(ada, dario);
    const tx = (buyer: Member, seller: Member, status = 'completed') =>
      t.database.query(
        `insert into transactions (buyer_id, seller_id, kind, status) values ($1, $2, 'sale', $3)`,
        [buyer.id, seller.id, status],
      );
    // Carla: two with Ada (one each way); Dario: one; Bruno: a cancelled one and one with Carla.
    await tx(ada, carla);
    await tx(carla, ada);
    await tx(dario, ada);
    await tx(bruno, ada, 'cancelled');
    await tx(bruno, carla);
    const list = await friendsOf(ada);
    expect(list.total).toBe(3);
    expect(
      list.items.map((f: { member: { id: string }; interactions: number }) => [
        f.member.id,
        f.interactions,
      ]),
    ).toEqual([
      [carla.id, 2],
      [dario.id, 1],
      [bruno.id, 0],
    ]);
    expect(list.items[0]).toMatchObject({ booksExchanged: 2, reactions: 0 });
    expect(list.items[0].member.memberSince).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(list.items[0].friendsSince).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await call(ada, 'GET', '/api/connections?page=2')).json()).toMatchObject({
      items: [],
      total: 3,
      page: 2,
    });
    expect((await call(ada, 'GET', '/api/connections?page=0')).statusCode).toBe(400);
    expect((await call(null, 'GET', '/api/connections')).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/connections/requests')).statusCode).toBe(401);
    expect((await call(null, 'GET', `/api/connections/status/${ada.id}`)).statusCode).toBe(401);
  });
});

describe('finding friends', () => {
  const search = (me: Member, q: string, lang = 'en') =>
    call(me, 'GET', `/api/connections/search?q=${encodeURIComponent(q)}`, undefined, lang);

  it('finds members by username or name, accents and case ignored, never oneself', async () => {
    const byUsername = (await search(ada, 'BRUNO_')).json();
    expect(byUsername.items.map((r: { member: { id: string } }) => r.member.id)).toEqual([
      bruno.id,
    ]);
    const byName = (await search(ada, 'cardone')).json();
    expect(byName.items[0].member).toMatchObject({ id: carla.id, displayName: 'Carla Càrdone' });
    const self = (await search(ada, 'ada')).json();
    expect(self.items.map((r: { member: { id: string } }) => r.member.id)).not.toContain(ada.id);
    // '_' and '%' are letters here, not wildcards.
    expect((await search(ada, '%%')).json().total).toBe(0);
  });

  it('shows how I stand with each result', async () => {
    const pending = (await send(ada, bruno)).json().id;
    const incoming = (await send(carla, ada)).json().id;
    const friends = await befriend(ada, dario);
    const state = async (m: Member) => {
      const results = (await search(ada, m.username!)).json();
      expect(results).toMatchObject({ page: 1, pageSize: 10, total: 1 });
      return results.items[0];
    };
    expect(await state(bruno)).toMatchObject({ state: 'pending-outgoing', connectionId: pending });
    expect(await state(carla)).toMatchObject({ state: 'pending-incoming', connectionId: incoming });
    expect(await state(dario)).toMatchObject({ state: 'accepted', connectionId: friends });
    await call(ada, 'DELETE', `/api/connections/${pending}`);
    expect(await state(bruno)).toMatchObject({ state: 'none', connectionId: null });
  });

  it('needs at least 2 characters, in the member’s language, and a session', async () => {
    const short = await search(ada, ' a ');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields).toEqual({ q: 'Type at least 2 characters.' });
    const it = await search(ada, 'a', 'it');
    expect(it.json().error.fields).toEqual({ q: 'Scrivi almeno 2 caratteri.' });
    expect((await call(null, 'GET', '/api/connections/search?q=bruno')).statusCode).toBe(401);
  });
});

describe('rate limits', () => {
  it('slows down a member who searches the directory in bulk (429)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++)
      statuses.push((await call(dario, 'GET', `/api/connections/search?q=zz${i}`)).statusCode);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    // Another member is not affected.
    expect((await call(carla, 'GET', '/api/connections/search?q=zz')).statusCode).toBe(200);
  }, 60_000);
});

describe('the API document', () => {
  it('lists every connections route with its error answers', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/connections',
        '/api/connections/requests',
        '/api/connections/search',
        '/api/connections/status/{userId}',
        '/api/connections/{id}/accept',
        '/api/connections/{id}/decline',
        '/api/connections/{id}',
      ]),
    );
    expect(Object.keys(doc.paths['/api/connections'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '404', '409']),
    );
    expect(Object.keys(doc.paths['/api/connections/{id}'].delete.responses)).toEqual(
      expect.arrayContaining(['204', '401', '403', '404']),
    );
  });
});
