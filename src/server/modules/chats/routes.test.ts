import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app';
import { befriend, createMember, type Member } from '../../test/members';
import { createListing } from '../../test/listings';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

let t: TestApp, req: Requester;
let ada: Member, bea: Member, cleo: Member, dino: Member, outsider: Member;

beforeAll(async () => {
  ({ t, req, ada, bea, cleo, dino, outsider } = await appWithMembers({
    ada: { username: 'ada_chat', displayName: 'Ada Lovelace' },
    bea: { username: 'bea_chat', displayName: 'Bea Bianchi' },
    cleo: { username: 'cleo_chat', displayName: 'Cleo Conti' },
    dino: { username: 'dino_chat', displayName: 'Dino Dini' },
    outsider: { username: 'outsider', displayName: 'Otto Outsider' },
  }));
}, SIGN_UP_TIMEOUT);

async function directRoom(a: Member, b: Member): Promise<string> {
  const res = await req('POST', '/api/chats/direct', a, { userId: b.id });
  expect([200, 201], res.body).toContain(res.statusCode);
  return res.json().room.id;
}

async function send(who: Member, roomId: string, content: string) {
  const res = await req('POST', `/api/chats/rooms/${roomId}/messages`, who, { content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().message;
}

const count = async (sql: string, params: unknown[] = []) =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params))[0].n;

