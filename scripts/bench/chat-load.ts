/**
 * The chat benchmark's load generator, in a process of its own (started by scripts/bench/chat.ts
 * with the path of a JSON plan). Opens one socket per member, then sends messages at a steady
 * total rate, round robin over the pairs and alternating the sender inside each pair, and times
 * each from send to arrival on the other member's socket. Prints one JSON line of results.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

interface Member {
  id: string;
  cookie: string;
  url: string;
}
export interface LoadPlan {
  /** frames: bench.ping over the socket; chats: POST a chat message; relay: the plain ws floor. */
  mode: 'frames' | 'chats' | 'relay';
  origin: string;
  rate: number;
  seconds: number;
  /** Seconds sent first at the same rate and left out of the figures (JIT, pools, caches). */
  warmup: number;
  pairs: { a: Member; b: Member; roomId?: string }[];
}

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadPlan;
const sockets = new Map<string, WebSocket>();
const sentAt = new Map<number, number>();
const latencies: number[] = [];
let httpErrors = 0;

function onArrival(receiver: string, raw: string) {
  const event = JSON.parse(raw) as {
    type: string;
    id?: number;
    message?: { content?: string; senderId?: string };
  };
  let id: number | undefined;
  if (event.type === 'bench.pong') id = event.id;
  else if (event.type === 'chat.message' && event.message?.senderId !== receiver) {
    const match = /^bench (\d+)$/.exec(event.message?.content ?? '');
    if (match) id = Number(match[1]);
  }
  if (id === undefined) return;
  const t = sentAt.get(id);
  if (t === undefined) return;
  sentAt.delete(id);
  if (id >= warmupCount) latencies.push(performance.now() - t);
}

function open(member: Member): Promise<void> {
  const url =
    plan.mode === 'relay'
      ? `${member.url.replace(/^http/, 'ws')}/?member=${member.id}`
      : `${member.url.replace(/^http/, 'ws')}/api/realtime`;
  const ws = new WebSocket(url, {
    headers: { cookie: member.cookie },
    origin: plan.origin,
    perMessageDeflate: false,
  });
  sockets.set(member.id, ws);
  ws.on('message', (data) => onArrival(member.id, String(data)));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`handshake refused: ${res.statusCode}`)),
    );
  });
}

async function send(id: number, from: Member, to: Member, roomId?: string) {
  sentAt.set(id, performance.now());
  if (plan.mode === 'chats') {
    const res = await fetch(`${from.url}/api/chats/rooms/${roomId}/messages`, {
      method: 'POST',
      headers: { cookie: from.cookie, origin: plan.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `bench ${id}` }),
    }).catch(() => null);
    if (!res || res.status !== 201) httpErrors++;
    await res?.arrayBuffer();
    return;
  }
  sockets.get(from.id)?.send(JSON.stringify({ type: 'bench.ping', to: to.id, id, t: 0 }));
}

const members = plan.pairs.flatMap((p) => [p.a, p.b]);
for (let i = 0; i < members.length; i += 50) {
  await Promise.all(members.slice(i, i + 50).map(open));
}

const started = performance.now();
let sent = 0;
const warmupCount = Math.round(plan.rate * plan.warmup);
const total = warmupCount + Math.round(plan.rate * plan.seconds);
await new Promise<void>((resolve) => {
  const tick = setInterval(() => {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * plan.rate));
    while (sent < due) {
      const pair = plan.pairs[sent % plan.pairs.length];
      const flip = Math.floor(sent / plan.pairs.length) % 2 === 1;
      void send(sent, flip ? pair.b : pair.a, flip ? pair.a : pair.b, pair.roomId);
      sent++;
    }
    if (sent >= total) {
      clearInterval(tick);
      resolve();
    }
  }, 5);
});
// Stragglers get a few seconds; what has not arrived by then counts as lost.
const deadline = performance.now() + 5000;
while (sentAt.size > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
const measured = sent - warmupCount;

latencies.sort((x, y) => x - y);
const pct = (p: number) =>
  latencies.length
    ? +latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(
        2,
      )
    : null;
process.stdout.write(
  `${JSON.stringify({
    sockets: sockets.size,
    sent: measured,
    received: latencies.length,
    lost: measured - latencies.length,
    httpErrors,
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    max: latencies.length ? +latencies[latencies.length - 1].toFixed(2) : null,
  })}\n`,
);
for (const ws of sockets.values()) ws.terminate();
process.exit(0);
