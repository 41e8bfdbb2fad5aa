// The browser client against a local WebSocket server speaking the service's protocol (the real
// server is covered by src/server/platform/realtime/*.test.ts and the chats e2e journey).
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import {
  holdRealtimeTopic,
  onRealtimeEvent,
  onRealtimeReconnect,
  onRealtimeSessionEnded,
  RealtimeUnavailable,
  reconnectDelay,
  sendChatFrame,
  sendRealtime,
  startRealtime,
  stopRealtime,
} from './realtime';

let server: WebSocketServer;
let endpoint: string;
const sockets: WebSocket[] = [];
const received: { socket: number; frame: Record<string, unknown> }[] = [];
const closes: number[] = [];

beforeAll(async () => {
  // Node 20 has no global WebSocket; the browser's and ws's share this API.
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  endpoint = `ws://127.0.0.1:${(server.address() as { port: number }).port}/api/realtime`;
  server.on('connection', (ws) => {
    const index = sockets.push(ws) - 1;
    ws.on('message', (data) => received.push({ socket: index, frame: JSON.parse(String(data)) }));
    ws.on('close', (code) => closes.push(code));
  });
});

// A failed test must not leave the client started (startRealtime ignores a second start).
afterEach(() => stopRealtime());

afterAll(async () => {
  stopRealtime();
  await new Promise((r) => server.close(r));
});

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

it('connects, dispatches by type, re-subscribes and runs the reconnect handlers after a drop', async () => {
  const events: unknown[] = [];
  const stop = onRealtimeEvent('chat.message', (e) => events.push(e));
  let reconnects = 0;
  onRealtimeReconnect(() => reconnects++);
  expect(sendRealtime({ type: 'chat.typing' })).toBe(false);

  startRealtime(endpoint);
  await until(() => sockets.length === 1 && sockets[0].readyState === WebSocket.OPEN);
  const release = holdRealtimeTopic('room:1');
  const again = holdRealtimeTopic('room:1');
  await until(() => received.length === 1);
  expect(received[0]).toEqual({ socket: 0, frame: { type: 'subscribe', topic: 'room:1' } });

  sockets[0].send(JSON.stringify({ type: 'chat.message', roomId: 'r' }));
  sockets[0].send(JSON.stringify({ type: 'other' }));
  sockets[0].send('not json');
  await until(() => events.length === 1);
  expect(events).toEqual([{ type: 'chat.message', roomId: 'r' }]);
  expect(reconnects).toBe(0);
  // The first connect is not a reconnect.
  await until(() => sendRealtime({ type: 'chat.typing', roomId: 'r' }));

  sockets[0].terminate();
  await until(() => sockets.length === 2 && reconnects === 1, 3000);
  // The subscribe frame is sent on open: wait for the server to have read it.
  await until(() => received.some((r) => r.socket === 1));
  expect(received.filter((r) => r.socket === 1)).toEqual([
    { socket: 1, frame: { type: 'subscribe', topic: 'room:1' } },
  ]);

  // Released by both holders: unsubscribed once.
  release();
  again();
  await until(() => received.some((r) => r.frame.type === 'unsubscribe'));
  expect(received.filter((r) => r.frame.type === 'unsubscribe')).toEqual([
    { socket: 1, frame: { type: 'unsubscribe', topic: 'room:1' } },
  ]);
  stop();

  stopRealtime();
  await until(() => closes.includes(1000));
  expect(sendRealtime({ type: 'chat.typing' })).toBe(false);
  await new Promise((r) => setTimeout(r, 700));
  expect(sockets).toHaveLength(2);
});

it('backs off with jitter while handshakes are refused, instead of hammering the server', async () => {
  let attempts = 0;
  const refusing = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    verifyClient: (_info, done) => {
      attempts++;
      done(false, 401);
    },
  });
  await new Promise((r) => refusing.once('listening', r));
  startRealtime(`ws://127.0.0.1:${(refusing.address() as { port: number }).port}/api/realtime`);
  await new Promise((r) => setTimeout(r, 2500));
  stopRealtime();
  await new Promise((r) => refusing.close(r));
  // Delays are random in [0, 0.5 s], [0, 1 s], [0, 2 s]...: a handful of attempts, not hundreds.
  expect(attempts).toBeGreaterThanOrEqual(2);
  expect(attempts).toBeLessThanOrEqual(8);
});

it('after a 4401 close (session ended) never reconnects and tells the app; a new start opens', async () => {
  let handshakes = 0;
  const server4401 = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    verifyClient: (_info, done) => {
      handshakes++;
      done(true);
    },
  });
  await new Promise((r) => server4401.once('listening', r));
  const opened: WebSocket[] = [];
  server4401.on('connection', (ws) => opened.push(ws));
  const url = `ws://127.0.0.1:${(server4401.address() as { port: number }).port}/api/realtime`;
  let ended = 0;
  const stopListening = onRealtimeSessionEnded(() => ended++);
  startRealtime(url);
  await until(() => opened.length === 1 && opened[0].readyState === WebSocket.OPEN);

  // Even a server that would accept again gets no new handshake: the session is dead.
  opened[0].close(4401, 'session ended');
  await until(() => ended === 1);
  await new Promise((r) => setTimeout(r, 1500));
  expect(handshakes).toBe(1);
  expect(sendRealtime({ type: 'chat.typing' })).toBe(false);

  // The app found the member still signed in (a newer session) and starts the socket afresh.
  startRealtime(url);
  await until(() => opened.length === 2);
  stopListening();
  stopRealtime();
  await new Promise((r) => server4401.close(r));
});

