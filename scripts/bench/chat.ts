/**
 * npm run bench:chat — send-to-receive latency of chat messages at the scale of issue 23.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench npm run bench:chat
 *
 * BENCH_SOCKETS members (default 10,000), one socket each, in direct rooms of two; BENCH_RATE
 * messages a second in all (default 1,000) for BENCH_SECONDS (default 15), after BENCH_WARMUP
 * seconds (default 3) at the same rate that are not counted. BENCH_PROCESSES (1 or 2, default 1):
 * Scaffale processes on the same PostgreSQL database, every pair split across them when 2.
 * BENCH_SEND=http (default: POST /api/chats/rooms/:id/messages) or socket (a `chat.send` frame
 * answered by `chat.ack`). BENCH_ABUSER=1: the Scaffale run again with one member flooding frames
 * from 10 sockets beside the same load. BENCH_CPU_PROF=<dir>: the servers write V8 CPU profiles
 * there (node --cpu-prof).
 *
 * Every figure is printed beside a plain `ws` relay's (the floor: no session, no bus, no database)
 * at the same sockets and rate, in the same run, with the load average, the CPU model, the CPU
 * time per message of the server(s) and of PostgreSQL's backends, and the memory each idle socket
 * keeps: the servers run with --expose-gc and report their memory after a full collection
 * (SIGUSR2, see chat-server.ts) before the sockets open and once they are all open and idle; the
 * difference divided by the sockets is printed for RSS, the V8 heap in use, `external` and
 * `arrayBuffers` (Buffers). BENCH_HEAP_SNAPSHOT=<dir>: the servers also write a heap snapshot at
 * both moments (scripts/bench/lib/heap-diff.ts compares two). The load generator (chat-load.ts) and each server (chat-server.ts) run in processes of
 * their own, each with its open-file limit raised (to the hard limit at most).
 */
import 'dotenv/config';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { openPostgres } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import type { LoadPlan } from './chat-load';
import { cpuMs } from './lib/cpu';
import { AUTH_SECRET, ORIGIN, nodeWithFiles, openFileLimit, sessionCookie } from './lib/server';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const PROCESSES = process.env.BENCH_PROCESSES === '2' ? 2 : 1;
const SEND = process.env.BENCH_SEND === 'socket' ? 'socket' : 'http';
const ABUSER = process.env.BENCH_ABUSER === '1';
const CPU_PROF = process.env.BENCH_CPU_PROF;
const HEAP_SNAPSHOT = process.env.BENCH_HEAP_SNAPSHOT;
/** Files a process needs: its sockets, plus room for the pool, logs and HTTP connections. */
const FILES = SOCKETS + 2048;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.log('bench:chat needs a PostgreSQL server: set DATABASE_URL (skipped).');
  process.exit(0);
}

const children: ChildProcess[] = [];
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  return exited;
}
const stopAll = () => Promise.all(children.map(stop));
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});

/** A TypeScript file of this folder in its own process; its JSON lines, one at a time. */
function run(file: string, args: string[], env: Record<string, string>, nodeArgs: string[] = []) {
  const child = nodeWithFiles(`scripts/bench/${file}`, args, env, FILES, nodeArgs);
  children.push(child);
  const lines: unknown[] = [];
  const waiters: ((line: unknown) => void)[] = [];
  let exited: Error | null = null;
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    const waiter = waiters.shift();
    if (waiter) waiter(parsed);
    else lines.push(parsed);
  });
  child.once('exit', (code) => {
    exited = new Error(`${file} exited with ${code}`);
  });
  const next = <T>(): Promise<T> =>
    lines.length
      ? Promise.resolve(lines.shift() as T)
      : new Promise<T>((resolve, reject) => {
          if (exited) return reject(exited);
          waiters.push(resolve as (line: unknown) => void);
          child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
        });
  return { child, next };
}

interface Server {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Its memory after a full garbage collection (SIGUSR2, see chat-server.ts). */
  memory: () => Promise<Memory>;
}

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

async function startServer(kind: 'app' | 'relay'): Promise<Server> {
  const env: Record<string, string> = {
    BENCH_SERVER: kind,
    DATABASE_URL: databaseUrl!,
    AUTH_SECRET,
  };
  if (HEAP_SNAPSHOT) env.BENCH_HEAP_SNAPSHOT = HEAP_SNAPSHOT;
  const prof = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
  const { child, next } = run('chat-server.ts', [], env, ['--expose-gc', ...prof]);
  const { url } = await next<{ url: string }>();
  const memory = async () => {
    child.kill('SIGUSR2');
    return (await next<{ memory: Memory }>()).memory;
  };
  return { url, pid: child.pid!, child, memory };
}