describe('visitors', () => {
  it('get 401 on every chats route', async () => {
    const room = '00000000-0000-4000-8000-000000000000';
    const routes: Array<[Parameters<typeof req>[0], string, unknown?]> = [
      ['GET', '/api/chats/rooms'],
      ['GET', '/api/chats/unread'],
      ['GET', `/api/chats/rooms/${room}`],
      ['POST', '/api/chats/direct', { userId: 'x' }],
      ['POST', '/api/chats/rooms', { name: 'g', participantIds: ['a', 'b'] }],
      ['DELETE', `/api/chats/rooms/${room}/participants/me`],
      ['GET', `/api/chats/rooms/${room}/messages`],
      ['POST', `/api/chats/rooms/${room}/messages`, { content: 'hi' }],
      ['PATCH', `/api/chats/rooms/${room}/messages/${room}`, { content: 'hi' }],
      ['DELETE', `/api/chats/rooms/${room}/messages/${room}`],
      ['POST', `/api/chats/rooms/${room}/read`],
      ['POST', '/api/chats/contact', { listingId: room, content: 'hi' }],
      ['POST', `/api/chats/rooms/${room}/offers`, { listingId: room, amount: 5 }],
      ['POST', `/api/chats/offers/${room}/accept`],
      ['POST', `/api/chats/offers/${room}/decline`],
      ['POST', `/api/chats/offers/${room}/withdraw`],
    ];
    for (const [method, url, payload] of routes) {
      const res = await req(method, url, undefined, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({
        error: { code: 'unauthorized', message: 'Unauthorized. Please login.' },
      });
    }
  });

  it('finds every route documented in the OpenAPI document', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    for (const path of [
      '/api/chats/rooms',
      '/api/chats/unread',
      '/api/chats/rooms/{roomId}',
      '/api/chats/direct',
      '/api/chats/rooms/{roomId}/participants/me',
      '/api/chats/rooms/{roomId}/messages',
      '/api/chats/rooms/{roomId}/messages/{messageId}',
      '/api/chats/rooms/{roomId}/read',
      '/api/chats/contact',
      '/api/chats/rooms/{roomId}/offers',
      '/api/chats/offers/{offerId}/accept',
    ])
      expect(doc.paths[path], path).toBeDefined();
    expect(Object.keys(doc.paths['/api/chats/rooms/{roomId}/messages'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403']),
    );
  });
});

describe('direct rooms', () => {
  it('creates the one direct room of a pair, then finds it again from either side', async () => {
    const first = await req('POST', '/api/chats/direct', ada, { userId: bea.id });
    expect(first.statusCode).toBe(201);
    const room = first.json().room;
    expect(room).toMatchObject({
      isGroup: false,
      name: null,
      createdBy: ada.id,
      unreadCount: 0,
      lastMessage: null,
      listing: null,
    });
    expect(room.participants.map((p: { id: string }) => p.id).sort()).toEqual(
      [ada.id, bea.id].sort(),
    );
    expect(room.participants.find((p: { id: string }) => p.id === bea.id)).toEqual({
      id: bea.id,
      displayName: 'Bea Bianchi',
      username: 'bea_chat',
      avatarUrl: null,
      online: false,
      lastSeenAt: null,
    });
    const again = await req('POST', '/api/chats/direct', bea, { userId: ada.id });
    expect(again.statusCode).toBe(200);
    expect(again.json().room.id).toBe(room.id);
  });

  it('two simultaneous first messages from both sides make one room (a database constraint)', async () => {
    const listing = await createListing(t, dino, { title: 'Se una notte d’inverno' });
    const [one, two, three] = await Promise.all([
      req('POST', '/api/chats/direct', cleo, { userId: dino.id }),
      req('POST', '/api/chats/direct', dino, { userId: cleo.id }),
      req('POST', '/api/chats/contact', cleo, { listingId: listing.id, content: 'Ciao!' }),
    ]);
    expect(one.statusCode, one.body).toBeLessThan(300);
    expect(two.statusCode, two.body).toBeLessThan(300);
    expect(three.statusCode, three.body).toBe(201);
    expect(two.json().room.id).toBe(one.json().room.id);
    expect(three.json().roomId).toBe(one.json().room.id);
    const key = [cleo.id, dino.id].sort().join(':');
    expect(await count('chat_rooms where direct_key = $1', [key])).toBe(1);
    expect(await count('chat_participants where room_id = $1', [one.json().room.id])).toBe(2);
  });

  it('refuses oneself (400) and an unknown member (404), in both languages', async () => {
    const self = await req('POST', '/api/chats/direct', ada, { userId: ada.id });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe('You cannot start a chat with yourself');
    const selfIt = await req('POST', '/api/chats/direct', ada, { userId: ada.id }, 'it');
    expect(selfIt.json().error.message).toBe('Non puoi avviare una chat con te stesso');
    const nobody = await req('POST', '/api/chats/direct', ada, { userId: 'no-such-user' });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().error.message).toBe('Member not found');
    const missing = await req('POST', '/api/chats/direct', ada, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toEqual({ userId: 'Choose a member to write to' });
  });
});

describe('messages', () => {
  let room: string;
  beforeAll(async () => {
    room = await directRoom(ada, bea);
  });

  it('are trimmed and answered with their sender', async () => {
    const message = await send(ada, room, '  Ciao Bea!\n ');
    expect(message).toMatchObject({
      roomId: room,
      senderId: ada.id,
      sender: { id: ada.id, displayName: 'Ada Lovelace', username: 'ada_chat' },
      content: 'Ciao Bea!',
      type: 'text',
      editedAt: null,
      deleted: false,
    });
    expect(message.listing).toBeUndefined();
  });

  it('refuses empty, blank and over-long messages in English and Italian', async () => {
    const cases: Array<[unknown, string, string]> = [
      ['', 'Write a message before sending', 'Scrivi un messaggio prima di inviarlo'],
      ['  \n\t ', 'Write a message before sending', 'Scrivi un messaggio prima di inviarlo'],
      [undefined, 'Write a message before sending', 'Scrivi un messaggio prima di inviarlo'],
      [
        'x'.repeat(4001),
        'A message can be at most 4000 characters long',
        'Un messaggio può avere al massimo 4000 caratteri',
      ],
    ];
    const before = await count('chat_messages where room_id = $1', [room]);
    for (const [content, en, it_] of cases) {
      for (const [lang, text] of [
        ['en', en],
        ['it', it_],
      ]) {
        const res = await req('POST', `/api/chats/rooms/${room}/messages`, ada, { content }, lang);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields).toEqual({ content: text });
      }
    }
    expect(await count('chat_messages where room_id = $1', [room])).toBe(before);
    const longest = await send(ada, room, `  ${'y'.repeat(4000)}  `);
    expect(longest.content).toHaveLength(4000);
  });

  it('can be edited and deleted by their sender only', async () => {
    const message = await send(bea, room, 'Prima versione');
    const url = `/api/chats/rooms/${room}/messages/${message.id}`;
    const notMine = await req('PATCH', url, ada, { content: 'Hacked' });
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().error.message).toBe('You can only change your own messages');
    const notMineDelete = await req('DELETE', url, ada);
    expect(notMineDelete.statusCode).toBe(403);
    expect((await req('PATCH', url, undefined, { content: 'Anon' })).statusCode).toBe(401);
    const unchanged = (await req('GET', `/api/chats/rooms/${room}/messages`, bea)).json();
    expect(unchanged.items.find((m: { id: string }) => m.id === message.id)).toMatchObject({
      content: 'Prima versione',
      editedAt: null,
    });

    const edited = await req('PATCH', url, bea, { content: ' Seconda versione ' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().message).toMatchObject({ content: 'Seconda versione', deleted: false });
    expect(edited.json().message.editedAt).not.toBeNull();

    expect((await req('DELETE', url, bea)).statusCode).toBe(204);
    const page = (await req('GET', `/api/chats/rooms/${room}/messages`, ada)).json();
    const gone = page.items.find((m: { id: string }) => m.id === message.id);
    expect(gone).toMatchObject({ content: '', deleted: true });
    expect((await req('PATCH', url, bea, { content: 'again' })).statusCode).toBe(404);
  });
});

describe('a member who is not a participant', () => {
  it('gets the same 403 for every room action, for a real room and a missing one, and changes nothing', async () => {
    const room = await directRoom(ada, cleo);
    const message = await send(ada, room, 'Solo per Cleo');
    const listing = await createListing(t, ada, { title: 'Lezioni americane' });
    const snapshot = async () =>
      t.database.query(
        `select (select count(*)::int from chat_messages where room_id = $1) as messages,
                (select count(*)::int from chat_participants where room_id = $1) as people,
                (select count(*)::int from offers) as offers,
                (select json_agg(last_read_at order by user_id) from chat_participants where room_id = $1) as marks,
                (select content from chat_messages where id = $2) as content`,
        [room, message.id],
      );
    const before = await snapshot();
    const missing = '11111111-1111-4111-8111-111111111111';
    for (const id of [room, missing, 'not-a-uuid']) {
      const attempts: Array<[Parameters<typeof req>[0], string, unknown?]> = [
        ['GET', `/api/chats/rooms/${id}`],
        ['GET', `/api/chats/rooms/${id}/messages`],
        ['GET', `/api/chats/rooms/${id}/messages?after=${message.id}`],
        ['POST', `/api/chats/rooms/${id}/messages`, { content: 'intrusion' }],
        ['POST', `/api/chats/rooms/${id}/read`],
        ['DELETE', `/api/chats/rooms/${id}/participants/me`],
        ['PATCH', `/api/chats/rooms/${id}/messages/${message.id}`, { content: 'x' }],
        ['DELETE', `/api/chats/rooms/${id}/messages/${message.id}`],
        ['POST', `/api/chats/rooms/${id}/offers`, { listingId: listing.id, amount: 5 }],
      ];
      for (const [method, url, payload] of attempts) {
        const res = await req(method, url, outsider, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ error: { code: 'forbidden', message: 'Access denied' } });
      }
    }
    expect(await snapshot()).toEqual(before);
    const rooms = (await req('GET', '/api/chats/rooms', outsider)).json();
    expect(rooms.total).toBe(0);
  });
});

