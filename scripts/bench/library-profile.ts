/**
 * Where the library search's time goes: every search of the benchmark's mix (lib/library-mix.ts,
 * BENCH_MIX_SIZE, 3,000) run once through searchListings straight on PostgreSQL, one at a time,
 * timed, grouped by kind (words, words + price, words + genre, browse, deep page, facets, typo,
 * author...), with each kind's sum of time (what sets throughput) and the slowest searches
 * (what sets p95), and the time per SQL statement shape (which query of a search costs).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_c_bench_1m npx tsx scripts/bench/library-profile.ts
 *
 *   … npx tsx scripts/bench/library-profile.ts --explain 'q=wife&minPrice=5&maxPrice=47'
 *     (EXPLAIN (ANALYZE, BUFFERS) of each statement of that one search, run once before: warm)
 *
 * BENCH_PROFILE_SLOWEST (20), BENCH_PROFILE_PASSES (1: each search once; 2 runs the mix twice and
 * reports the second pass, warm), BENCH_PROFILE_CACHE (1: with the totals cache as the route
 * and the floor have it; 0: none). Prints the load average and the CPU model first: on a shared
 * machine compare kinds within one run, not runs made at different times. PostgreSQL's CPU per
 * search (its own connections' time, from /proc) is printed beside the latencies.
 */
import 'dotenv/config';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { libraryQuerySchema } from '../../src/shared/marketplace';
import { SESSION_OPTIONS, wrapPool, type Database } from '../../src/server/db/client';
import { searchListings, TotalsCache } from '../../src/server/modules/library';
import { cpuMs } from './lib/cpu';
import { libraryMix } from './lib/library-mix';

const SLOWEST = Number(process.env.BENCH_PROFILE_SLOWEST ?? 20);
const PASSES = Number(process.env.BENCH_PROFILE_PASSES ?? 1);
const WITH_CACHE = process.env.BENCH_PROFILE_CACHE !== '0';

/** The kind of a search of the mix, from its parameters. */
export function kindOf(search: string): string {
  const p = new URLSearchParams(search);
  const parts: string[] = [];
  if (p.get('q')) parts.push('words');
  if (p.get('author')) parts.push('author');
  if (!parts.length) parts.push('browse');
  if (p.get('minPrice') || p.get('maxPrice')) parts.push('price');
  if (p.get('genre')) parts.push('genre');
  if (p.get('condition')) parts.push('condition');
  if (p.get('type')) parts.push('type');
  const sort = p.get('sort');
  if (sort) parts.push(sort);
  const page = Number(p.get('page') ?? 1);
  if (page > 1) parts.push(page > 5 ? 'deep page' : 'page 2-5');
  if (p.get('facets')) parts.push('facets');
  return parts.join(' + ');
}

/** The statement's shape: its text without parameters' numbers, cut to a readable head. */
function shapeOf(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').replace(/\$\d+/g, '$').trim();
  if (flat.startsWith('select (') && flat.includes('::text as match')) return 'compile words';
  if (flat.includes('as known')) return 'typo: nearest words';
  if (flat.includes('as sample')) return 'totals: capped count of matches';
  if (flat.startsWith('with m as') && /select count\(\*\)::int as n\b/.test(flat))
    return 'totals: capped count in price';
  if (flat.startsWith('select min(b.low)')) return 'totals: price bounds past the cap';
  if (flat.includes('from listing_counts c where') && flat.includes('as total'))
    return 'totals: counts table';
  if (flat.includes("'all', '', count(*)")) return 'facets: scanned matches';
  if (flat.includes('from listing_counts c') && flat.includes("'genre' as facet"))
    return 'facets: counts table';
  if (flat.includes('matches as materialized') && flat.includes('score')) return 'items: relevance';
  if (flat.includes('matches as materialized')) return 'items: few matches, sorted';
  if (flat.startsWith('with hits as')) return 'items: index order';
  if (flat.includes('user_id = any')) return 'blocked';
  return flat.slice(0, 60);
}

type Timing = { ms: number; statements: number };

function timed(database: Database, byShape: Map<string, number[]>, current: Timing): Database {
  return {
    ...database,
    async query<T>(text: string, params?: unknown[]) {
      const t0 = performance.now();
      try {
        return await database.query<T>(text, params);
      } finally {
        const ms = performance.now() - t0;
        current.statements++;
        const shape = shapeOf(text);
        const list = byShape.get(shape) ?? [];
        list.push(ms);
        byShape.set(shape, list);
      }
    },
  };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : 0;
};
const f1 = (n: number) => n.toFixed(1);

