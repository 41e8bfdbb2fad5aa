/**
 * The cost of counting rate limits in PostgreSQL rather than in memory (docs/decisions/0061).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench npx tsx scripts/bench/rate-limits.ts
 *
 * 1. The counter alone: BENCH_OPS (default 5,000) `add` calls one after another, then the same
 *    with BENCH_CONCURRENCY (default 32) at a time, on keys spread over 1,000 clients.
 * 2. A rate-limited route through Fastify (inject, no network): the same number of requests with
 *    @fastify/rate-limit's own memory store and with the shared PostgreSQL store.
 * Prints the median and p99 per call and the calls a second.
 */
import 'dotenv/config';
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { openPostgres } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { MemoryCounterStore, type CounterStore } from '../../src/server/platform/rate-limits';
import {
  PostgresCounterStore,
  fastifyRateLimitStore,
} from '../../src/server/platform/rate-limits-store';

const OPS = Number(process.env.BENCH_OPS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('Set DATABASE_URL to a PostgreSQL database (it gets the rate_limits table).');
  process.exit(2);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];

async function measure(label: string, op: (i: number) => Promise<unknown>, concurrency: number) {
  for (let i = 0; i < 200; i++) await op(i); // warm-up
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < OPS) {
        const i = next++;
        const t = performance.now();
        await op(i);
        times.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(46)} median ${quantile(times, 0.5).toFixed(3)} ms  p99 ${quantile(times, 0.99).toFixed(3)} ms  ${Math.round(OPS / seconds)}/s`,
  );
}

const database = openPostgres(url, 10);
await migrate(database);
await database.query('truncate rate_limits');
const stores: [string, CounterStore][] = [
  ['memory', new MemoryCounterStore()],
  ['postgres', new PostgresCounterStore(database)],
];
for (const [name, store] of stores) {
  for (const concurrency of [1, CONCURRENCY]) {
    await measure(
      `counter ${name}, ${concurrency} at a time`,
      (i) => store.add(`bench:${i % 1000}`, 1, 60_000, Date.now()),
      concurrency,
    );
  }
}

for (const name of ['memory', 'postgres']) {
  const app = Fastify();
  await app.register(rateLimit, {
    global: false,
    ...(name === 'postgres'
      ? { store: fastifyRateLimitStore(new PostgresCounterStore(database)) }
      : {}),
  });
  app.post(
    '/limited',
    { config: { rateLimit: { max: 1_000_000, timeWindow: '1 minute' } } },
    async () => ({ ok: true }),
  );
  app.post('/open', async () => ({ ok: true }));
  await app.ready();
  for (const path of name === 'memory' ? ['/open', '/limited'] : ['/limited']) {
    for (const concurrency of [1, CONCURRENCY]) {
      await measure(
        `route ${path} (${path === '/open' ? 'no limit' : name}), ${concurrency} at a time`,
        (i) => app.inject({ method: 'POST', url: path, remoteAddress: `10.0.${i % 250}.${i % 7}` }),
        concurrency,
      );
    }
  }
  await app.close();
}
await database.close();