describe('pages of messages', () => {
  it('answers 50 at a time before a message, and catches up after one, in creation order', async () => {
    const room = await directRoom(bea, dino);
    // 120 messages, two of them at the very same instant (then ordered by id).
    await t.database.query(
      `insert into chat_messages (room_id, sender_id, content, created_at)
       select $1, case when n % 2 = 0 then $2 else $3 end, 'm' || n,
         timestamptz '2026-01-01T10:00:00Z' + (least(n, 119) || ' seconds')::interval
       from generate_series(1, 120) n`,
      [room, bea.id, dino.id],
    );
    const all = (
      await t.database.query<{ id: string }>(
        'select id from chat_messages where room_id = $1 order by created_at, id',
        [room],
      )
    ).map((r) => r.id);
    const url = `/api/chats/rooms/${room}/messages`;
    const latest = (await req('GET', url, bea)).json();
    expect(latest.items).toHaveLength(50);
    expect(latest.hasMore).toBe(true);
    expect(latest.items.map((m: { id: string }) => m.id)).toEqual(all.slice(70));
    const middle = (await req('GET', `${url}?before=${latest.items[0].id}`, dino)).json();
    expect(middle.items.map((m: { id: string }) => m.id)).toEqual(all.slice(20, 70));
    expect(middle.hasMore).toBe(true);
    const oldest = (await req('GET', `${url}?before=${middle.items[0].id}`, dino)).json();
    expect(oldest.items.map((m: { id: string }) => m.id)).toEqual(all.slice(0, 20));
    expect(oldest.hasMore).toBe(false);

    const after = (await req('GET', `${url}?after=${all[9]}`, bea)).json();
    expect(after.items.map((m: { id: string }) => m.id)).toEqual(all.slice(10));
    expect(after.hasMore).toBe(false);
    const small = (await req('GET', `${url}?limit=5`, bea)).json();
    expect(small.items.map((m: { id: string }) => m.id)).toEqual(all.slice(115));
    const bad = await req('GET', `${url}?limit=500`, bea);
    expect(bad.statusCode).toBe(400);
  });
});

