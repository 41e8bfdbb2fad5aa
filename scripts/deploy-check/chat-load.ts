/**
 * Members chatting at a steady rate through the proxy while something happens to an instance:
 * pairs of members in direct rooms, each member's socket opened through the proxy (round robin:
 * half land on each instance), messages POSTed through the proxy at `rate` a second in all, the
 * sender alternating inside each pair. Then the account: what was acknowledged (201), what each
 * recipient holds (socket and catch-up), what is lost or duplicated.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sessionCookie } from '../bench/lib/server';
import { ChatClient } from './chat-client';
import { ORIGIN } from './cluster';

export interface Member {
  id: string;
  cookie: string;
  /** The session's id (the sessions table's primary key). */
  sessionId: string;
}

/** Verified members with a live session each, written straight into the database. */
export async function seedMembers(client: pg.Client, prefix: string, n: number) {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
  const tokens = ids.map(() => randomBytes(24).toString('base64url'));
  await client.query(
    `insert into users (id, email, email_verified, display_name)
     select id, id || '@deploy-check.local', true, id from unnest($1::text[]) as id`,
    [ids],
  );
  await client.query(
    `insert into sessions (id, user_id, token, expires_at)
     select 's-' || t, u, t, now() + interval '1 day' from unnest($1::text[], $2::text[]) as x(u, t)`,
    [ids, tokens],
  );
  return ids.map((id, i): Member => ({
    id,
    cookie: sessionCookie(tokens[i]),
    sessionId: `s-${tokens[i]}`,
  }));
}

export const json = (cookie: string) => ({
  cookie,
  origin: ORIGIN,
  'content-type': 'application/json',
});

/** The direct room of a and b (created through `baseUrl`). */
export async function directRoom(baseUrl: string, a: Member, b: Member): Promise<string> {
  const res = await fetch(`${baseUrl}/api/chats/direct`, {
    method: 'POST',
    headers: json(a.cookie),
    body: JSON.stringify({ userId: b.id }),
  });
  if (res.status >= 300) throw new Error(`direct room: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { room: { id: string } }).room.id;
}

/** POSTs one message; the answer's status (0: no answer at all) and the stored message's id. */
export async function sendMessage(baseUrl: string, from: Member, roomId: string, content: string) {
  const res = await fetch(`${baseUrl}/api/chats/rooms/${roomId}/messages`, {
    method: 'POST',
    headers: json(from.cookie),
    body: JSON.stringify({ content }),
  }).catch(() => null);
  if (!res) return { status: 0, id: null };
  const body = (await res.json().catch(() => null)) as { message?: { id: string } } | null;
  return { status: res.status, id: body?.message?.id ?? null };
}

interface Pair {
  a: Member;
  b: Member;
  roomId: string;
  clients: Map<string, ChatClient>;
}

export interface LoadReport {
  sent: number;
  acknowledged: number;
  /** Sends answered otherwise than 201, by status (0: no answer). */
  failed: Record<string, number>;
  /** When the latest failed send was started (ms since epoch), 0 when none failed. */
  lastFailedStart: number;
  /** Acknowledged messages some recipient never held. */
  lost: string[];
  /** Messages a recipient got twice over its sockets, or held under two ids. */
  duplicated: string[];
  reconnects: number;
  catchUps: number;
}

/** Opens every member's socket through `proxyUrl`, in rooms of two. */
export async function openPairs(proxyUrl: string, members: Member[]): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (let i = 0; i + 1 < members.length; i += 2) {
    const [a, b] = [members[i], members[i + 1]];
    const roomId = await directRoom(proxyUrl, a, b);
    const clients = new Map(
      [a, b].map((m) => [m.id, new ChatClient(m.id, m.cookie, roomId, proxyUrl)]),
    );
    pairs.push({ a, b, roomId, clients });
  }
  // One at a time, so round robin puts every other socket on the other instance.
  for (const pair of pairs) for (const client of pair.clients.values()) await client.start();
  return pairs;
}

/**
 * Sends `rate` messages a second for `seconds` through the proxy, round robin over the pairs;
 * `at` runs its actions at their times (ms after the start). Then waits up to `settleMs` for every
 * acknowledged message to be held by its recipient, and accounts.
 */
export async function chatUnderLoad(opts: {
  proxyUrl: string;
  pairs: Pair[];
  label: string;
  rate: number;
  seconds: number;
  at?: [number, () => Promise<void> | void][];
  settleMs: number;
}): Promise<LoadReport> {
  const { pairs, rate, seconds } = opts;
  const total = Math.round(rate * seconds);
  const sends: Promise<void>[] = [];
  const acked = new Map<string, { to: ChatClient; id: string }>();
  const failed: Record<string, number> = {};
  let lastFailedStart = 0;
  const actions = (opts.at ?? []).map(([ms, run]) =>
    new Promise((r) => setTimeout(r, ms)).then(run),
  );
  const started = Date.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate));
    for (; sent < due; sent++) {
      const pair = pairs[sent % pairs.length];
      const flip = Math.floor(sent / pairs.length) % 2 === 1;
      const [from, to] = flip ? [pair.b, pair.a] : [pair.a, pair.b];
      const content = `${opts.label} ${sent}`;
      const startedAt = Date.now();
      sends.push(
        sendMessage(opts.proxyUrl, from, pair.roomId, content).then(({ status, id }) => {
          if (status === 201 && id) acked.set(content, { to: pair.clients.get(to.id)!, id });
          else {
            failed[status] = (failed[status] ?? 0) + 1;
            lastFailedStart = Math.max(lastFailedStart, startedAt);
          }
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(sends);
  await Promise.all(actions);
  const clients = pairs.flatMap((p) => [...p.clients.values()]);
  const missing = () =>
    [...acked].filter(([, { to, id }]) => !to.messages.has(id)).map(([content]) => content);
  const deadline = Date.now() + opts.settleMs;
  while (missing().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await Promise.all(clients.map((c) => c.settled().catch(() => {})));

  const duplicated: string[] = [];
  for (const client of clients) {
    for (const [id, times] of client.deliveries)
      if (times > 1) duplicated.push(`${client.id}: ${id} ×${times}`);
    const ids = new Map<string, number>();
    for (const m of client.messages.values()) ids.set(m.content, (ids.get(m.content) ?? 0) + 1);
    for (const [content, n] of ids) if (n > 1) duplicated.push(`${client.id}: «${content}» ×${n}`);
  }
  return {
    sent,
    acknowledged: acked.size,
    failed,
    lastFailedStart,
    lost: missing(),
    duplicated,
    reconnects: clients.reduce((n, c) => n + c.reconnects, 0),
    catchUps: clients.reduce((n, c) => n + c.catchUps, 0),
  };
}
