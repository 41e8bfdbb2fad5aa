/**
 * One server process of the chat benchmark (scripts/bench/chat.ts starts one or two of these).
 * Prints {"url"} on stdout once listening; stops on SIGTERM.
 *
 *   BENCH_SERVER=app   the real Scaffale app on DATABASE_URL (PostgreSQL: LISTEN/NOTIFY between
 *                      processes). It also answers a `bench.ping` frame {to, id, t} by
 *                      realtime.toUsers([to], {type:'bench.pong', ...}): the realtime path alone
 *                      (socket in, bus, socket out), for when the chats API is not there.
 *                      BENCH_SESSION_CACHE=0 turns the session cache off (before/after).
 *   BENCH_SERVER=relay a plain `ws` server, the floor: a frame {to, ...} is forwarded to the socket
 *                      of member `to` (?member= in the URL), no session, no bus, no database.
 *
 * Either one answers SIGUSR2 with a line {"memory": {rss, heapUsed, heapTotal, external,
 * arrayBuffers}} read after a full garbage collection when started with --expose-gc (the
 * orchestrator reads it before and after opening the sockets); with BENCH_HEAP_SNAPSHOT=<dir> it
 * also writes a heap snapshot there first (named by the number of the probe: 1 idle, 2 with every
 * socket open).
 */
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { WebSocketServer, type WebSocket } from 'ws';
import { loadConfig } from '../../src/server/config';
import { openPostgres } from '../../src/server/db/client';
import { buildApp } from '../../src/server/app';
import { createRealtime } from '../../src/server/platform/realtime';
import { createSessionResolver } from '../../src/server/platform/sessions';
import { createAuth, type Auth } from '../../src/server/platform/auth/instance';
import { createMailer } from '../../src/server/platform/mail';

const write = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);

/**
 * Memory as it settles: garbage collected (twice, so objects freed by finalizers of the first go
 * too) when --expose-gc allows, after the event loop turned, so that RSS growth is what is kept.
 */
let probes = 0;
process.on('SIGUSR2', () => {
  const n = ++probes;
  const gc = (globalThis as { gc?: () => void }).gc;
  setTimeout(() => {
    gc?.();
    setImmediate(() => {
      gc?.();
      const dir = process.env.BENCH_HEAP_SNAPSHOT;
      const snapshot = dir
        ? writeHeapSnapshot(
            join(dir, `${process.env.BENCH_SERVER ?? 'app'}-${process.pid}-${n}.heapsnapshot`),
          )
        : undefined;
      gc?.();
      const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
      write({
        memory: { rss, heapUsed, heapTotal, external, arrayBuffers, gc: Boolean(gc), snapshot },
      });
    });
  }, 100);
});

async function relay() {
  const members = new Map<string, WebSocket>();
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  wss.on('connection', (ws, request) => {
    const member = new URL(request.url ?? '/', 'http://x').searchParams.get('member') ?? '';
    members.set(member, ws);
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { to: string };
      members.get(frame.to)?.send(JSON.stringify({ ...frame, type: 'bench.pong' }));
    });
    ws.on('close', () => members.delete(member));
  });
  await new Promise((r) => wss.once('listening', r));
  write({ url: `http://127.0.0.1:${(wss.address() as { port: number }).port}` });
  process.on('SIGTERM', () => wss.close(() => process.exit(0)));
}

async function app() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const config = loadConfig({
    PORT: '0',
    PUBLIC_URL: 'http://localhost:3000',
    AUTH_SECRET: process.env.AUTH_SECRET,
    DATA_DIR: process.env.DATA_DIR ?? '/tmp/scaffale-bench-data',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
  });
  const database = openPostgres(databaseUrl, 10);
  const realtime = createRealtime({ database, trustedOrigins: config.trustedOrigins });
  realtime.onFrame('bench.ping', async (frame) => {
    const { to, id, t } = frame.data as { to: string; id: number; t: number };
    await realtime.toUsers([to], { type: 'bench.pong', id, t });
  });
  // BENCH_SESSION_CACHE=0: every request resolves its session through better-auth (the "before").
  let sessions: ReturnType<typeof createSessionResolver> | undefined;
  let auth: Auth | undefined;
  if (process.env.BENCH_SESSION_CACHE === '0') {
    auth = createAuth({
      config,
      database,
      mailer: createMailer({ database, from: config.mailFrom }),
    });
    sessions = createSessionResolver({ auth, database });
  }
  const server = await buildApp({ config, database, realtime, sessions, auth });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  await realtime.ready();
  write({ url });
  process.on('SIGTERM', () => {
    void server
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
}

await (process.env.BENCH_SERVER === 'relay' ? relay() : app());
