import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { mustOpen, wait, type TestSocket } from '../../platform/realtime/testing';
import { AppError } from '../../platform/errors';
import { queryOf } from '../../db/tx';
import { requester, createMember, type Member } from '../../test/members';
import { createSendBatcher, SEND_BATCH_SQL, type BatchRow, type SendResult } from './send';

/**
 * The socket's sends stored a batch at a time (docs/decisions/0077): the sends of one turn of the
 * event loop go in one statement, and each still settles on its own, as the HTTP route would
 * answer it. The batcher runs on the real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL); the last tests go through real sockets.
 */
let t: TestApp;
let req: ReturnType<typeof requester>;
let ada: Member;
let bea: Member;
let cleo: Member;
let dan: Member;
let adaBea: string;
let cleoBea: string;
let danBea: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  req = requester(t);
  [ada, bea, cleo, dan] = await Promise.all(
    ['Ada Batch', 'Bea Batch', 'Cleo Batch', 'Dan Batch'].map((displayName) =>
      createMember(t, { displayName }),
    ),
  );
  const direct = async (a: Member, b: Member) =>
    (await req('POST', '/api/chats/direct', a, { userId: b.id })).json().room.id as string;
  [adaBea, cleoBea, danBea] = [
    await direct(ada, bea),
    await direct(cleo, bea),
    await direct(dan, bea),
  ];
  expect((await req('PUT', `/api/blocks/${dan.id}`, bea)).statusCode).toBe(200);
}, 120_000);

afterAll(async () => {
  for (const s of sockets) s.ws.close();
  await Promise.all(sockets.map((s) => s.closed));
});

/** A batcher on the test database that records its batches' sizes. */
function batcher(storeBatch?: (params: unknown[]) => Promise<BatchRow[]>) {
  const sizes: number[] = [];
  const b = createSendBatcher({
    query: queryOf(t.database),
    storeBatch,
    log: t.app.log,
    onBatch: (size) => sizes.push(size),
  });
  return { ...b, sizes };
}

/** Each send's result, or its refusal, once every send of the batch is settled. */
const settle = (sends: Promise<SendResult>[]) =>
  Promise.all(
    sends.map((p) =>
      p.then(
        (r) => r,
        (err: unknown) => err,
      ),
    ),
  );

const stored = (sender: Member, clientId: string) =>
  t.database.query<{ id: string; content: string; room_id: string }>(
    'select id, content, room_id from chat_messages where sender_id = $1 and client_id = $2',
    [sender.id, clientId],
  );

