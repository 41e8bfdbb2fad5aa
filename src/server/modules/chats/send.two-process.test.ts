import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../../test/app';
import { createNullRealtime } from '../../platform/realtime';
import { mustOpen, wait, type TestSocket } from '../../platform/realtime/testing';
import { requester, createMember, type Member } from '../../test/members';

const ORIGIN = 'http://localhost:3000';
const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('two-process chat.send test skipped: TEST_DATABASE_URL is not set');

/** The real app in a process of its own (platform/realtime/test-server.ts), on DATABASE_URL. */
async function startServer(databaseUrl: string) {
  const script = fileURLToPath(new URL('../../platform/realtime/test-server.ts', import.meta.url));
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', script],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, AUTH_SECRET: testConfig().authSecret },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 90_000);
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const msg = JSON.parse(line) as { url?: string };
      if (msg.url) {
        clearTimeout(timer);
        resolve(msg.url);
      }
    });
  });
  return { url, child };
}

/**
 * A tab that reconnects to another process and sends its frame again, while the first copy is
 * still being stored: two server processes on one PostgreSQL database store it once, both
 * sockets get the same ack, and the other member hears of it once.
 */
describe.skipIf(!pgUrl)('chat.send retried across two server processes', () => {
  let t: TestApp;
  let servers: { url: string; child: ChildProcessWithoutNullStreams }[] = [];
  let ann: Member;
  let ben: Member;
  let roomId: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    const database = await createTestDatabase();
    const databaseUrl = String(database.pool!.options.connectionString);
    t = await createTestApp({ database, deps: { realtime: createNullRealtime() } });
    ann = await createMember(t);
    ben = await createMember(t);
    roomId = (await requester(t)('POST', '/api/chats/direct', ann, { userId: ben.id })).json().room
      .id;
    servers = await Promise.all([startServer(databaseUrl), startServer(databaseUrl)]);
  }, 200_000);

  afterAll(async () => {
    for (const s of sockets) s.ws.close();
    for (const server of servers) {
      if (server.child.exitCode !== null) continue;
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
    }
  });

  const open = async (url: string, member: Member) => {
    const socket = await mustOpen(url, { cookie: member.cookie, origin: ORIGIN });
    sockets.push(socket);
    return socket;
  };
  const ackOf = (socket: TestSocket, clientId: string) =>
    socket.next((f) => f.type === 'chat.ack' && f.clientId === clientId, 10_000);

  it('frames with one client id sent to both processes at once store one message', async () => {
    const [one, two] = servers;
    const annOne = await open(one.url, ann);
    const annTwo = await open(two.url, ann);
    const benOne = await open(one.url, ben);
    const benTwo = await open(two.url, ben);
    for (let round = 0; round < 5; round++) {
      const clientId = randomUUID();
      const frame = { type: 'chat.send', clientId, roomId, content: `Giro ${round}` };
      annOne.send(frame);
      annTwo.send(frame);
      const [a, b] = await Promise.all([ackOf(annOne, clientId), ackOf(annTwo, clientId)]);
      expect(a).toEqual(b);
      const rows = await t.database.query(
        'select id from chat_messages where sender_id = $1 and client_id = $2',
        [ann.id, clientId],
      );
      expect(rows).toHaveLength(1);
    }
    await wait(500);
    // Each of Ben's sockets heard each message once.
    for (const socket of [benOne, benTwo]) {
      const heard = socket.frames.filter((f) => f.type === 'chat.message');
      const ids = heard.map((f) => (f.message as { id: string }).id);
      expect(ids).toHaveLength(5);
      expect(new Set(ids).size).toBe(5);
    }
  });

  it('a frame on one process and a POST to the other with the same id store one message', async () => {
    const [one, two] = servers;
    const annOne = await open(one.url, ann);
    const clientId = randomUUID();
    annOne.send({ type: 'chat.send', clientId, roomId, content: 'Frame o POST' });
    const post = await fetch(`${two.url}/api/chats/rooms/${roomId}/messages`, {
      method: 'POST',
      headers: {
        cookie: ann.cookie,
        origin: ORIGIN,
        'content-type': 'application/json',
        'idempotency-key': clientId,
      },
      body: JSON.stringify({ content: 'Frame o POST' }),
    });
    expect([200, 201]).toContain(post.status);
    const ack = await ackOf(annOne, clientId);
    expect(((await post.json()) as { message: unknown }).message).toEqual(ack.message);
    const rows = await t.database.query(
      'select id from chat_messages where sender_id = $1 and client_id = $2',
      [ann.id, clientId],
    );
    expect(rows).toHaveLength(1);
  });
});
