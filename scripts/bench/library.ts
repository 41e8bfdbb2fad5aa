/**
 * npm run bench:library — how fast the library search (GET /api/listings) answers on PostgreSQL,
 * each figure beside its floor: the same queries through searchListings straight on PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench npm run bench:library
 *   … npm run bench:library -- --million   (1,000,000 listings, in scaffale_bench_1m)
 *   … npm run bench:library -- --all       (both sizes)
 *   … npm run bench:library -- --million --seed   (only create, migrate and seed)
 *
 * For each size: creates the database when missing (one per size, so each keeps its data),
 * migrates, seeds once, starts the server (src/server/main.ts) as a child process on a free port,
 * and drives it from other child processes: autocannon for the API (lib/http-load.ts) and
 * searchListings on a pool as large as the server's (lib/direct-load.ts), both over the same
 * mix of thousands of distinct searches (lib/library-mix.ts, BENCH_MIX_SIZE). Two servers: as
 * deployed (with the micro-cache of anonymous answers, PUBLIC_READ_CACHE_MS) and without it
 * (PUBLIC_READ_CACHE_MS=0), which shows what the HTTP path itself costs.
 * Three measures: (a) one request at a time, (b) saturation at 10 and 50 in flight, (c) a steady
 * 100 requests/s. BENCH_SECONDS (10) per closed-loop run, BENCH_RATE_SECONDS (20),
 * BENCH_CONNECTIONS (10,50), BENCH_LISTINGS (100000), BENCH_LOG_LEVEL (warn), BENCH_BOOKS_CSV,
 * DATABASE_POOL_SIZE (10: the server's connections over all its processes, and the floor's),
 * BENCH_WORKERS (server processes, WEB_CONCURRENCY: one per core), PUBLIC_READ_CACHE_MS (2000).
 * Before measuring, the answers are checked: BENCH_CHECK_SIZE (300) searches of the mix answered
 * as deployed and without index-only scans (how the copies per work were counted before decision
 * 0096) must be the same, pages, totals and copies (lib/same-results.ts); the run stops otherwise.
 */
import 'dotenv/config';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPostgres } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { cpuMs, cpuSince } from './lib/cpu';
import { apiPath } from './lib/mix';
import { libraryMix, warmup } from './lib/library-mix';
import { sameResults } from './lib/same-results';
import { seed } from './lib/seed';
import { BOOKS_CSV, ensureDatabase, node, startServer as startMain } from './lib/server';
import type { LoadPlan, LoadResult } from './lib/stats';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 20);
const RATE = 100;
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
/** PostgreSQL connections of the server (over all its processes) and of the floor: the same. */
const POOL = Number(process.env.DATABASE_POOL_SIZE ?? 10);
/** Server processes (WEB_CONCURRENCY), one per core by default, sharing POOL between them. */
const WORKERS = Number(process.env.BENCH_WORKERS ?? cpus().length);
const AIMS = { p50Overhead: 1, throughput: 0.8, p95: { 100_000: 25, 1_000_000: 50 } } as const;

function sizes(): number[] {
  const args = process.argv.slice(2);
  if (args.includes('--all')) return [100_000, 1_000_000];
  if (args.includes('--million')) return [1_000_000];
  return [Number(process.env.BENCH_LISTINGS ?? 100_000)];
}

/** One database per size: the base name for 100,000, with _1m (or _<n>) otherwise. */
function databaseFor(base: string, listings: number): string {
  if (listings === 100_000) return base;
  const url = new URL(base);
  const suffix = listings === 1_000_000 ? '1m' : String(listings);
  url.pathname = `${url.pathname}_${suffix}`;
  return url.toString();
}

interface Server {
  port: number;
  /** The server's processes: the cluster's primary and its workers. */
  pids: number[];
  stop: () => Promise<void>;
}

async function startServer(url: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const server = await startMain(url, {
    DATABASE_POOL_SIZE: String(Math.max(1, Math.floor(POOL / WORKERS))),
    WEB_CONCURRENCY: String(WORKERS),
    ...env,
  });
  const pid = server.child.pid!;
  // Every worker listening: as many answers from distinct processes is not observable, so wait
  // until the primary has forked them all.
  const children = () => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .trim()
        .split(' ')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  for (let i = 0; WORKERS > 1 && children().length < WORKERS && i < 100; i++)
    await new Promise((r) => setTimeout(r, 200));
  return { port: server.port, pids: [pid, ...children()], stop: server.stop };
}

async function runWorker(file: string, args: string[], url: string): Promise<LoadResult> {
  const child = node(file, args, { DATABASE_URL: url });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = out.trim().split('\n').at(-1);
  if (code !== 0 || !line) throw new Error(`${file} failed (exit ${code}): ${out}`);
  return JSON.parse(line) as LoadResult;
}

