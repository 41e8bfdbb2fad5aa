/**
 * What listing a book costs with a table of watchers full (wishlist items, saved searches) against
 * with it empty, the benchmarks of issue 9 and issue 22 item 5 (aim: within 2x): the sellers and
 * their sessions, the real app in its own process, the POSTs timed from send to answer, the two
 * conditions alternating in rounds so that the machine's other load falls on both alike, how long
 * after a round's last answer the alerts are all stored, and the floor (the INSERT alone).
 */
import { cpus, loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import type { Database } from '../../../src/server/db/client';
import { AUTH_SECRET, ORIGIN, firstJsonLine, node, sessionCookie } from './server';
import { percentile } from './stats';

/** Sellers take turns (the listings route allows 120 a minute per member). */
export const SELLERS = 60;

/**
 * BENCH_LISTINGS listings timed per condition (default 300, after BENCH_WARMUP uncounted ones,
 * default 30), in BENCH_ROUNDS alternating rounds (default 3).
 */
export const benchConditions = () => ({
  listings: Number(process.env.BENCH_LISTINGS ?? 300),
  warmup: Number(process.env.BENCH_WARMUP ?? 30),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
});

export interface Figures {
  mean: number;
  p50: number;
  p95: number;
  n: number;
}

export function figures(ms: number[]): Figures {
  const sorted = [...ms].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  return { mean, p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length };
}

export const fmt = (f: Figures) =>
  `mean ${f.mean.toFixed(1)} ms, p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms (n=${f.n})`;

export const machine = () =>
  `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

/** The bench's members `<prefix>seller-1..SELLERS` with a session each: their Cookie headers. */
export async function seedSellers(database: Database, prefix: string): Promise<string[]> {
  await database.query(
    `insert into users (id, email, email_verified, display_name)
     select $1::text || 'seller-' || g, $1::text || 'seller-' || g || '@bench.local', true, 'Seller ' || g
     from generate_series(1, $2) g`,
    [prefix, SELLERS],
  );
  const tokens = Array.from({ length: SELLERS }, () => randomBytes(24).toString('base64url'));
  await database.query(
    `insert into sessions (id, user_id, token, expires_at)
     select $2::text || t, $2::text || 'seller-' || i, t, now() + interval '1 day'
     from unnest($1::text[]) with ordinality as x(t, i)`,
    [tokens, prefix],
  );
  return tokens.map(sessionCookie);
}

let server: ChildProcess | undefined;
process.on('exit', () => server?.kill('SIGTERM'));

/** The real app in its own process (chat-server.ts with BENCH_SERVER=app): its URL. */
export async function startApp(databaseUrl: string): Promise<string> {
  server = node('scripts/bench/chat-server.ts', [], {
    BENCH_SERVER: 'app',
    DATABASE_URL: databaseUrl,
    AUTH_SECRET,
  });
  return (await firstJsonLine<{ url: string }>(server, 'server')).url;
}

export function stopApp(): void {
  server?.kill('SIGTERM');
}

/** POSTs `warmup + count` listings one after the other, and times each answer after the warmup. */
export async function postListings(
  url: string,
  cookies: string[],
  count: number,
  warmup: number,
  body: (i: number) => object,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/api/listings`, {
      method: 'POST',
      headers: {
        origin: ORIGIN,
        cookie: cookies[i % cookies.length],
        'content-type': 'application/json',
      },
      body: JSON.stringify(body(i)),
    });
    const elapsed = performance.now() - started;
    if (res.status !== 201)
      throw new Error(`POST /api/listings: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    if (i >= warmup) times.push(elapsed);
  }
  return times;
}

/**
 * The floor: the listing's INSERT alone, from this process. `prepare(i)` reads what the insert
 * needs (not timed) and answers the insert, timed after the warmup.
 */
export async function timeInserts(
  count: number,
  warmup: number,
  prepare: (i: number) => Promise<() => Promise<unknown>>,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const insert = await prepare(i);
    const started = performance.now();
    await insert();
    if (i >= warmup) times.push(performance.now() - started);
  }
  return times;
}

export interface Conditions {
  rounds: number;
  /** Listings timed per condition in all (after `warmup` uncounted ones). */
  listings: number;
  warmup: number;
  /** Empties the table the alerts read (the condition "none"). */
  empty(): Promise<void>;
  /** Fills it; answers how many rows it holds. */
  fill(): Promise<number>;
  /** Lists `count` books starting at book `from` (after `warmup` uncounted ones). */
  list(from: number, count: number, warmup: number): Promise<number[]>;
  /** Deletes the bench's listings and what they caused. */
  clearListings(): Promise<void>;
  /** The alerts stored so far (notifications, matches). */
  told(): Promise<number>;
  /** Keeps the last round's listings (for a measurement of the caller's after the rounds). */
  keepLast?: boolean;
}

/**
 * The two conditions, alternating: per round, books listed with the table empty, then with it
 * full, and how long after the round's last answer the alerts (stored after each answer) are in.
 */
export async function alternate(c: Conditions) {
  const none: number[] = [];
  const full: number[] = [];
  const afterLast: number[] = [];
  let rows = 0;
  let told = 0;
  const perRound = Math.ceil(c.listings / c.rounds);
  const warm = Math.ceil(c.warmup / c.rounds);
  for (let round = 0; round < c.rounds; round++) {
    await c.empty();
    none.push(...(await c.list(round * 1_000, perRound, warm)));
    await c.clearListings();
    rows = await c.fill();
    const before = await c.told();
    full.push(...(await c.list(5_000 + round * 1_000, perRound, warm)));
    const lastAnswer = performance.now();
    let n = await c.told();
    for (let stable = 0; stable < 5;) {
      await new Promise((r) => setTimeout(r, 20));
      const again = await c.told();
      stable = again === n ? stable + 1 : 0;
      n = again;
    }
    afterLast.push(Math.max(0, performance.now() - lastAnswer - 100));
    told += n - before;
    if (!c.keepLast || round < c.rounds - 1) await c.clearListings();
  }
  return {
    none: figures(none),
    full: figures(full),
    rows,
    told,
    listed: (perRound + warm) * c.rounds,
    storedWithin: Math.max(...afterLast),
  };
}

/** The comparison's lines: both conditions, the floor, the ratio. */
export function report(
  what: string,
  r: Awaited<ReturnType<typeof alternate>>,
  floor: Figures,
  c: { listings: number; rounds: number },
  told: string,
): void {
  console.log(
    `listing a book, ${c.listings} POST /api/listings one after the other, in ${c.rounds} alternating rounds:`,
  );
  console.log(`  no ${what}:        ${fmt(r.none)}`);
  console.log(
    `  ${r.rows.toLocaleString('en')} ${what}: ${fmt(r.full)}; ${told}, all stored at most ${r.storedWithin.toFixed(0)} ms after the last answer of a round`,
  );
  console.log(`  floor (INSERT on PostgreSQL alone): ${fmt(floor)}`);
  console.log(
    `  ratio with/without ${what}: mean ${(r.full.mean / r.none.mean).toFixed(2)}x, p50 ${(r.full.p50 / r.none.p50).toFixed(2)}x, p95 ${(r.full.p95 / r.none.p95).toFixed(2)}x (aim: within 2x)`,
  );
}