describe('room list and unread counts', () => {
  it('sorts by last activity and counts messages from others after my read mark', async () => {
    const fresh = await createMember(t, { displayName: 'Fresh Reader' });
    const withAda = await directRoom(fresh, ada);
    const withBea = await directRoom(fresh, bea);
    await send(ada, withAda, 'uno');
    await send(ada, withAda, 'due');
    await send(bea, withBea, 'tre');
    await send(fresh, withBea, 'mia risposta');

    let list = (await req('GET', '/api/chats/rooms', fresh)).json();
    expect(list.total).toBe(2);
    expect(list.items.map((r: { id: string }) => r.id)).toEqual([withBea, withAda]);
    expect(list.items[0].lastMessage).toMatchObject({ content: 'mia risposta' });
    expect(list.items.map((r: { unreadCount: number }) => r.unreadCount)).toEqual([1, 2]);
    expect((await req('GET', '/api/chats/unread', fresh)).json()).toEqual({ total: 3 });

    await send(ada, withAda, 'tre, di nuovo');
    list = (await req('GET', '/api/chats/rooms?pageSize=1', fresh)).json();
    expect(list).toMatchObject({ page: 1, pageSize: 1, total: 2 });
    expect(list.items[0]).toMatchObject({ id: withAda, unreadCount: 3 });

    expect((await req('POST', `/api/chats/rooms/${withAda}/read`, fresh)).statusCode).toBe(204);
    expect((await req('GET', '/api/chats/unread', fresh)).json()).toEqual({ total: 1 });
    const room = (await req('GET', `/api/chats/rooms/${withAda}`, fresh)).json();
    expect(room.unreadCount).toBe(0);
    await send(ada, withAda, 'ancora');
    expect((await req('GET', `/api/chats/rooms/${withAda}`, fresh)).json().unreadCount).toBe(1);
    // Ada's own messages are never unread for her.
    expect((await req('GET', `/api/chats/rooms/${withAda}`, ada)).json().unreadCount).toBe(0);
  });
});