/** The servers' memory added up (each after its own full collection). */
async function memoryOf(servers: Server[]): Promise<Memory> {
  const sum: Memory = { rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
  for (const server of servers) {
    const m = await server.memory();
    for (const key of Object.keys(sum) as (keyof Memory)[]) sum[key] += m[key];
  }
  return sum;
}

/** Members with live sessions, written directly (signing up 10,000 members would take long). */
async function seedMembers(n: number) {
  const database = openPostgres(databaseUrl!, 2);
  await migrate(database);
  const ids = Array.from({ length: n }, (_, i) => `bench-member-${i}`);
  await database.query(
    `insert into users (id, email, email_verified, display_name)
     select id, id || '@bench.local', true, id from unnest($1::text[]) as id
     on conflict (id) do nothing`,
    [ids],
  );
  await database.query(`delete from sessions where user_id like 'bench-member-%'`);
  const tokens = ids.map(() => randomBytes(24).toString('base64url'));
  await database.query(
    `insert into sessions (id, user_id, token, expires_at)
     select 'bench-' || t, u, t, now() + interval '1 day' from unnest($1::text[], $2::text[]) as x(u, t)`,
    [ids, tokens],
  );
  await database.close();
  return ids.map((id, i) => ({ id, cookie: sessionCookie(tokens[i]) }));
}

async function chatsAvailable(url: string, cookie: string) {
  const res = await fetch(`${url}/api/chats/unread`, { headers: { cookie } });
  return res.status === 200;
}

/**
 * The pairs' direct rooms, written directly as the chats module keeps them (`direct_key` 'a:b'
 * with a < b, two participants): 5,000 rooms through the API would take minutes here.
 */
async function directRooms(pairs: LoadPlan['pairs']) {
  const database = openPostgres(databaseUrl!, 1);
  const rows = await database.query<{ id: string; direct_key: string }>(
    `with pairs as (
       select least(a, b) as lo, greatest(a, b) as hi from unnest($1::text[], $2::text[]) as x(a, b)
     ),
     rooms as (
       insert into chat_rooms (is_group, created_by, direct_key)
       select false, lo, lo || ':' || hi from pairs
       on conflict (direct_key) do update set updated_at = chat_rooms.updated_at
       returning id, direct_key
     ),
     joined as (
       insert into chat_participants (room_id, user_id)
       select r.id, u from rooms r, unnest(string_to_array(r.direct_key, ':')) as u
       on conflict do nothing
     )
     select id, direct_key from rooms`,
    [pairs.map((p) => p.a.id), pairs.map((p) => p.b.id)],
  );
  await database.close();
  const byKey = new Map(rows.map((r) => [r.direct_key, r.id]));
  for (const pair of pairs) {
    const [lo, hi] = [pair.a.id, pair.b.id].sort();
    pair.roomId = byKey.get(`${lo}:${hi}`);
    if (!pair.roomId) throw new Error(`no room for ${lo} and ${hi}`);
  }
}

/** PostgreSQL's backends serving the benchmark's database (their pids are local processes). */
async function postgresBackends(): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

type Result = Record<string, unknown> & {
  sockets: number;
  /** Messages the server handled: acknowledged (socket), answered (HTTP), relayed. */
  handled: number;
  total: number;
  sent: number;
  received: number;
  lost: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  /** CPU ms per message handled (warm-up included) of the server(s), PostgreSQL. */
  serverCpu: number;
  postgresCpu: number | null;
  /** Bytes per idle socket of the server(s), after a full collection: resident, V8 heap... */
  perSocket: Memory;
  memoryBefore: Memory;
  memoryAfter: Memory;
};

async function load(plan: LoadPlan, servers: Server[]): Promise<Result> {
  const file = join(mkdtempSync(join(tmpdir(), 'scaffale-bench-')), 'plan.json');
  writeFileSync(file, JSON.stringify(plan));
  const memoryBefore = await memoryOf(servers);
  // The load waits (at most 10 minutes) for SIGUSR2 before sending.
  const { child, next } = run('chat-load.ts', [file], {});
  const { opened } = await next<{ opened: number }>();
  // Memory once every socket is open and idle: the handshakes' last work (presence batches, the
  // first session look-ups) done, then a full collection in each server.
  await new Promise((r) => setTimeout(r, 1500));
  const memoryAfter = await memoryOf(servers);
  child.kill('SIGUSR2');
  await next<{ sending: boolean }>();
  const pids = servers.map((s) => s.pid);
  const serverStart = pids.map(cpuMs);
  // PostgreSQL's backends come and go (the pool closes idle connections): each one's CPU time is
  // read every 500 ms while the load runs, so one that exits keeps what it had used by then.
  const pgStart = new Map<number, number>();
  const pgLast = new Map<number, number>();
  // Backends there at the start count from then; later ones from their own start.
  const sample = async (first = false) => {
    for (const pid of await postgresBackends()) {
      const ms = cpuMs(pid);
      if (!pgStart.has(pid)) pgStart.set(pid, first ? ms : 0);
      if (ms > 0) pgLast.set(pid, ms);
    }
  };
  if (plan.mode !== 'relay') await sample(true);
  const sampling =
    plan.mode !== 'relay' ? setInterval(() => void sample().catch(() => {}), 500) : undefined;
  const result = await next<Result>();
  clearInterval(sampling);
  const serverMs = pids.reduce((sum, pid, i) => sum + cpuMs(pid) - serverStart[i], 0);
  let pgMs: number | null = null;
  if (plan.mode !== 'relay') {
    await sample();
    pgMs = 0;
    for (const [pid, start] of pgStart) pgMs += Math.max(0, (pgLast.get(pid) ?? start) - start);
  }
  await stop(child);
  // Per message the server handled (acknowledged or answered), not per message asked for: a
  // server that falls behind must not look cheaper for the work it never did.
  const acks = Number(result.acks ?? 0);
  const sendErrors = Number(result.sendErrors ?? 0);
  const handled =
    plan.mode === 'socket'
      ? acks
      : plan.mode === 'chats'
        ? result.total - sendErrors
        : result.total;
  return {
    ...result,
    handled,
    serverCpu: serverMs / Math.max(1, handled),
    postgresCpu: pgMs === null ? null : pgMs / Math.max(1, handled),
    memoryBefore,
    memoryAfter,
    perSocket: Object.fromEntries(
      Object.keys(memoryAfter).map((k) => [
        k,
        (memoryAfter[k as keyof Memory] - memoryBefore[k as keyof Memory]) / Math.max(1, opened),
      ]),
    ) as unknown as Memory,
  };
}

const limitNote = (pid: number) => {
  const limit = openFileLimit(pid);
  return limit !== null && limit < FILES
    ? ` (open-file limit ${limit} < ${FILES}: raise it with \`ulimit -Hn ${FILES}\` as root)`
    : '';
};

const load1 = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const cpuModel = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}`;
const all = await seedMembers(SOCKETS - (SOCKETS % 2) + 2);
const abuserSeed = all.pop()!;
all.pop();
const members = all;
const pairsOn = (urls: string[]) =>
  Array.from({ length: members.length / 2 }, (_, i) => ({
    a: { ...members[2 * i], url: urls[0] },
    b: { ...members[2 * i + 1], url: urls[urls.length - 1] },
  })) as LoadPlan['pairs'];
const base = { origin: ORIGIN, rate: RATE, seconds: SECONDS, warmup: WARMUP };

console.log(
  `bench:chat: ${members.length} sockets, ${RATE} messages/s for ${SECONDS} s (+${WARMUP} s warm-up), ` +
    `${PROCESSES} process(es), send over ${SEND}${ABUSER ? ', with an abuser' : ''}`,
);
console.log(`machine: ${cpuModel}; load average before: ${load1()}`);
const rows: [string, Result][] = [];

const relay = await startServer('relay');
console.log(`relay up${limitNote(relay.pid)}`);
rows.push([
  'plain ws relay (floor)',
  await load({ ...base, mode: 'relay', pairs: pairsOn([relay.url]), idleMs: 600_000 }, [relay]),
]);
await stop(relay.child);

const servers: Server[] = [];
for (let i = 0; i < PROCESSES; i++) servers.push(await startServer('app'));
console.log(`Scaffale up (${PROCESSES})${limitNote(servers[0].pid)}; load average ${load1()}`);
const forced = process.env.BENCH_MODE as LoadPlan['mode'] | undefined;
const chats = await chatsAvailable(servers[0].url, members[0].cookie);
const mode: LoadPlan['mode'] =
  forced ?? (!chats ? 'frames' : SEND === 'socket' ? 'socket' : 'chats');
if (!chats && !forced)
  console.log(
    'bench:chat: no chats API here (404): timing the realtime path with bench.ping frames',
  );
const pairs = pairsOn(servers.map((s) => s.url));
if (mode === 'chats' || mode === 'socket') {
  const started = Date.now();
  await directRooms(pairs);
  console.log(`${pairs.length} rooms in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