it('waits at least 15 s after a 4429 close (too many sockets), with jitter', () => {
  expect(reconnectDelay(4429, 0, () => 0)).toBe(15_000);
  expect(reconnectDelay(4429, 0, () => 0.999)).toBeLessThan(30_000);
  expect(reconnectDelay(4401, 3)).toBeNull();
  expect(reconnectDelay(1008, 30, () => 1)).toBe(30_000);
  expect(reconnectDelay(1006, 0, () => 0.5)).toBe(250);
});

it('after 1012 or 1001 (a server draining or restarting) waits 0.5 to 5 s at random', () => {
  for (const code of [1001, 1012]) {
    expect(reconnectDelay(code, 0, () => 0)).toBe(500);
    expect(reconnectDelay(code, 0, () => 0.5)).toBe(2750);
    expect(reconnectDelay(code, 0, () => 0.999)).toBeGreaterThan(4990);
    expect(reconnectDelay(code, 0, () => 0.999)).toBeLessThan(5000);
    // Later attempts keep backing off beyond it.
    expect(reconnectDelay(code, 10, () => 1)).toBe(30_000);
  }
});

it('a tab told to reconnect with 1012 comes back after a jitter, not at once, and fetches what it missed', async () => {
  let reconnects = 0;
  const stop = onRealtimeReconnect(() => reconnects++);
  const before = sockets.length;
  startRealtime(endpoint);
  await until(() => sockets.length === before + 1 && sockets[before].readyState === WebSocket.OPEN);
  const closedAt = Date.now();
  sockets[before].close(1012, 'server restarting');
  await until(() => sockets.length === before + 2, 8000);
  const waited = Date.now() - closedAt;
  expect(waited).toBeGreaterThanOrEqual(500);
  expect(waited).toBeLessThan(6000);
  await until(() => reconnects === 1);
  stop();
  stopRealtime();
});

it('a chat.send waits for its ack or nack, is sent again after a reconnect, and gives up in time', async () => {
  const frame = (clientId: string) => ({ clientId, roomId: 'r', content: 'Ciao' });
  // No socket: the caller goes by HTTP at once.
  await expect(sendChatFrame(frame('c0'))).rejects.toBeInstanceOf(RealtimeUnavailable);

  const before = sockets.length;
  startRealtime(endpoint);
  await until(() => sockets.length === before + 1 && sockets[before].readyState === WebSocket.OPEN);
  // Open on the client's side too: the server may see the socket open first, and a frame sent
  // before the client's does is refused (under load, a CI flake).
  await until(() => sendRealtime({ type: 'subscribe', topic: 'ready' }));
  const sentOn = (socket: number, clientId: string) =>
    received.filter((r) => r.socket === socket && r.frame.clientId === clientId);

  // Answered by chat.ack with its client id (another id's answer does not settle it).
  const acked = sendChatFrame(frame('c1'));
  await until(() => sentOn(before, 'c1').length === 1);
  expect(sentOn(before, 'c1')[0].frame).toEqual({ type: 'chat.send', ...frame('c1') });
  sockets[before].send(JSON.stringify({ type: 'chat.ack', clientId: 'other', message: {} }));
  sockets[before].send(JSON.stringify({ type: 'chat.ack', clientId: 'c1', message: { id: 'm1' } }));
  expect(await acked).toEqual({ type: 'chat.ack', clientId: 'c1', message: { id: 'm1' } });

  const nacked = sendChatFrame(frame('c2'));
  await until(() => sentOn(before, 'c2').length === 1);
  const nack = { type: 'chat.nack', clientId: 'c2', status: 403, code: 'forbidden', message: 'No' };
  sockets[before].send(JSON.stringify(nack));
  expect(await nacked).toEqual(nack);

  // Unanswered when the socket drops: sent again, same id, on the next socket.
  const resent = sendChatFrame(frame('c3'));
  await until(() => sentOn(before, 'c3').length === 1);
  sockets[before].terminate();
  await until(() => sockets.length === before + 2, 3000);
  await until(() => sentOn(before + 1, 'c3').length === 1);
  sockets[before + 1].send(JSON.stringify({ type: 'chat.ack', clientId: 'c3', message: {} }));
  expect((await resent).type).toBe('chat.ack');

  // No answer in time: RealtimeUnavailable, and a late ack changes nothing.
  const late = sendChatFrame(frame('c4'), 200);
  await expect(late).rejects.toBeInstanceOf(RealtimeUnavailable);
  sockets[before + 1].send(JSON.stringify({ type: 'chat.ack', clientId: 'c4', message: {} }));

  // Signing out abandons what still waits.
  const abandoned = sendChatFrame(frame('c5'));
  stopRealtime();
  await expect(abandoned).rejects.toBeInstanceOf(RealtimeUnavailable);
});
