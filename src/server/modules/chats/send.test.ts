import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { mustOpen, wait, type TestSocket } from '../../platform/realtime/testing';
import { storedKey } from '../../platform/rate-limits-store';
import { createMember, type Member } from '../../test/members';
import { CHAT_SENDS_PER_MINUTE, SOCKET_SEND_BURST } from './send';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

/**
 * Sending a message as a socket frame (chat.send), over real sockets: the sender's socket gets
 * chat.ack with the stored message or chat.nack with the HTTP route's refusal; the message is
 * stored and delivered once however often it is sent with the same client id, by frame or POST.
 */
let t: TestApp, req: Requester;
let ada: Member, bea: Member, cleo: Member;
let base: string;
let room: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  ({ t, req, ada, bea, cleo } = await appWithMembers({
    ada: { displayName: 'Ada Send' },
    bea: { displayName: 'Bea Send' },
    cleo: { displayName: 'Cleo Send' },
  }));
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  await req('PATCH', '/api/me', ada, { preferredLanguage: 'en' });
  await req('PATCH', '/api/me', cleo, { preferredLanguage: 'it' });
  room = (await req('POST', '/api/chats/direct', ada, { userId: bea.id })).json().room.id;
}, SIGN_UP_TIMEOUT);

afterAll(async () => {
  for (const s of sockets) s.ws.close();
  await Promise.all(sockets.map((s) => s.closed));
});

async function tab(member: Member) {
  const socket = await mustOpen(base, { cookie: member.cookie, origin: t.config.publicUrl });
  sockets.push(socket);
  return socket;
}

type Frame = Record<string, unknown>;
const INVALID_CHARACTERS =
  'This value contains a character that is not allowed (a NUL byte or an unpaired surrogate).';
const answerTo = (clientId: string) => (f: Frame) =>
  (f.type === 'chat.ack' || f.type === 'chat.nack') && f.clientId === clientId;
const messageIn = (roomId: string) => (f: Frame) =>
  f.type === 'chat.message' && f.roomId === roomId;

async function sendFrame(socket: TestSocket, frame: Frame) {
  socket.send({ type: 'chat.send', ...frame });
  return socket.next(answerTo(String(frame.clientId ?? '')), 5000);
}

const stored = (sender: Member, clientId: string) =>
  t.database.query<{ id: string; content: string }>(
    'select id, content from chat_messages where sender_id = $1 and client_id = $2',
    [sender.id, clientId],
  );
const messagesIn = async (roomId: string) =>
  (
    await t.database.query<{ n: number }>(
      'select count(*)::int as n from chat_messages where room_id = $1',
      [roomId],
    )
  )[0].n;