const label = `${PROCESSES === 2 ? 'two processes' : 'one process'} (${mode === 'chats' ? 'HTTP send' : mode === 'socket' ? 'socket send' : mode})`;
rows.push([label, await load({ ...base, mode, pairs, idleMs: 600_000 }, servers)]);
if (ABUSER) {
  const abuser = { ...abuserSeed, url: servers[0].url, sockets: 10 };
  rows.push([
    `${label}, one abuser flooding`,
    await load({ ...base, mode, pairs, abuser, idleMs: 600_000 }, servers),
  ]);
}
console.log(`load average after: ${load1()}`);
await stopAll();

const f = (x: number | null | undefined, digits = 1) => (x == null ? '–' : x.toFixed(digits));
const kb = (bytes: number) => f(bytes / 1024);
console.log(
  '\n| run | sockets | sent | received | lost | p50 ms | p95 ms | p99 ms | server CPU ms/msg | PostgreSQL CPU ms/msg | RSS KB/idle socket |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const [name, r] of rows) {
  console.log(
    `| ${name} | ${r.sockets} | ${r.sent} | ${r.received} | ${r.lost} | ${f(r.p50, 2)} | ${f(r.p95, 2)} | ${f(r.p99, 2)} | ${f(r.serverCpu, 3)} | ${f(r.postgresCpu, 3)} | ${kb(r.perSocket.rss)} |`,
  );
}
console.log(
  '\nMemory per idle socket, after a full garbage collection (KB; in brackets: the whole process before → with the sockets, MB):',
);
console.log('\n| run | RSS | V8 heap used | V8 heap reserved | external | of which arrayBuffers |');
console.log('|---|---|---|---|---|---|');
const mb = (bytes: number) => f(bytes / 1024 / 1024, 0);
for (const [name, r] of rows) {
  const { perSocket: p, memoryBefore: b, memoryAfter: a } = r;
  console.log(
    `| ${name} | ${kb(p.rss)} (${mb(b.rss)} → ${mb(a.rss)}) | ${kb(p.heapUsed)} (${mb(b.heapUsed)} → ${mb(a.heapUsed)}) | ${kb(p.heapTotal)} (${mb(b.heapTotal)} → ${mb(a.heapTotal)}) | ${kb(p.external)} (${mb(b.external)} → ${mb(a.external)}) | ${kb(p.arrayBuffers)} (${mb(b.arrayBuffers)} → ${mb(a.arrayBuffers)}) |`,
  );
}
for (const [name, r] of rows) {
  const extra = Object.fromEntries(
    Object.entries(r).filter(([k]) =>
      ['sendErrors', 'acks', 'handled', 'nacks', 'abuse', 'sendSeconds'].includes(k),
    ),
  );
  console.log(`${name}: ${JSON.stringify(extra)}`);
}

