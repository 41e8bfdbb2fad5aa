import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { users } from '../../db/schema';
import { createRealtime, PayloadTooLargeError, type RealtimeService } from './index';
import { encode, MAX_PAYLOAD_BYTES } from './bus';
import { createPresence } from './presence';
import { eventually, mustOpen, openSocket, wait } from './testing';

const ORIGIN = 'http://localhost:3000';
let t: TestApp;
let realtime: RealtimeService;
let base: string;
let ann: Member;
let bob: Member;
const presenceEvents: [string, boolean][] = [];
const typing: { userId: string; socketId: string; data: Record<string, unknown> }[] = [];

beforeAll(async () => {
  const database = await createTestDatabase();
  realtime = createRealtime({
    database,
    trustedOrigins: testConfig().trustedOrigins,
    heartbeatMs: 250,
    limits: { framesPerSecond: 20, burst: 40 },
  });
  realtime.topic('testroom', async (userId, id) => id.startsWith('open') || id === `own-${userId}`);
  realtime.topic('broken', async () => {
    throw new Error('authoriser failed');
  });
  realtime.onFrame('test.typing', (frame) => {
    typing.push({ userId: frame.userId, socketId: frame.socketId, data: frame.data });
    frame.reply({ type: 'typing.ack' });
  });
  realtime.onPresence((userId, online) => {
    presenceEvents.push([userId, online]);
  });
  t = await createTestApp({ database, deps: { realtime } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ann = await createMember(t);
  bob = await createMember(t);
});

describe('the handshake', () => {
  it('is refused without a session, and no socket opens', async () => {
    const result = await openSocket(base, { origin: ORIGIN });
    expect(result.opened).toBe(false);
    if (result.opened) return;
    expect(result.status).toBe(401);
    expect(JSON.parse(result.body).error.code).toBe('unauthorized');
    expect(realtime.socketCount()).toBe(0);
  });

  it('is refused with a foreign Origin or none, even with a session', async () => {
    for (const origin of ['https://evil.example', undefined]) {
      const result = await openSocket(base, { cookie: ann.cookie, origin });
      expect(result.opened).toBe(false);
      if (!result.opened) expect(result.status).toBe(403);
    }
    expect(realtime.socketCount(ann.id)).toBe(0);
  });

  it('is refused with a session that was signed out', async () => {
    const result = await openSocket(base, {
      cookie: 'scaffale.session_token=forged.value',
      origin: ORIGIN,
    });
    expect(result.opened).toBe(false);
    if (!result.opened) expect(result.status).toBe(401);
  });

  it('opens with a session and a trusted Origin', async () => {
    const socket = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    expect(realtime.socketCount(ann.id)).toBe(1);
    socket.ws.close();
    await socket.closed;
  });

  it('answers a plain GET with 426 and is in the OpenAPI document', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/api/realtime',
      headers: { cookie: ann.cookie },
    });
    expect(res.statusCode).toBe(426);
    expect(res.json().error).toEqual({
      code: 'upgrade_required',
      message: 'Questo indirizzo accetta solo connessioni WebSocket.',
    });
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.paths['/api/realtime'].get.responses).toHaveProperty('401');
  });
});

