/**
 * npm run bench:chat — send-to-receive latency of chat messages over the realtime service.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench npm run bench:chat
 *
 * BENCH_SOCKETS members (default 1,000), one socket each, in rooms of two; BENCH_RATE messages a
 * second in all (default 200) for BENCH_SECONDS (default 15), after BENCH_WARMUP seconds (default 3)
 * at the same rate that are not counted. The load generator runs in its own
 * process (chat-load.ts); the servers in theirs (chat-server.ts). Three runs at the same rate:
 *   1. the floor: a plain `ws` relay (no session, no bus, no database);
 *   2. one Scaffale process;
 *   3. two Scaffale processes on the same PostgreSQL database, every pair split across them.
 * Messages are POSTed to the chats API and arrive as 'chat.message' on the other member's socket.
 * Where the chats API is absent (404), or with BENCH_MODE=frames, a `bench.ping` frame sent over
 * the socket is answered by realtime.toUsers: the realtime path alone.
 */
import 'dotenv/config';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import type { LoadPlan } from './chat-load';
import { AUTH_SECRET, ORIGIN, firstJsonLine, node, sessionCookie } from './lib/server';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.log('bench:chat needs a PostgreSQL server: set DATABASE_URL (skipped).');
  process.exit(0);
}

const children: ChildProcess[] = [];
function stopAll() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
process.on('exit', stopAll);

/** A TypeScript file of this folder in its own process (stopped with this one): its first JSON line. */
function run<T>(file: string, args: string[], env: Record<string, string>): Promise<T> {
  const child = node(`scripts/bench/${file}`, args, env);
  children.push(child);
  return firstJsonLine<T>(child, file);
}

const startServer = async (kind: 'app' | 'relay') =>
  (
    await run<{ url: string }>('chat-server.ts', [], {
      BENCH_SERVER: kind,
      DATABASE_URL: databaseUrl,
      AUTH_SECRET,
    })
  ).url;

/** Members with live sessions, written directly (signing up 1,000 members would take minutes). */
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

async function directRooms(url: string, pairs: LoadPlan['pairs']) {
  for (let i = 0; i < pairs.length; i += 10) {
    await Promise.all(
      pairs.slice(i, i + 10).map(async (pair) => {
        const res = await fetch(`${url}/api/chats/direct`, {
          method: 'POST',
          headers: { cookie: pair.a.cookie, origin: ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ userId: pair.b.id }),
        });
        if (res.status >= 300) throw new Error(`direct room: ${res.status} ${await res.text()}`);
        pair.roomId = ((await res.json()) as { room: { id: string } }).room.id;
      }),
    );
  }
}

async function load(plan: LoadPlan) {
  const file = join(mkdtempSync(join(tmpdir(), 'scaffale-bench-')), 'plan.json');
  writeFileSync(file, JSON.stringify(plan));
  return run<Record<string, number | null>>('chat-load.ts', [file], {});
}

const members = await seedMembers(SOCKETS - (SOCKETS % 2));
const rows: [string, Record<string, number | null>][] = [];
const pairsOn = (a: string, b: string) =>
  Array.from({ length: members.length / 2 }, (_, i) => ({
    a: { ...members[2 * i], url: a },
    b: { ...members[2 * i + 1], url: b },
  })) as LoadPlan['pairs'];
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const base = { origin: ORIGIN, rate: RATE, seconds: SECONDS, warmup: WARMUP };

console.log(
  `bench:chat: ${members.length} sockets, ${RATE} messages/s for ${SECONDS} s, load ${loadavg()[0].toFixed(1)}`,
);
const relay = await startServer('relay');
rows.push([
  'plain ws relay (floor)',
  await load({ ...base, mode: 'relay', pairs: pairsOn(relay, relay) }),
]);
stopAll();

const one = await startServer('app');
const forced = process.env.BENCH_MODE as LoadPlan['mode'] | undefined;
const mode = forced ?? ((await chatsAvailable(one, members[0].cookie)) ? 'chats' : 'frames');
if (mode === 'frames' && !forced)
  console.log(
    'bench:chat: no chats API here (404): timing the realtime path with bench.ping frames',
  );
const onePairs = pairsOn(one, one);
if (mode === 'chats') await directRooms(one, onePairs);
rows.push([`one process (${mode})`, await load({ ...base, mode, pairs: onePairs })]);

const two = await startServer('app');
const twoPairs = pairsOn(one, two).map((p, i) => ({ ...p, roomId: onePairs[i].roomId }));
rows.push([`two processes, PostgreSQL (${mode})`, await load({ ...base, mode, pairs: twoPairs })]);
stopAll();

console.log('\n| run | sockets | sent | received | p50 ms | p95 ms | p99 ms | max ms |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, r] of rows) {
  console.log(
    `| ${name} | ${r.sockets} | ${r.sent} | ${r.received} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} |`,
  );
}
console.log(
  `\nload average after: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
process.exit(0);
