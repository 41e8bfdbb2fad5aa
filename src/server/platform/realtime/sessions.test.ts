// Ending a session closes the sockets opened with it, whatever path ended it: an attacker (or a
// thief) holding an open socket must not keep reading private chat messages after sign-out,
// "sign out other devices", a password reset, a suspension or an account deletion.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../../test/app';
import {
  befriend,
  cookieFrom,
  createMember,
  randomClientIp,
  signIn,
  type Member,
} from '../../test/members';
import { createRealtime, type RealtimeService } from './index';
import { createLocalBus } from './bus';
import { mustOpen, openSocket, wait, type TestSocket } from './testing';

const ORIGIN = 'http://localhost:3000';
let t: TestApp;
let base: string;
let realtime: RealtimeService;

beforeAll(async () => {
  const database = await createTestDatabase();
  realtime = createRealtime({ database, trustedOrigins: testConfig().trustedOrigins });
  t = await createTestApp({ database, deps: { realtime } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);

const as = (cookie: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.inject({
    method,
    url,
    remoteAddress: randomClientIp(),
    headers: { cookie, 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });

/** Two friends with a direct room; `reader`'s socket is subscribed to it. */
async function chatting(): Promise<{ reader: Member; writer: Member; roomId: string }> {
  const [reader, writer] = [await createMember(t), await createMember(t)];
  await befriend(t, reader, writer);
  const room = await as(reader.cookie, 'POST', '/api/chats/direct', { userId: writer.id });
  expect(room.statusCode, room.body).toBe(201);
  return { reader, writer, roomId: room.json().room.id };
}

async function subscribed(cookie: string, roomId: string): Promise<TestSocket> {
  const socket = await mustOpen(base, { cookie, origin: ORIGIN });
  socket.send({ type: 'subscribe', topic: `room:${roomId}` });
  expect(await socket.next((f) => f.type === 'subscribed')).toEqual({
    type: 'subscribed',
    topic: `room:${roomId}`,
  });
  return socket;
}

/** The close code, if the socket closed within `ms` of now. */
const closedWithin = (socket: TestSocket, ms: number) =>
  Promise.race([socket.closed, wait(ms).then(() => 'still open' as const)]);

async function say(writer: Member, roomId: string, content: string) {
  const res = await as(writer.cookie, 'POST', `/api/chats/rooms/${roomId}/messages`, { content });
  expect(res.statusCode, res.body).toBe(201);
}

describe('ending a session closes its sockets (4401) within a second', () => {
  it('sign-out: the socket closes and no later private message reaches it', async () => {
    const { reader, writer, roomId } = await chatting();
    const socket = await subscribed(reader.cookie, roomId);
    await say(writer, roomId, 'before');
    await socket.next((f) => f.type === 'chat.message');

    const out = await as(reader.cookie, 'POST', '/api/auth/sign-out', {});
    expect(out.statusCode).toBe(200);
    expect(await closedWithin(socket, 1000)).toBe(4401);
    await say(writer, roomId, 'secret after sign-out');
    await wait(200);
    expect(JSON.stringify(socket.frames)).not.toContain('secret after sign-out');
    // The same cookie cannot open a new one.
    const again = await openSocket(base, { cookie: reader.cookie, origin: ORIGIN });
    expect(again.opened ? 101 : again.status).toBe(401);
  });

  it("sign out other devices: the other device's socket closes, this one keeps receiving", async () => {
    const { reader, writer, roomId } = await chatting();
    const laptop = await subscribed(reader.cookie, roomId);
    const phoneCookie = await signIn(t, reader.email, reader.password);
    const phone = await subscribed(phoneCookie, roomId);

    const res = await as(reader.cookie, 'DELETE', '/api/me/sessions/others');
    expect(res.json()).toEqual({ ended: 1 });
    expect(await closedWithin(phone, 1000)).toBe(4401);
    await say(writer, roomId, 'only for the laptop');
    const frame = await laptop.next((f) => f.type === 'chat.message');
    expect(JSON.stringify(frame)).toContain('only for the laptop');
    expect(laptop.ws.readyState).toBe(laptop.ws.OPEN);
    expect(JSON.stringify(phone.frames)).not.toContain('only for the laptop');
    laptop.ws.close();
  });

  it('a password reset closes the sockets of every session', async () => {
    const { reader, roomId } = await chatting();
    const one = await subscribed(reader.cookie, roomId);
    const two = await subscribed(await signIn(t, reader.email, reader.password), roomId);
    const ask = await t.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      remoteAddress: randomClientIp(),
      payload: { email: reader.email, redirectTo: '/reset-password' },
    });
    expect(ask.statusCode).toBe(200);
    const [mail] = await t.database.query<{ text: string }>(
      'select text from mail_outbox where "to" = $1 order by id desc limit 1',
      [reader.email],
    );
    const token = new URL(mail.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token');
    const reset = await t.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      remoteAddress: randomClientIp(),
      payload: { newPassword: 'brand-new-pass', token },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await closedWithin(one, 1000)).toBe(4401);
    expect(await closedWithin(two, 1000)).toBe(4401);
  });

  it('account deletion closes its sockets; so does any statement that removes session rows', async () => {
    const { reader, roomId } = await chatting();
    const socket = await subscribed(reader.cookie, roomId);
    const res = await as(reader.cookie, 'POST', '/api/me/delete', { password: reader.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closedWithin(socket, 1000)).toBe(4401);

    // What suspension runs, and a cascade from the users table, with no explicit call at all.
    const [a, b] = [await createMember(t), await createMember(t)];
    const suspended = await mustOpen(base, { cookie: a.cookie, origin: ORIGIN });
    const removed = await mustOpen(base, { cookie: b.cookie, origin: ORIGIN });
    await t.database.query('delete from sessions where user_id = $1', [a.id]);
    await t.database.query('delete from users where id = $1', [b.id]);
    expect(await closedWithin(suspended, 1000)).toBe(4401);
    expect(await closedWithin(removed, 1000)).toBe(4401);
  });

  it('a session moved into the past closes its socket; other sessions of the member stay', async () => {
    const member = await createMember(t);
    const expiring = await mustOpen(base, { cookie: member.cookie, origin: ORIGIN });
    const otherCookie = await signIn(t, member.email, member.password);
    const other = await mustOpen(base, { cookie: otherCookie, origin: ORIGIN });
    const token = decodeURIComponent(member.cookie.match(/session_token=([^.;]+)/)![1]);
    const rows = await t.database.query(
      `update sessions set expires_at = now() - interval '1 second' where token = $1 returning id`,
      [token],
    );
    expect(rows).toHaveLength(1);
    expect(await closedWithin(expiring, 1000)).toBe(4401);
    await realtime.toUsers([member.id], { type: 'still.here' });
    expect(await other.next((f) => f.type === 'still.here')).toEqual({ type: 'still.here' });
    other.ws.close();
  });

  it('endSessions closes the sockets of exactly those sessions', async () => {
    const member = await createMember(t);
    const socket = await mustOpen(base, { cookie: member.cookie, origin: ORIGIN });
    const keep = await mustOpen(base, {
      cookie: await signIn(t, member.email, member.password),
      origin: ORIGIN,
    });
    const token = decodeURIComponent(member.cookie.match(/session_token=([^.;]+)/)![1]);
    const [row] = await t.database.query<{ id: string }>(
      'select id from sessions where token = $1',
      [token],
    );
    await realtime.endSessions([row.id]);
    expect(await closedWithin(socket, 1000)).toBe(4401);
    expect(await closedWithin(keep, 200)).toBe('still open');
    keep.ws.close();
  });
});

describe('a frame on a socket whose session is gone', () => {
  it('is refused and closes the socket, even when the announcement was missed', async () => {
    // A process that hears no announcements (e.g. its LISTEN is down): the frame check holds.
    const deaf = createRealtime({
      database: t.database,
      trustedOrigins: testConfig().trustedOrigins,
      bus: createLocalBus(),
    });
    const other = await createTestApp({ database: t.database, deps: { realtime: deaf } });
    const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
    const { reader, writer, roomId } = await chatting();
    const socket = await mustOpen(url, { cookie: reader.cookie, origin: ORIGIN });
    const signInRes = await t.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: randomClientIp(),
      payload: { email: writer.email, password: writer.password },
    });
    const typist = await mustOpen(url, { cookie: cookieFrom(signInRes), origin: ORIGIN });

    expect((await as(reader.cookie, 'POST', '/api/auth/sign-out', {})).statusCode).toBe(200);
    socket.send({ type: 'subscribe', topic: `room:${roomId}` });
    expect(await closedWithin(socket, 1000)).toBe(4401);
    expect(socket.frames.filter((f) => f.type === 'subscribed')).toEqual([]);

    // A feature frame is refused the same way.
    await t.database.query('delete from sessions where user_id = $1', [writer.id]);
    typist.send({ type: 'chat.typing', roomId });
    expect(await closedWithin(typist, 1000)).toBe(4401);
  });
});