describe('delivery', () => {
  it('toUsers reaches every tab of that member and nobody else', async () => {
    const tab1 = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    const tab2 = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    const other = await mustOpen(base, { cookie: bob.cookie, origin: ORIGIN });
    await realtime.toUsers([ann.id], { type: 'note', text: 'for ann' });
    expect(await tab1.next((f) => f.type === 'note')).toEqual({ type: 'note', text: 'for ann' });
    expect(await tab2.next((f) => f.type === 'note')).toEqual({ type: 'note', text: 'for ann' });
    await realtime.toUsers([bob.id], { type: 'note', text: 'for bob' });
    expect(await other.next((f) => f.type === 'note')).toEqual({ type: 'note', text: 'for bob' });
    expect(other.frames.filter((f) => f.text === 'for ann')).toHaveLength(0);
    for (const s of [tab1, tab2, other]) s.ws.close();
  });

  it("disconnectUsers closes every socket of those members with 4401, and nobody else's", async () => {
    const tab1 = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    const tab2 = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    const other = await mustOpen(base, { cookie: bob.cookie, origin: ORIGIN });
    const reason = new Promise<string>((r) => tab1.ws.once('close', (_c, why) => r(String(why))));
    // The client's 'open' may come a moment before the server has taken the socket.
    await eventually(() => realtime.socketCount(ann.id) === 2);
    await realtime.disconnectUsers([ann.id]);
    expect(await tab1.closed).toBe(4401);
    expect(await tab2.closed).toBe(4401);
    expect(await reason).toBe('session ended');
    await eventually(() => realtime.socketCount(ann.id) === 0);
    // The other member's socket still receives events.
    expect(other.ws.readyState).toBe(other.ws.OPEN);
    await realtime.toUsers([bob.id], { type: 'note', text: 'still here' });
    expect(await other.next((f) => f.type === 'note')).toEqual({
      type: 'note',
      text: 'still here',
    });
    // Another application code is used as given; an invalid one falls back to 4401.
    const again = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    await realtime.disconnectUsers([ann.id], 4403);
    expect(await again.closed).toBe(4403);
    await realtime.disconnectUsers([bob.id], 1000);
    expect(await other.closed).toBe(4401);
    await realtime.disconnectUsers([]);
  });

  it('subscribes to an allowed topic and answers 403 to a refused or unknown one', async () => {
    const a = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    const b = await mustOpen(base, { cookie: bob.cookie, origin: ORIGIN });
    a.send({ type: 'subscribe', topic: `testroom:own-${ann.id}` });
    expect(await a.next()).toEqual({ type: 'subscribed', topic: `testroom:own-${ann.id}` });
    b.send({ type: 'subscribe', topic: `testroom:own-${ann.id}` });
    expect(await b.next()).toEqual({ type: 'error', status: 403, topic: `testroom:own-${ann.id}` });
    for (const topic of ['secret:1', 'broken:1', 'testroom:', 'nocolon']) {
      b.send({ type: 'subscribe', topic });
      expect(await b.next()).toEqual({ type: 'error', status: 403, topic });
    }
    await realtime.toTopic(`testroom:own-${ann.id}`, { type: 'test.typing', userId: 'x' });
    expect(await a.next()).toEqual({ type: 'test.typing', userId: 'x' });
    await wait(50);
    expect(b.frames.some((f) => f.type === 'test.typing')).toBe(false);

    // The typist is left out; after unsubscribing nothing arrives.
    b.send({ type: 'subscribe', topic: 'testroom:open' });
    a.send({ type: 'subscribe', topic: 'testroom:open' });
    await b.next((f) => f.type === 'subscribed');
    await a.next((f) => f.type === 'subscribed');
    await realtime.toTopic(
      'testroom:open',
      { type: 'test.typing', userId: bob.id },
      { exceptUserIds: [bob.id] },
    );
    expect(await a.next()).toMatchObject({ type: 'test.typing', userId: bob.id });
    a.send({ type: 'unsubscribe', topic: 'testroom:open' });
    await wait(50);
    await realtime.toTopic('testroom:open', { type: 'late' });
    expect(await b.next((f) => f.type === 'late')).toEqual({ type: 'late' });
    await wait(50);
    expect(a.frames.some((f) => f.type === 'late')).toBe(false);

    // leaveTopic ends a subscription from the server's side (a member who left the room).
    await realtime.leaveTopic!([bob.id], 'testroom:open');
    await realtime.toTopic('testroom:open', { type: 'after-leave' });
    await wait(50);
    expect(b.frames.some((f) => f.type === 'after-leave')).toBe(false);
    a.ws.close();
    b.ws.close();
  });

  it('caps the topics of one socket at 50', async () => {
    const a = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    for (let i = 0; i < 30; i++) a.send({ type: 'subscribe', topic: `testroom:open${i}` });
    await a.next((f) => f.topic === 'testroom:open29');
    await wait(1100); // the socket's frame budget refills
    for (let i = 30; i < 51; i++) a.send({ type: 'subscribe', topic: `testroom:open${i}` });
    expect(await a.next((f) => f.topic === 'testroom:open50')).toEqual({
      type: 'error',
      status: 429,
      topic: 'testroom:open50',
    });
    await eventually(() => a.frames.length === 51);
    expect(a.frames.filter((f) => f.type === 'subscribed')).toHaveLength(50);
    a.ws.close();
  });

  it('hands feature frames to their handler with the member and socket, and replies on that socket', async () => {
    const a = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    a.send({ type: 'test.typing', roomId: 'r1' });
    expect(await a.next()).toEqual({ type: 'typing.ack' });
    expect(typing.at(-1)).toMatchObject({
      userId: ann.id,
      data: { type: 'test.typing', roomId: 'r1' },
    });
    a.send({ type: 'no.such.frame' });
    expect(await a.next()).toEqual({ type: 'error', status: 400, frameType: 'no.such.frame' });
    a.ws.close();
  });

  it('refuses an event over the NOTIFY limit with a clear error and splits long member lists', async () => {
    await expect(
      realtime.toUsers([ann.id], { type: 'big', text: 'x'.repeat(MAX_PAYLOAD_BYTES) }),
    ).rejects.toThrow(PayloadTooLargeError);
    await expect(
      realtime.toTopic('testroom:open', { type: 'big', text: 'x'.repeat(MAX_PAYLOAD_BYTES) }),
    ).rejects.toThrow(/over the 7900-byte limit/);
    const many = Array.from({ length: 600 }, (_, i) => `user-${i}-${'y'.repeat(20)}`);
    const payloads = encode({ users: many, event: { type: 'x' } }, 'p');
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.every((p) => Buffer.byteLength(p) <= MAX_PAYLOAD_BYTES)).toBe(true);
    expect(payloads.flatMap((p) => JSON.parse(p).users)).toEqual(many);
  });
});

