/**
 * The chat benchmark's load generator, in a process of its own (started by scripts/bench/chat.ts
 * with the path of a JSON plan). Opens one socket per member, prints {"opened"} and waits
 * `idleMs` or until SIGUSR2 (the orchestrator reads the servers' memory then), prints {"sending"}, then sends
 * messages at a steady total rate, round robin over the pairs and alternating the sender inside
 * each pair, and times each from send to arrival on the other member's socket. With an abuser,
 * one more member floods frames from several sockets the whole time (reconnecting when cut off).
 * Prints one JSON line of results last.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

interface Member {
  id: string;
  cookie: string;
  url: string;
}
export interface LoadPlan {
  /**
   * chats: POST a chat message (HTTP send); socket: a `chat.send` frame answered by chat.ack;
   * frames: bench.ping over the socket (the realtime path alone); relay: the plain ws floor.
   */
  mode: 'frames' | 'chats' | 'socket' | 'relay';
  origin: string;
  rate: number;
  seconds: number;
  /** Seconds sent first at the same rate and left out of the figures (JIT, pools, caches). */
  warmup: number;
  /**
   * Quiet time after every socket opened, before sending (ms); ended earlier by SIGUSR2 (the
   * orchestrator sends it once it has read the servers' memory).
   */
  idleMs?: number;
  pairs: { a: Member; b: Member; roomId?: string }[];
  /** One member flooding frames from `sockets` sockets beside the normal load. */
  abuser?: Member & { sockets: number };
}

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadPlan;
const sockets = new Map<string, WebSocket>();
const sentAt = new Map<number, number>();
const latencies: number[] = [];
let sendErrors = 0;
let acks = 0;
const nacks = new Map<string, number>();
const line = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);

function onArrival(receiver: string, raw: string) {
  const event = JSON.parse(raw) as {
    type: string;
    id?: number;
    code?: string;
    status?: number;
    frameType?: string;
    message?: { content?: string; senderId?: string };
  };
  let id: number | undefined;
  if (event.type === 'bench.pong') id = event.id;
  else if (event.type === 'chat.ack') acks++;
  else if (event.type === 'chat.nack' || (event.type === 'error' && event.frameType)) {
    const key = `${event.type} ${event.status} ${event.code ?? event.frameType}`;
    nacks.set(key, (nacks.get(key) ?? 0) + 1);
  } else if (event.type === 'chat.message' && event.message?.senderId !== receiver) {
    const match = /^bench (\d+)$/.exec(event.message?.content ?? '');
    if (match) id = Number(match[1]);
  }
  if (id === undefined) return;
  const t = sentAt.get(id);
  if (t === undefined) return;
  sentAt.delete(id);
  if (id >= warmupCount) latencies.push(performance.now() - t);
}

function connect(member: Member): WebSocket {
  const url =
    plan.mode === 'relay'
      ? `${member.url.replace(/^http/, 'ws')}/?member=${member.id}`
      : `${member.url.replace(/^http/, 'ws')}/api/realtime`;
  return new WebSocket(url, {
    headers: { cookie: member.cookie },
    origin: plan.origin,
    perMessageDeflate: false,
  });
}

function open(member: Member): Promise<void> {
  const ws = connect(member);
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
    if (!res || res.status !== 201) {
      sendErrors++;
      const key = `http ${res?.status ?? 'failed'}`;
      nacks.set(key, (nacks.get(key) ?? 0) + 1);
    }
    await res?.arrayBuffer();
    return;
  }
  const ws = sockets.get(from.id);
  if (!ws || ws.readyState !== ws.OPEN) {
    sendErrors++;
    return;
  }
  if (plan.mode === 'socket') {
    ws.send(
      JSON.stringify({ type: 'chat.send', clientId: randomUUID(), roomId, content: `bench ${id}` }),
    );
    return;
  }
  ws.send(JSON.stringify({ type: 'bench.ping', to: to.id, id, t: 0 }));
}

/** The abuser: every socket sends frames as fast as the event loop lets it; cut off, it comes back. */
const abuse = { frames: 0, closes: 0, refused: 0 };
let abusing = false;
function startAbuser(abuser: NonNullable<LoadPlan['abuser']>) {
  abusing = true;
  const frame = JSON.stringify({ type: 'chat.typing', roomId: randomUUID() });
  const one = () => {
    if (!abusing) return;
    const ws = connect(abuser);
    let timer: NodeJS.Timeout | undefined;
    ws.on('open', () => {
      timer = setInterval(() => {
        for (let i = 0; i < 20 && ws.readyState === ws.OPEN; i++) {
          ws.send(frame);
          abuse.frames++;
        }
      }, 1);
    });
    ws.on('message', () => {});
    ws.on('unexpected-response', () => abuse.refused++);
    ws.on('error', () => {});
    ws.on('close', () => {
      clearInterval(timer);
      abuse.closes++;
      // Straight back, as a hostile client would (a little later when refused outright).
      setTimeout(one, 20);
    });
  };
  for (let i = 0; i < abuser.sockets; i++) one();
}

const members = plan.pairs.flatMap((p) => [p.a, p.b]);
for (let i = 0; i < members.length; i += 100) {
  await Promise.all(members.slice(i, i + 100).map(open));
}
line({ opened: sockets.size });
await new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, plan.idleMs ?? 3000);
  process.once('SIGUSR2', () => {
    clearTimeout(timer);
    resolve();
  });
});
if (plan.abuser) startAbuser(plan.abuser);
line({ sending: true });

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
const sendSeconds = (performance.now() - started) / 1000;
// Stragglers get a few seconds; what has not arrived by then counts as lost.
const deadline = performance.now() + 5000;
while (sentAt.size > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
abusing = false;
const measured = sent - warmupCount;

latencies.sort((x, y) => x - y);
const pct = (p: number) =>
  latencies.length
    ? +latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(
        2,
      )
    : null;
line({
  sockets: sockets.size,
  total: sent,
  sendSeconds: +sendSeconds.toFixed(1),
  sent: measured,
  received: latencies.length,
  lost: measured - latencies.length,
  sendErrors,
  acks,
  nacks: Object.fromEntries(nacks),
  ...(plan.abuser ? { abuse } : {}),
  p50: pct(50),
  p95: pct(95),
  p99: pct(99),
  max: latencies.length ? +latencies[latencies.length - 1].toFixed(2) : null,
});
for (const ws of sockets.values()) ws.terminate();
process.exit(0);
