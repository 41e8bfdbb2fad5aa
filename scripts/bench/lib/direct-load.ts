/**
 * The floor: the same query mix through searchListings (the function GET /api/listings calls,
 * with its totals cache), straight on PostgreSQL over a pool of `plan.pool` connections (the
 * server's pool size, given by library.ts): no HTTP, no validation, no JSON. Run by library.ts in a process of its own.
 *
 *   tsx scripts/bench/lib/direct-load.ts '<LoadPlan as JSON>'   (DATABASE_URL set)
 *
 * Prints one JSON line (LoadResult with the median per query).
 */
import { libraryQuerySchema } from '../../../src/shared/marketplace';
import pg from 'pg';
import { SESSION_OPTIONS, wrapPool } from '../../../src/server/db/client';
import { searchListings, TotalsCache } from '../../../src/server/modules/library';
import { cpuSince } from './cpu';
import { libraryMix, warmup } from './library-mix';
import { atRate, percentile, summarise, type LoadPlan } from './stats';

const plan = JSON.parse(process.argv[2]) as LoadPlan;
const mix = libraryMix();
const queries = mix.map((q) =>
  libraryQuerySchema.parse(Object.fromEntries(new URLSearchParams(q))),
);
const pooled = plan.pool ?? (plan.rate ? Math.max(plan.concurrency, 20) : plan.concurrency);
// Idle connections stay open (pg closes them after 10 s by default), so the ones followed for
// their CPU time are the ones that serve the run.
const database = wrapPool(
  new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: pooled,
    idleTimeoutMillis: 0,
    // The server's session settings: the same queries, run the same way.
    options: SESSION_OPTIONS,
  }),
);
const cache = new TotalsCache();

const latencies: number[] = [];
const byQuery: number[][] = mix.map(() => []);
let errors = 0;
let next = plan.start ?? 0;

async function one() {
  const i = next++ % mix.length;
  const t0 = performance.now();
  try {
    await searchListings(database, queries[i], cache);
    const ms = performance.now() - t0;
    latencies.push(ms);
    byQuery[i].push(ms);
  } catch {
    errors++;
  }
}

// The warm-up searches first, as library.ts asks the server: both start with warm caches.
for (const q of warmup(mix))
  await searchListings(
    database,
    libraryQuerySchema.parse(Object.fromEntries(new URLSearchParams(q))),
    cache,
  );
// Open the pool's connections first, as the server has them open before it is measured; each
// one's server process is then followed for its CPU time.
const backends = await Promise.all(
  Array.from({ length: pooled }, async () => {
    const [{ pid }] = await database.query<{ pid: number }>(
      'select pg_backend_pid() as pid, pg_sleep(0.05)',
    );
    return pid;
  }),
);
const postgresCpu = cpuSince([...new Set(backends)]);
const selfCpu = process.cpuUsage();
const started = performance.now();
const deadline = started + plan.seconds * 1000;
if (plan.rate) await atRate(plan.rate, started, plan.seconds, one);
else {
  const worker = async () => {
    while (performance.now() < deadline) await one();
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
}
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(selfCpu);
const cpu = {
  self: (used.user + used.system) / 1000 / latencies.length,
  postgres: postgresCpu() / latencies.length,
};
await database.close();

const perQuery: Record<string, number> = {};
mix.forEach((q, i) => {
  const sorted = byQuery[i].sort((a, b) => a - b);
  if (sorted.length) perQuery[q || '(no filter)'] = percentile(sorted, 50);
});
process.stdout.write(
  `${JSON.stringify({ ...summarise(latencies, errors, seconds), cpu, perQuery })}\n`,
);