describe('chat.send frames', () => {
  it('store the message and answer chat.ack with it, as the HTTP route answers it', async () => {
    const [adaTab, beaTab] = [await tab(ada), await tab(bea)];
    const clientId = randomUUID();
    const ack = await sendFrame(adaTab, { clientId, roomId: room, content: '  Ciao Bea!  ' });
    expect(ack.type).toBe('chat.ack');
    const page = await req('GET', `/api/chats/rooms/${room}/messages`, bea);
    const last = page.json().items.at(-1);
    // The stored message, trimmed, in the very shape the route answers.
    expect(ack.message).toEqual(last);
    expect(last).toMatchObject({ content: 'Ciao Bea!', senderId: ada.id, roomId: room });
    expect(last.sender.displayName).toBe('Ada Send');
    expect(await beaTab.next(messageIn(room))).toEqual({
      type: 'chat.message',
      roomId: room,
      message: last,
    });
    // The room moved up Bea's list and counts one unread message.
    const rooms = (await req('GET', '/api/chats/rooms', bea)).json().items;
    expect(rooms[0]).toMatchObject({ id: room, unreadCount: 1 });
    expect(rooms[0].lastMessage.id).toBe(last.id);
  });

  it('store and deliver a message once however often the frame is sent again', async () => {
    const [adaTab, beaTab] = [await tab(ada), await tab(bea)];
    const clientId = randomUUID();
    const frame = { clientId, roomId: room, content: 'Una volta sola' };
    const first = await sendFrame(adaTab, frame);
    for (let i = 0; i < 4; i++) {
      const again = await sendFrame(adaTab, frame);
      expect(again).toEqual(first);
    }
    // Concurrent copies: two more tabs of Ada and the same id over HTTP, all at once.
    const [tab2, tab3] = [await tab(ada), await tab(ada)];
    const [a2, a3, post, header] = await Promise.all([
      sendFrame(tab2, frame),
      sendFrame(tab3, frame),
      req('POST', `/api/chats/rooms/${room}/messages`, ada, {
        content: 'Una volta sola',
        clientId,
      }),
      t.inject({
        method: 'POST',
        url: `/api/chats/rooms/${room}/messages`,
        headers: { cookie: ada.cookie, 'idempotency-key': clientId.toUpperCase() },
        payload: { content: 'Una volta sola' },
      }),
    ]);
    expect(a2).toEqual(first);
    expect(a3).toEqual(first);
    expect(post.statusCode, post.body).toBe(200);
    expect(post.json().message).toEqual(first.message);
    expect(header.statusCode, header.body).toBe(200);
    expect(header.json().message.id).toBe((first.message as { id: string }).id);
    expect(await stored(ada, clientId)).toHaveLength(1);
    await wait(300);
    const firstId = (first.message as { id: string }).id;
    const delivered = beaTab.frames.filter(
      (f) => f.type === 'chat.message' && (f.message as { id: string }).id === firstId,
    );
    expect(delivered).toHaveLength(1);
  });

  it('a POST first, then the frame with its id: the frame acks the stored message', async () => {
    const adaTab = await tab(ada);
    const clientId = randomUUID();
    const post = await req('POST', `/api/chats/rooms/${room}/messages`, ada, {
      content: 'Prima via HTTP',
      clientId,
    });
    expect(post.statusCode, post.body).toBe(201);
    const ack = await sendFrame(adaTab, { clientId, roomId: room, content: 'Prima via HTTP' });
    expect(ack).toEqual({ type: 'chat.ack', clientId, message: post.json().message });
    expect(await stored(ada, clientId)).toHaveLength(1);
  });

  it("another member's client id is theirs: the same id from two senders stores two messages", async () => {
    const [adaTab, beaTab] = [await tab(ada), await tab(bea)];
    const clientId = randomUUID();
    const a = await sendFrame(adaTab, { clientId, roomId: room, content: 'Da Ada' });
    const b = await sendFrame(beaTab, { clientId, roomId: room, content: 'Da Bea' });
    expect(a.type).toBe('chat.ack');
    expect(b.type).toBe('chat.ack');
    expect((a.message as { id: string }).id).not.toBe((b.message as { id: string }).id);
    expect((b.message as { content: string }).content).toBe('Da Bea');
  });

  it('the same id in another room of the same sender is refused with 409, nothing stored', async () => {
    const adaTab = await tab(ada);
    const other = (await req('POST', '/api/chats/direct', ada, { userId: cleo.id })).json().room.id;
    const clientId = randomUUID();
    expect((await sendFrame(adaTab, { clientId, roomId: room, content: 'Qui' })).type).toBe(
      'chat.ack',
    );
    const before = await messagesIn(other);
    expect(await sendFrame(adaTab, { clientId, roomId: other, content: 'Là' })).toEqual({
      type: 'chat.nack',
      clientId,
      status: 409,
      code: 'conflict',
      message: 'This id was already used for a message in another conversation',
    });
    const post = await req('POST', `/api/chats/rooms/${other}/messages`, ada, {
      content: 'Là',
      clientId,
    });
    expect(post.statusCode).toBe(409);
    expect(await messagesIn(other)).toBe(before);
  });
});