describe('a batch of socket sends', () => {
  it("two members' sends in one statement, each settled with its own stored message", async () => {
    const b = batcher();
    const [adaId, cleoId] = [randomUUID(), randomUUID()];
    const [forAda, forCleo] = (await settle([
      b.send(ada.id, adaBea, 'Da Ada, insieme', adaId),
      b.send(cleo.id, cleoBea, 'Da Cleo, insieme', cleoId),
    ])) as SendResult[];
    expect(b.sizes).toEqual([2]);
    expect(forAda).toMatchObject({
      created: true,
      message: { roomId: adaBea, senderId: ada.id, content: 'Da Ada, insieme' },
    });
    expect(forAda.message.sender?.displayName).toBe('Ada Batch');
    expect(forAda.audience.sort()).toEqual([ada.id, bea.id].sort());
    expect(forCleo).toMatchObject({
      created: true,
      message: { roomId: cleoBea, senderId: cleo.id, content: 'Da Cleo, insieme' },
    });
    expect(forCleo.audience.sort()).toEqual([bea.id, cleo.id].sort());
    // What was stored is what each was answered, as the room's page reads it.
    expect((await stored(ada, adaId))[0].id).toBe(forAda.message.id);
    expect((await stored(cleo, cleoId))[0].id).toBe(forCleo.message.id);
    const page = (await req('GET', `/api/chats/rooms/${cleoBea}/messages`, bea)).json().items;
    expect(page.at(-1)).toEqual(forCleo.message);
    // Both rooms moved up Bea's list.
    const rooms = (await req('GET', '/api/chats/rooms', bea))
      .json()
      .items.map((r: { id: string }) => r.id);
    expect(rooms.slice(0, 2).sort()).toEqual([adaBea, cleoBea].sort());
  });

  it('refuses a send of the batch as the route would, without failing the others', async () => {
    const b = batcher();
    const [ok, intruder, reused] = [randomUUID(), randomUUID(), randomUUID()];
    // Ada's id already used in her room with Bea: the same id in another room is a 409.
    await b.send(ada.id, adaBea, 'Prima', reused);
    const adaCleo = (await req('POST', '/api/chats/direct', ada, { userId: cleo.id })).json().room
      .id;
    const results = await settle([
      b.send(cleo.id, adaBea, 'Intrusa', intruder),
      b.send(ada.id, adaCleo, 'Stesso id, altra stanza', reused),
      b.send(bea.id, adaBea, 'Io invece sì', ok),
    ]);
    expect(b.sizes).toEqual([1, 3]);
    expect(results[0]).toBeInstanceOf(AppError);
    expect(results[0]).toMatchObject({ statusCode: 403, code: 'forbidden' });
    expect(results[1]).toMatchObject({ statusCode: 409, code: 'conflict' });
    expect(results[2]).toMatchObject({ created: true, message: { content: 'Io invece sì' } });
    expect(await stored(cleo, intruder)).toHaveLength(0);
    expect((await stored(ada, reused)).map((r) => r.room_id)).toEqual([adaBea]);
  });

  it('a row that fails the statement fails alone: the others are stored on their own', async () => {
    // A stand-in for a row PostgreSQL refuses (class 22, data exception) in a batch of three.
    const real = queryOf(t.database);
    const storeBatch = async (params: unknown[]) => {
      if ((params[2] as string[]).includes('avvelenato'))
        throw Object.assign(new Error('invalid input'), { code: '22P02' });
      return real<BatchRow>(SEND_BATCH_SQL, params);
    };
    const b = batcher(storeBatch);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const results = await settle([
      b.send(ada.id, adaBea, 'Prima del guasto', ids[0]),
      b.send(cleo.id, cleoBea, 'avvelenato', ids[1]),
      b.send(bea.id, cleoBea, 'Dopo il guasto', ids[2]),
    ]);
    expect(results[0]).toMatchObject({ created: true, message: { content: 'Prima del guasto' } });
    expect(results[1]).toMatchObject({ statusCode: 500, message: 'chatApi.errors.sendFailed' });
    expect(results[2]).toMatchObject({ created: true, message: { content: 'Dopo il guasto' } });
    expect(b.sizes).toEqual([1, 1]);
    expect(await stored(cleo, ids[1])).toHaveLength(0);
  });

  it('a blocked pair is refused inside a batch; the rest of the batch is stored', async () => {
    const b = batcher();
    const [fromDan, fromBea, fromAda] = [randomUUID(), randomUUID(), randomUUID()];
    const results = await settle([
      b.send(dan.id, danBea, 'Ciao?', fromDan),
      b.send(ada.id, adaBea, 'Accanto a un blocco', fromAda),
      // The blocker cannot write either.
      b.send(bea.id, danBea, 'No', fromBea),
    ]);
    expect(b.sizes).toEqual([3]);
    for (const refused of [results[0], results[2]])
      expect(refused).toMatchObject({
        statusCode: 403,
        code: 'forbidden',
        message: 'blocks.errors.cannotMessage',
      });
    expect(results[1]).toMatchObject({
      created: true,
      message: { content: 'Accanto a un blocco' },
    });
    expect(await stored(dan, fromDan)).toHaveLength(0);
    expect(await stored(bea, fromBea)).toHaveLength(0);
  });

  it('a client id sent twice in one batch, and again in a later one, stores one message', async () => {
    const b = batcher();
    const clientId = randomUUID();
    const [first, copy, upper] = (await settle([
      b.send(ada.id, adaBea, 'Una volta sola', clientId),
      b.send(ada.id, adaBea, 'Una volta sola', clientId),
      b.send(ada.id, adaBea, 'Una volta sola', clientId.toUpperCase()),
    ])) as SendResult[];
    // The copies wait for the next batch, where they find the first one stored.
    expect(b.sizes).toEqual([1, 1, 1]);
    expect(first.created).toBe(true);
    expect(copy).toEqual({ message: first.message, created: false, audience: [] });
    expect(upper).toEqual({ message: first.message, created: false, audience: [] });
    const later = await b.send(ada.id, adaBea, 'Una volta sola', clientId);
    expect(later).toEqual({ message: first.message, created: false, audience: [] });
    // Beside other members' sends in a batch, too.
    const [again, other] = (await settle([
      b.send(ada.id, adaBea, 'Una volta sola', clientId),
      b.send(cleo.id, cleoBea, 'Altro', randomUUID()),
    ])) as SendResult[];
    expect(again.created).toBe(false);
    expect(again.message.id).toBe(first.message.id);
    expect(other.created).toBe(true);
    expect(await stored(ada, clientId)).toHaveLength(1);
  });
});

describe('socket sends batched behind real sockets', () => {
  it('frames of several members at once: each sender acked with its own message, each delivered once', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const open = async (m: Member) => {
      const socket = await mustOpen(base, { cookie: m.cookie, origin: t.config.publicUrl });
      sockets.push(socket);
      return socket;
    };
    const [adaTab, cleoTab, beaTab] = [await open(ada), await open(cleo), await open(bea)];
    const frames = [
      { tab: adaTab, roomId: adaBea, content: 'Ada al volo', clientId: randomUUID() },
      { tab: cleoTab, roomId: cleoBea, content: 'Cleo al volo', clientId: randomUUID() },
    ];
    for (const f of frames)
      f.tab.send({ type: 'chat.send', clientId: f.clientId, roomId: f.roomId, content: f.content });
    const acks = await Promise.all(
      frames.map((f) =>
        f.tab.next((x) => x.type === 'chat.ack' && x.clientId === f.clientId, 5000),
      ),
    );
    for (const [i, f] of frames.entries()) {
      expect(acks[i].message).toMatchObject({ roomId: f.roomId, content: f.content });
      const [row] = await stored(i === 0 ? ada : cleo, f.clientId);
      expect((acks[i].message as { id: string }).id).toBe(row.id);
    }
    // Bea is in both rooms: each message reaches her once, as acked.
    for (const ack of acks) {
      const id = (ack.message as { id: string }).id;
      await beaTab.next(
        (x) => x.type === 'chat.message' && (x.message as { id?: string })?.id === id,
        5000,
      );
    }
    await wait(200);
    for (const ack of acks) {
      const id = (ack.message as { id: string }).id;
      const copies = beaTab.frames.filter(
        (x) => x.type === 'chat.message' && (x.message as { id?: string })?.id === id,
      );
      expect(copies).toEqual([
        {
          type: 'chat.message',
          roomId: ack.message && (ack.message as { roomId: string }).roomId,
          message: ack.message,
        },
      ]);
    }
  });
});