const app = rows[1][1];
const abused = rows[2]?.[1];
const aims: [string, boolean][] = [];
if (PROCESSES === 1) {
  aims.push(['one process: p95 ≤ 15 ms', app.p95 !== null && app.p95 <= 15]);
  aims.push(['one process: p99 ≤ 50 ms', app.p99 !== null && app.p99 <= 50]);
  aims.push(['one process: every message delivered', app.lost === 0 && app.sent > 0]);
} else {
  aims.push(['two processes: p95 ≤ 30 ms', app.p95 !== null && app.p95 <= 30]);
  aims.push(['two processes: every message delivered', app.lost === 0 && app.sent > 0]);
}
if (abused) {
  aims.push([
    `abuser: p95 ≤ 2 × at rest (${f(abused.p95, 2)} vs ${f(app.p95, 2)} ms)`,
    abused.p95 !== null && app.p95 !== null && abused.p95 <= 2 * app.p95,
  ]);
}
aims.push([
  `RSS < 20 KB per idle socket (${kb(app.perSocket.rss)} KB)`,
  app.perSocket.rss < 20 * 1024,
]);
console.log('\naims:');
for (const [aim, met] of aims) console.log(`  ${met ? 'met    ' : 'MISSED '} ${aim}`);
if (CPU_PROF) console.log(`CPU profiles of the servers: ${CPU_PROF}`);
if (HEAP_SNAPSHOT) console.log(`heap snapshots of the servers: ${HEAP_SNAPSHOT}`);
process.exit(0);