describe('chat.send refusals, like the HTTP route', () => {
  it('a non-participant is refused with 403 in their language: nothing stored or delivered', async () => {
    const [cleoTab, beaTab] = [await tab(cleo), await tab(bea)];
    const before = await messagesIn(room);
    const clientId = randomUUID();
    const nack = await sendFrame(cleoTab, { clientId, roomId: room, content: 'Intrusa' });
    const http = await req(
      'POST',
      `/api/chats/rooms/${room}/messages`,
      cleo,
      { content: 'Intrusa' },
      'it',
    );
    expect(http.statusCode).toBe(403);
    expect(nack).toEqual({
      type: 'chat.nack',
      clientId,
      status: 403,
      code: http.json().error.code,
      message: http.json().error.message,
    });
    // A room that does not exist answers the same.
    const ghost = randomUUID();
    expect(
      await sendFrame(cleoTab, { clientId: ghost, roomId: randomUUID(), content: 'x' }),
    ).toEqual({ ...nack, clientId: ghost });
    await wait(200);
    expect(await messagesIn(room)).toBe(before);
    expect(await stored(cleo, clientId)).toHaveLength(0);
    expect(beaTab.frames.filter(messageIn(room))).toHaveLength(0);
  });

  it('a block refuses the frame with the neutral 403 either way; nothing stored or delivered', async () => {
    const dan = await createMember(t, { displayName: 'Dan Blocked' });
    await req('PATCH', '/api/me', dan, { preferredLanguage: 'en' });
    const roomId = (await req('POST', '/api/chats/direct', bea, { userId: dan.id })).json().room.id;
    const [danTab, beaTab] = [await tab(dan), await tab(bea)];
    expect((await req('PUT', `/api/blocks/${dan.id}`, bea)).statusCode).toBe(200);
    const before = await messagesIn(roomId);
    const clientId = randomUUID();
    const nack = await sendFrame(danTab, { clientId, roomId, content: 'Ciao?' });
    const http = await req('POST', `/api/chats/rooms/${roomId}/messages`, dan, {
      content: 'Ciao?',
    });
    expect(http.statusCode).toBe(403);
    expect(nack).toEqual({
      type: 'chat.nack',
      clientId,
      status: 403,
      code: 'forbidden',
      message: http.json().error.message,
    });
    // The blocker cannot write either.
    const blocker = await sendFrame(beaTab, { clientId: randomUUID(), roomId, content: 'No' });
    expect(blocker).toMatchObject({ type: 'chat.nack', status: 403, code: 'forbidden' });
    await wait(200);
    expect(await messagesIn(roomId)).toBe(before);
    expect(danTab.frames.filter(messageIn(roomId))).toHaveLength(0);
    expect(beaTab.frames.filter(messageIn(roomId))).toHaveLength(0);
  });

  it('invalid frames are refused with the right nack, never a crash', async () => {
    const adaTab = await tab(ada);
    const before = await messagesIn(room);
    const id = () => randomUUID();
    const cases: [Frame, { status: number; code: string; message: string }][] = [
      [
        { roomId: room, content: 'senza id' },
        { status: 400, code: 'validation_failed', message: "The message's id is not valid" },
      ],
      [
        { clientId: 'not-a-uuid', roomId: room, content: 'id sbagliato' },
        { status: 400, code: 'validation_failed', message: "The message's id is not valid" },
      ],
      [
        { clientId: 42, roomId: room, content: 'id numerico' },
        { status: 400, code: 'validation_failed', message: "The message's id is not valid" },
      ],
      [
        { clientId: id(), roomId: 'stanza', content: 'stanza sbagliata' },
        { status: 403, code: 'forbidden', message: 'Access denied' },
      ],
      [
        { clientId: id(), roomId: { $ne: null }, content: 'stanza oggetto' },
        { status: 403, code: 'forbidden', message: 'Access denied' },
      ],
      [
        { clientId: id(), roomId: room, content: 'nul\u0000byte' },
        { status: 400, code: 'validation_failed', message: INVALID_CHARACTERS },
      ],
      [
        { clientId: id(), roomId: room, content: 'x'.repeat(4001) },
        {
          status: 400,
          code: 'validation_failed',
          message: 'A message can be at most 4000 characters long',
        },
      ],
      [
        { clientId: id(), roomId: room, content: '   ' },
        { status: 400, code: 'validation_failed', message: 'Write a message before sending' },
      ],
      [
        { clientId: id(), roomId: room },
        { status: 400, code: 'validation_failed', message: 'Write a message before sending' },
      ],
      [
        { clientId: id(), roomId: room, content: ['a'] },
        { status: 400, code: 'validation_failed', message: 'Write a message before sending' },
      ],
    ];
    for (const [frame, expected] of cases) {
      adaTab.send({ type: 'chat.send', ...frame });
      const echoed = typeof frame.clientId === 'string' ? frame.clientId : '';
      const answer = await adaTab.next(
        (f) => f.type === 'chat.nack' && f.clientId === echoed,
        5000,
      );
      expect(answer, JSON.stringify(frame)).toEqual({
        type: 'chat.nack',
        clientId: echoed,
        ...expected,
      });
    }
    // The NUL byte's text is the route's field message.
    const nul = await req('POST', `/api/chats/rooms/${room}/messages`, ada, {
      content: 'nul\u0000byte',
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.fields.content).toBe(INVALID_CHARACTERS);
    // A frame over the socket's 16 KB closes that socket (1009); the server keeps serving.
    adaTab.send({ type: 'chat.send', clientId: id(), roomId: room, content: 'y'.repeat(20_000) });
    expect(await adaTab.closed).toBe(1009);
    expect(await messagesIn(room)).toBe(before);
    const fresh = await tab(ada);
    expect((await sendFrame(fresh, { clientId: id(), roomId: room, content: 'Dopo' })).type).toBe(
      'chat.ack',
    );
  });

  it('socket sends spend an in-memory budget per member; HTTP keeps the shared limit; a retry still acks', async () => {
    // A clock that stands still: the budget does not refill during the test.
    const frozen = new Date();
    const still = await createTestApp({ database: t.database, deps: { now: () => frozen } });
    const url = await still.app.listen({ port: 0, host: '127.0.0.1' });
    const eve = await createMember(t, { displayName: 'Eve Rate' });
    await req('PATCH', '/api/me', eve, { preferredLanguage: 'en' });
    const roomId = (await req('POST', '/api/chats/direct', eve, { userId: ada.id })).json().room.id;
    const open = async () => {
      const socket = await mustOpen(url, { cookie: eve.cookie, origin: t.config.publicUrl });
      sockets.push(socket);
      return socket;
    };
    // Two tabs share one budget: the burst spent across both, the next send is refused.
    const [one, two] = [await open(), await open()];
    const early = randomUUID();
    for (let i = 0; i < SOCKET_SEND_BURST; i++) {
      const clientId = i === 0 ? early : randomUUID();
      const ack = await sendFrame(i % 2 ? two : one, { clientId, roomId, content: `n${i}` });
      expect(ack.type, JSON.stringify(ack)).toBe('chat.ack');
    }
    const clientId = randomUUID();
    const nack = await sendFrame(two, { clientId, roomId, content: 'Troppi' });
    expect(nack).toEqual({
      type: 'chat.nack',
      clientId,
      status: 429,
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many requests\. Please wait \d+ seconds?/),
    });
    expect(await stored(eve, clientId)).toHaveLength(0);
    // The message stored before is acknowledged again: a retry never fails on the budget.
    const again = await sendFrame(one, { clientId: early, roomId, content: 'n0' });
    expect(again.type).toBe('chat.ack');
    // Another member's budget is untouched.
    const adaTab = await tab(ada);
    expect(
      (await sendFrame(adaTab, { clientId: randomUUID(), roomId, content: 'Io sì' })).type,
    ).toBe('chat.ack');
    // HTTP counts in the shared store (rate_limits): over it, 429 with Retry-After.
    await req('POST', `/api/chats/rooms/${roomId}/messages`, eve, { content: 'Via HTTP' });
    await t.database.query('update rate_limits set count = $2 where key = $1', [
      storedKey(`chat.send:${eve.id}`),
      CHAT_SENDS_PER_MINUTE,
    ]);
    const http = await req('POST', `/api/chats/rooms/${roomId}/messages`, eve, {
      content: 'Troppi',
    });
    expect(http.statusCode).toBe(429);
    expect(Number(http.headers['retry-after'])).toBeGreaterThan(0);
    await still.app.close();
  });

  it('the HTTP route still answers 401 to a visitor and checks the client id', async () => {
    const anon = await req('POST', `/api/chats/rooms/${room}/messages`, undefined, {
      content: 'x',
      clientId: randomUUID(),
    });
    expect(anon.statusCode).toBe(401);
    const bad = await req('POST', `/api/chats/rooms/${room}/messages`, ada, {
      content: 'x',
      clientId: 'nope',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.clientId).toBe("The message's id is not valid");
    const mismatch = await t.inject({
      method: 'POST',
      url: `/api/chats/rooms/${room}/messages`,
      headers: { cookie: ada.cookie, 'accept-language': 'en', 'idempotency-key': randomUUID() },
      payload: { content: 'x', clientId: randomUUID() },
    });
    expect(mismatch.statusCode).toBe(400);
  });

  it('is documented in OpenAPI: the client id, the header, the replay and the refusals', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    const route = doc.paths['/api/chats/rooms/{roomId}/messages'].post;
    const schema = route.requestBody.content['application/json'].schema;
    expect(schema.properties.clientId).toBeDefined();
    expect(route.parameters.map((p: { name: string }) => p.name)).toContain('idempotency-key');
    expect(Object.keys(route.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '403', '409', '429']),
    );
    expect(route.description).toContain('Idempotency-Key');
  });
});