/** EXPLAIN (ANALYZE, BUFFERS) of every statement one search runs (without caches). */
async function explain(base: Database, search: string) {
  const statements: { text: string; params?: unknown[] }[] = [];
  const recording: Database = {
    ...base,
    async query<T>(text: string, params?: unknown[]) {
      statements.push({ text, params });
      return base.query<T>(text, params);
    },
  };
  const query = libraryQuerySchema.parse(Object.fromEntries(new URLSearchParams(search)));
  await searchListings(recording, query);
  for (const { text, params } of statements) {
    console.log(`\n-- ${shapeOf(text)}\n-- params ${JSON.stringify(params ?? [])}`);
    const rows = await base.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${text}`,
      params,
    );
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  // Its own name, so that its connections' CPU is told apart from other work on the database.
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    options: SESSION_OPTIONS,
    application_name: 'library-profile',
  });
  const base = wrapPool(pool);
  const at = process.argv.indexOf('--explain');
  if (at >= 0) {
    console.log(
      `load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    await explain(base, process.argv[at + 1] ?? '');
    await pool.end();
    return;
  }
  const [{ n }] = await base.query<{ n: number }>('select count(*)::int as n from book_listings');
  const [{ shared_buffers }] = await base.query<{ shared_buffers: string }>('show shared_buffers');
  console.log(
    `library profile: ${n.toLocaleString('en')} listings, ${cpus().length} × ${cpus()[0]?.model}, ` +
      `shared_buffers ${shared_buffers}, load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}, totals cache ${WITH_CACHE ? 'on' : 'off'}`,
  );
  const mix = libraryMix();
  const cache = WITH_CACHE ? new TotalsCache() : undefined;
  const backendPids = async () =>
    (
      await base.query<{ pid: number }>(
        `select pid from pg_stat_activity
         where datname = current_database() and application_name = 'library-profile'`,
      )
    ).map((r) => r.pid);
  const cpuBefore = new Map((await backendPids()).map((p) => [p, cpuMs(p)]));
  let results: { search: string; kind: string; ms: number; statements: number }[] = [];
  let byShape = new Map<string, number[]>();
  for (let pass = 1; pass <= PASSES; pass++) {
    results = [];
    byShape = new Map();
    for (const search of mix) {
      const current: Timing = { ms: 0, statements: 0 };
      const database = timed(base, byShape, current);
      const query = libraryQuerySchema.parse(Object.fromEntries(new URLSearchParams(search)));
      const t0 = performance.now();
      await searchListings(database, query, cache);
      current.ms = performance.now() - t0;
      results.push({ search, kind: kindOf(search), ...current });
    }
  }
  const postgresCpu = (await backendPids()).reduce(
    (all, p) => all + cpuMs(p) - (cpuBefore.get(p) ?? 0),
    0,
  );
  const total = sum(results.map((r) => r.ms));
  console.log(
    `PostgreSQL CPU: ${f1(postgresCpu / 1000)} s, ${(postgresCpu / results.length / PASSES).toFixed(2)} ms a search`,
  );
  console.log(
    `${results.length} searches in ${f1(total / 1000)} s: mean ${f1(total / results.length)} ms, ` +
      `p50 ${f1(
        pct(
          results.map((r) => r.ms),
          50,
        ),
      )} ms, p95 ${f1(
        pct(
          results.map((r) => r.ms),
          95,
        ),
      )} ms, max ${f1(Math.max(...results.map((r) => r.ms)))} ms; load average now ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );

  const kinds = new Map<string, number[]>();
  for (const r of results) kinds.set(r.kind, [...(kinds.get(r.kind) ?? []), r.ms]);
  console.log('\nby kind (sum of time, the largest first):');
  console.log('  share   sum ms  count  mean ms  p95 ms   max ms  kind');
  for (const [kind, ms] of [...kinds].sort((a, b) => sum(b[1]) - sum(a[1])).slice(0, 30))
    console.log(
      `  ${f1((100 * sum(ms)) / total).padStart(4)} % ${f1(sum(ms)).padStart(8)} ${String(ms.length).padStart(6)} ` +
        `${f1(sum(ms) / ms.length).padStart(8)} ${f1(pct(ms, 95)).padStart(7)} ${f1(Math.max(...ms)).padStart(8)}  ${kind}`,
    );

  console.log('\nby statement (sum of time; statements run in parallel overlap):');
  console.log('   sum ms  count  mean ms  p95 ms   max ms  statement');
  for (const [shape, ms] of [...byShape].sort((a, b) => sum(b[1]) - sum(a[1])))
    console.log(
      `  ${f1(sum(ms)).padStart(7)} ${String(ms.length).padStart(6)} ${f1(sum(ms) / ms.length).padStart(8)} ` +
        `${f1(pct(ms, 95)).padStart(7)} ${f1(Math.max(...ms)).padStart(8)}  ${shape}`,
    );

  console.log(`\nthe slowest ${SLOWEST}:`);
  for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST))
    console.log(`  ${f1(r.ms).padStart(8)} ms  ${r.statements} statements  ${r.search}`);
  await pool.end();
}

await main();