/** Server processes of PostgreSQL connected to the database at url (but the asker's own). */
async function backends(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** The API under load, with the CPU each request cost the server and its PostgreSQL connections. */
async function api(server: Server, url: string, plan: LoadPlan): Promise<LoadResult> {
  // The warm-up searches first, as the floor's worker does: both start with warm caches.
  for (const q of warmup(libraryMix()))
    await (await fetch(`http://127.0.0.1:${server.port}${apiPath(q)}`)).text();
  const before = new Map((await backends(url)).map((p) => [p, cpuMs(p)]));
  const serverCpu = cpuSince(server.pids);
  const r = await runWorker(
    'scripts/bench/lib/http-load.ts',
    [String(server.port), JSON.stringify(plan)],
    url,
  );
  const serverMs = serverCpu();
  // Connections the pool opened during the run count from their start.
  const postgresMs = (await backends(url)).reduce(
    (sum, p) => sum + cpuMs(p) - (before.get(p) ?? 0),
    0,
  );
  r.cpu = {
    self: r.cpu?.self ?? NaN,
    server: serverMs / r.requests,
    postgres: postgresMs / r.requests,
  };
  return r;
}
const floor = (url: string, plan: LoadPlan) =>
  runWorker('scripts/bench/lib/direct-load.ts', [JSON.stringify({ pool: POOL, ...plan })], url);

const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(10);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
function row(label: string, r: LoadResult) {
  const rps = (r.requests / r.seconds).toFixed(0).padStart(6);
  const cpu = (n?: number) => (n === undefined ? '' : n.toFixed(2)).padStart(7);
  console.log(
    `  ${label.padEnd(34)}${rps}${ms(r.p50)}${ms(r.p95)}${ms(r.p99)}${ms(r.max)}${String(r.errors).padStart(7)}` +
      `${cpu(r.cpu?.self)}${cpu(r.cpu?.server)}${cpu(r.cpu?.postgres)}`,
  );
}
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

async function benchmark(url: string, listings: number) {
  await ensureDatabase(url, true);
  const database = openPostgres(url, 2);
  let version: string;
  let counts: { total: number; available: number };
  let memory: { buffers: string; listings: string; indexes: string; whole: string };
  try {
    await migrate(database);
    await seed(url, listings, BOOKS_CSV);
    [{ version }] = await database.query<{ version: string }>(
      "select current_setting('server_version') as version",
    );
    [counts] = await database.query<{ total: number; available: number }>(
      `select count(*)::int as total, count(*) filter (where status = 'available')::int as available
       from book_listings`,
    );
    // shared_buffers is server-wide and needs a restart: stated, never changed here.
    [memory] = await database.query<typeof memory>(
      `select current_setting('shared_buffers') as buffers,
         pg_size_pretty(pg_table_size('book_listings')) as listings,
         pg_size_pretty(pg_indexes_size('book_listings')) as indexes,
         pg_size_pretty(pg_database_size(current_database())) as whole`,
    );
  } finally {
    await database.close();
  }

  if (process.argv.includes('--seed')) return;
  const cpu = cpus();
  console.log(`\n=== ${listings.toLocaleString('en')} listings ===`);
  console.log(`machine   ${cpu.length} × ${cpu[0]?.model.trim()}, Node ${process.version}`);
  console.log(`          PostgreSQL ${version} at ${new URL(url).host}${new URL(url).pathname}`);
  console.log(
    `data      ${counts.total.toLocaleString('en')} listings (${counts.available.toLocaleString('en')} available)`,
  );
  console.log(
    `memory    shared_buffers ${memory.buffers} (server-wide, not changed: a restart is needed); ` +
      `book_listings ${memory.listings} + indexes ${memory.indexes}, database ${memory.whole}; ` +
      `the rest is served from the OS page cache (${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM)`,
  );
  console.log(`mix       ${libraryMix().length} distinct searches (lib/library-mix.ts)`);
  console.log(
    `server    ${WORKERS} process(es) (WEB_CONCURRENCY), ${POOL} PostgreSQL connections in all, as the floor's pool`,
  );
  console.log(`load avg  ${load()} at start (1, 5, 15 min)`);

  // The answers first: the same as deployed and without index-only scans (decision 0096).
  const check = await sameResults(
    url,
    libraryMix().slice(0, Number(process.env.BENCH_CHECK_SIZE ?? 300)),
  );
  if (check.unsteady.length)
    console.log(
      `answers   ${check.unsteady.length} searches differ between two asks without index-only scans too: ` +
        check.unsteady.join(', '),
    );
  if (check.differing.length) {
    console.log(
      `answers   ${check.differing.length} of ${check.searches} searches differ from their answers without index-only scans:`,
    );
    for (const search of check.differing.slice(0, 10)) console.log(`          ${search}`);
    throw new Error('the answers changed');
  }
  console.log(
    `answers   ${check.searches} searches of the mix: pages, totals and copies the same as without index-only scans`,
  );

  const server = await startServer(url);
  const plain = await startServer(url, { PUBLIC_READ_CACHE_MS: '0' });
  try {
    // Warm the servers' code, both pools and PostgreSQL's cache before measuring.
    await api(server, url, { concurrency: 4, seconds: 3 });
    await api(plain, url, { concurrency: 4, seconds: 3 });
    await floor(url, { concurrency: 4, seconds: 3 });

    const header =
      `  ${''.padEnd(34)} req/s       p50       p95       p99       max errors` +
      '   CPU ms per request: client, server, PostgreSQL';
    console.log(`\na. one request at a time, ${SECONDS} s each`);
    console.log(header);
    const a1 = await floor(url, { concurrency: 1, seconds: SECONDS });
    const a2 = await api(server, url, { concurrency: 1, seconds: SECONDS });
    const a3 = await api(plain, url, { concurrency: 1, seconds: SECONDS });
    row('searchListings alone', a1);
    row('API (HTTP, 1 connection)', a2);
    row('API without micro-cache', a3);
    for (const [label, r] of [
      ['API', a2],
      ['without micro-cache', a3],
    ] as const) {
      const overhead = r.p50 - a1.p50;
      console.log(
        `  ${label} p50 − floor p50 = ${overhead.toFixed(2)} ms (aim ≤ ${AIMS.p50Overhead} ms): ${verdict(overhead <= AIMS.p50Overhead)}`,
      );
    }

    for (const n of CONNECTIONS) {
      console.log(`\nb. saturation, ${n} in flight, ${SECONDS} s each`);
      console.log(header);
      const b1 = await floor(url, { concurrency: n, seconds: SECONDS, start: n });
      const b2 = await api(server, url, { concurrency: n, seconds: SECONDS, start: n });
      const b3 = await api(plain, url, { concurrency: n, seconds: SECONDS, start: n });
      row(`PostgreSQL alone (pool of ${Math.min(n, POOL)})`, b1);
      row(`API (${n} connections)`, b2);
      row(`API without micro-cache`, b3);
      for (const [label, r] of [
        ['API', b2],
        ['without micro-cache', b3],
      ] as const) {
        const ratio = r.requests / r.seconds / (b1.requests / b1.seconds);
        console.log(
          `  ${label} / floor = ${(ratio * 100).toFixed(0)} % (aim ≥ ${AIMS.throughput * 100} %): ${verdict(ratio >= AIMS.throughput)}`,
        );
      }
    }

    console.log(`\nc. steady ${RATE} requests/s, ${RATE_SECONDS} s each`);
    console.log(header);
    const c1 = await floor(url, { concurrency: 20, seconds: RATE_SECONDS, rate: RATE });
    const c2 = await api(server, url, { concurrency: 20, seconds: RATE_SECONDS, rate: RATE });
    const c3 = await api(plain, url, { concurrency: 20, seconds: RATE_SECONDS, rate: RATE });
    row(`PostgreSQL alone (pool of ${POOL})`, c1);
    row('API', c2);
    row('API without micro-cache', c3);
    const aim = AIMS.p95[listings as keyof typeof AIMS.p95];
    if (aim)
      for (const [label, r] of [
        ['API', c2],
        ['without micro-cache', c3],
      ] as const)
        console.log(
          `  ${label} p95 ${ms(r.p95).trim()} (aim ≤ ${aim} ms): ${verdict(r.p95 <= aim)}`,
        );

    console.log('\nslowest queries straight on PostgreSQL (median, one at a time):');
    const slowest = Object.entries(a1.perQuery ?? {})
      .sort((x, y) => y[1] - x[1])
      .slice(0, 8);
    for (const [q, t] of slowest) console.log(`  ${ms(t)}  ${q}`);
  } finally {
    await server.stop();
    await plain.stop();
  }
  console.log(`\nload avg  ${load()} at end (other work on the machine inflates every figure)`);
}

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base?.startsWith('postgres')) {
    console.error(
      'Set DATABASE_URL to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/scaffale_bench',
    );
    process.exit(2);
  }
  if (!existsSync(BOOKS_CSV)) {
    console.log(`skipped: ${fileURLToPath(BOOKS_CSV)} is not there (the goodbooks-10k data set).`);
    return;
  }
  for (const listings of sizes()) await benchmark(databaseFor(base, listings), listings);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