describe('group rooms', () => {
  beforeAll(async () => {
    await befriend(t, ada, bea, cleo, dino);
  });

  it('are created with their participants in one go, creator included, deduplicated', async () => {
    const res = await req('POST', '/api/chats/rooms', ada, {
      name: '  Club del giallo ',
      participantIds: [bea.id, cleo.id, bea.id, ada.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const room = res.json().room;
    expect(room).toMatchObject({ name: 'Club del giallo', isGroup: true, createdBy: ada.id });
    expect(room.participants.map((p: { id: string }) => p.id).sort()).toEqual(
      [ada.id, bea.id, cleo.id].sort(),
    );
    expect((await req('GET', `/api/chats/rooms/${room.id}`, cleo)).statusCode).toBe(200);
  });

  it('need a name and at least two other members who exist', async () => {
    const before = await count('chat_rooms');
    const cases: Array<[object, string, string, string]> = [
      [
        { name: ' ', participantIds: [bea.id, cleo.id] },
        'name',
        'Give the group a name',
        'Dai un nome al gruppo',
      ],
      [
        { name: 'Duo', participantIds: [bea.id, ada.id] },
        'participantIds',
        'Choose at least two friends for a group',
        'Scegli almeno due amici per un gruppo',
      ],
      [
        { name: 'Ghosts', participantIds: [bea.id, 'ghost-id'] },
        'participantIds',
        'Member not found',
        'Utente non trovato',
      ],
    ];
    for (const [body, field, en, it_] of cases) {
      const res = await req('POST', '/api/chats/rooms', ada, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields[field]).toBe(en);
      const resIt = await req('POST', '/api/chats/rooms', ada, body, 'it');
      expect(resIt.json().error.fields[field]).toBe(it_);
    }
    expect(await count('chat_rooms')).toBe(before);
  });

  it('are for friends only', async () => {
    const res = await req('POST', '/api/chats/rooms', ada, {
      name: 'Estranei',
      participantIds: [bea.id, outsider.id],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      participantIds: 'You can only add friends to a group',
    });
    const resIt = await req(
      'POST',
      '/api/chats/rooms',
      ada,
      { name: 'Estranei', participantIds: [bea.id, outsider.id] },
      'it',
    );
    expect(resIt.json().error.fields.participantIds).toBe(
      'Puoi aggiungere a un gruppo solo i tuoi amici',
    );
    // A pending request is not a friendship.
    await t.database.query(
      "insert into connections (requester_id, addressee_id, status) values ($1, $2, 'pending')",
      [ada.id, outsider.id],
    );
    const pending = await req('POST', '/api/chats/rooms', ada, {
      name: 'Estranei',
      participantIds: [bea.id, outsider.id],
    });
    expect(pending.statusCode).toBe(400);
  });

  it('can be left: the member is gone, the others see "left", and the room is closed to them', async () => {
    const room = (
      await req('POST', '/api/chats/rooms', ada, {
        name: 'Lettori',
        participantIds: [bea.id, dino.id],
      })
    ).json().room.id;
    await send(dino, room, 'Ciao a tutti');
    expect((await req('DELETE', `/api/chats/rooms/${room}/participants/me`, dino)).statusCode).toBe(
      204,
    );
    const rooms = (await req('GET', '/api/chats/rooms', dino)).json();
    expect(rooms.items.map((r: { id: string }) => r.id)).not.toContain(room);
    expect((await req('GET', `/api/chats/rooms/${room}/messages`, dino)).statusCode).toBe(403);
    const seen = (await req('GET', `/api/chats/rooms/${room}/messages`, ada)).json().items;
    expect(seen.at(-1)).toMatchObject({ type: 'system', content: 'left', senderId: dino.id });
    const people = (await req('GET', `/api/chats/rooms/${room}`, ada)).json().participants;
    expect(people.map((p: { id: string }) => p.id).sort()).toEqual([ada.id, bea.id].sort());
    // Leaving twice is like never having been there.
    expect((await req('DELETE', `/api/chats/rooms/${room}/participants/me`, dino)).statusCode).toBe(
      403,
    );
  });
});