describe('a bad client harms only its own socket', () => {
  it('malformed JSON closes that socket with 1008; others and the HTTP API keep serving', async () => {
    const bad = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    const good = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    bad.send('{not json');
    expect(await bad.closed).toBe(1008);
    await realtime.toUsers([ann.id], { type: 'still-here' });
    expect(await good.next((f) => f.type === 'still-here')).toEqual({ type: 'still-here' });
    expect((await t.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    good.ws.close();
  });

  it('a frame without a string type, an array or a binary frame closes with 1008', async () => {
    for (const frame of ['{"topic":"x"}', '{"type":3}', '[1,2]', 'null']) {
      const s = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
      s.send(frame);
      expect(await s.closed).toBe(1008);
    }
    const s = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    s.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await s.closed).toBe(1008);
  });

  it('a frame over 16 KB closes with 1009', async () => {
    const s = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    s.send({ type: 'test.typing', pad: 'x'.repeat(17 * 1024) });
    expect(await s.closed).toBe(1009);
    expect((await t.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('a socket over its rate limit is closed with 1008', async () => {
    const s = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    for (let i = 0; i < 80; i++) s.send({ type: 'test.typing', roomId: 'r' });
    expect(await s.closed).toBe(1008);
  });

  it('a socket that stops answering pings is dropped', async () => {
    const mute = await mustOpen(base, { cookie: bob.cookie, origin: ORIGIN, autoPong: false });
    const lively = await mustOpen(base, { cookie: ann.cookie, origin: ORIGIN });
    expect(await mute.closed).toBe(1006);
    expect(lively.ws.readyState).toBe(lively.ws.OPEN);
    lively.ws.close();
  });
});

describe('presence', () => {
  it('is online while a socket is open on any tab and offline after the last, with last_seen_at', async () => {
    const carl = await createMember(t);
    const before = Date.now();
    expect(await realtime.isOnline(carl.id)).toBe(false);
    const tab1 = await mustOpen(base, { cookie: carl.cookie, origin: ORIGIN });
    await eventually(() => realtime.isOnline(carl.id));
    expect(presenceEvents).toContainEqual([carl.id, true]);
    expect(await realtime.onlineAmong([carl.id, bob.id, 'nobody'])).toEqual(new Set([carl.id]));
    const tab2 = await mustOpen(base, { cookie: carl.cookie, origin: ORIGIN });
    tab1.ws.close();
    await tab1.closed;
    await wait(100);
    expect(await realtime.isOnline(carl.id)).toBe(true);
    expect(presenceEvents).not.toContainEqual([carl.id, false]);
    tab2.ws.close();
    await eventually(async () => !(await realtime.isOnline(carl.id)));
    await eventually(() => presenceEvents.some(([id, online]) => id === carl.id && !online));
    const [row] = await t.database.db
      .select({ lastSeenAt: users.lastSeenAt })
      .from(users)
      .where(eq(users.id, carl.id));
    expect(row.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('ignores the rows of a process that stopped refreshing them', async () => {
    const dora = await createMember(t);
    await t.database.query(
      `insert into realtime_presence (user_id, process_id, seen_at) values ($1, 'dead', now() - interval '2 minutes')`,
      [dora.id],
    );
    expect(await realtime.isOnline(dora.id)).toBe(false);
    expect(await realtime.onlineAmong([dora.id])).toEqual(new Set());
  });

  it("a live process expires a dead one's rows and announces those members offline", async () => {
    const [gus, hal] = [await createMember(t), await createMember(t)];
    await t.database.query(
      `insert into realtime_presence (user_id, process_id, seen_at) values
         ($1, 'dead', now() - interval '2 minutes'),
         ($2, 'dead', now() - interval '2 minutes'), ($2, 'alive', now())`,
      [gus.id, hal.id],
    );
    const changes: [string, boolean][] = [];
    const presence = createPresence({
      database: t.database,
      processId: 'sweeper',
      ttlMs: 60_000,
      onChange: async (userId, online) => void changes.push([userId, online]),
      onError: (err) => {
        throw err;
      },
    });
    await presence.expire();
    // Hal is still online through another live process: only Gus goes offline.
    expect(changes.filter(([id]) => id === gus.id || id === hal.id)).toEqual([[gus.id, false]]);
    const rows = await t.database.query<{ user_id: string }>(
      `select user_id from realtime_presence where process_id = 'dead' and user_id = any($1::text[])`,
      [[gus.id, hal.id]],
    );
    expect(rows).toEqual([]);
    expect(await realtime.isOnline(hal.id)).toBe(true);
  });
  it('a refresh writes back a row lost meanwhile and keeps last_seen_at current', async () => {
    const ivy = await createMember(t);
    const presence = createPresence({
      database: t.database,
      processId: 'repairing',
      ttlMs: 60_000,
      onChange: async () => {},
      onError: (err) => {
        throw err;
      },
    });
    await presence.connected(ivy.id);
    expect(await presence.isOnline(ivy.id)).toBe(true);
    // A peer expired the row (this process stalled past the window): the refresh repairs it.
    await t.database.query(`delete from realtime_presence where process_id = 'repairing'`);
    expect(await presence.isOnline(ivy.id)).toBe(false);
    await presence.refresh();
    await presence.settle();
    expect(await presence.isOnline(ivy.id)).toBe(true);
    await t.database.query(`update users set last_seen_at = null where id = $1`, [ivy.id]);
    await presence.touchLastSeen();
    const [row] = await t.database.query<{ last_seen_at: Date | null }>(
      'select last_seen_at from users where id = $1',
      [ivy.id],
    );
    expect(row.last_seen_at).not.toBeNull();
    await presence.disconnected(ivy.id);
    expect(await presence.isOnline(ivy.id)).toBe(false);
  });
});

describe('closing the app', () => {
  it('closes every socket with 1001 and clears this process from presence', async () => {
    const database = await createTestDatabase();
    const service = createRealtime({
      database,
      trustedOrigins: testConfig().trustedOrigins,
      maxSocketsPerUser: 2,
    });
    const other = await createTestApp({ database, deps: { realtime: service } });
    const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
    const eve = await createMember(other);
    const s = await mustOpen(url, { cookie: eve.cookie, origin: ORIGIN });
    await mustOpen(url, { cookie: eve.cookie, origin: ORIGIN });
    // A member's sockets on one process are capped (tabs, not a flood): one more is closed with
    // 4429 so the browser knows to wait.
    const third = await mustOpen(url, { cookie: eve.cookie, origin: ORIGIN });
    expect(await third.closed).toBe(4429);
    expect(service.socketCount(eve.id)).toBe(2);
    await eventually(() => service.isOnline(eve.id));
    await other.app.close();
    expect(await s.closed).toBe(1001);
    const rows = await database.query('select * from realtime_presence');
    expect(rows).toHaveLength(0);
    const [row] = await database.query<{ last_seen_at: Date | null }>(
      'select last_seen_at from users where id = $1',
      [eve.id],
    );
    expect(row.last_seen_at).not.toBeNull();
  });
});
