/**
 * Ways to count a word search's matches up to the cap (SEARCH_COUNT_CAP + 1), compared on the
 * benchmark's database by the CPU each costs PostgreSQL's connection (from /proc: on a shared
 * machine far steadier than latencies), the ways alternating in rotating order over the mix's
 * word searches without other filters (lib/library-mix.ts):
 * - `prefix, GIN`: today's capped read (the words as prefixes and stems, behind the fence of
 *   decision 0085: GIN's bitmap of every match first);
 * - `whole, GIN`: the same read of the words as whole words and stems (no prefix), a subset;
 * - `whole, RUM`: that read on a RUM index of the stripped search words, as an index scan that
 *   stops at the cap (only when the index book_listings_words_rum exists: made by hand, decision 0096
 *   measured it and did not take it).
 * Prints, per way, the CPU and the wall time summed, and how often the whole words alone reach
 * the cap (then the prefix read is not needed: its total is the cap too).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench_1m npx tsx scripts/bench/library-capped.ts
 *
 * BENCH_CAPPED_SEARCHES (150), BENCH_CAPPED_ROUNDS (3).
 */
import 'dotenv/config';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { SEARCH_COUNT_CAP } from '../../src/shared/marketplace';
import { SESSION_OPTIONS, wrapPool } from '../../src/server/db/client';
import { compileWords, searchWords } from '../../src/server/modules/library';
import { cpuMs } from './lib/cpu';
import { libraryMix } from './lib/library-mix';

const SEARCHES = Number(process.env.BENCH_CAPPED_SEARCHES ?? 150);
const ROUNDS = Number(process.env.BENCH_CAPPED_ROUNDS ?? 3);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const filters = `l.hidden_at is null and l.status = 'available'`;
const WAYS_WHOLE = (q: { whole: string }) => ({
  sql: `select count(*)::int as n from (select l.id from (select l.*, l.ctid from book_listings l
          where l.search_vector @@ $1::tsquery offset 0) l where ${filters}
          limit (select ${SEARCH_COUNT_CAP + 1}::int)) m`,
  params: [q.whole],
});
const WAYS_RUM = (q: { whole: string }) => ({
  sql: `select count(*)::int as n from (select l.id from book_listings l
          where strip(l.search_vector) @@ $1::tsquery and ${filters}
          limit ${SEARCH_COUNT_CAP + 1}) m`,
  params: [q.whole],
  rum: true,
});
const WAYS = {
  'prefix, GIN': (q: { match: string }) => ({
    sql: `select count(*)::int as n from (select l.id from (select l.*, l.ctid from book_listings l
            where l.search_vector @@ $1::tsquery offset 0) l where ${filters}
            limit (select ${SEARCH_COUNT_CAP + 1}::int)) m`,
    params: [q.match],
  }),
  'whole, GIN': (q: { whole: string }) => ({
    sql: `select count(*)::int as n from (select l.id from (select l.*, l.ctid from book_listings l
            where l.search_vector @@ $1::tsquery offset 0) l where ${filters}
            limit (select ${SEARCH_COUNT_CAP + 1}::int)) m`,
    params: [q.whole],
  }),
  'whole, RUM': (q: { whole: string }) => ({
    sql: `select count(*)::int as n from (select l.id from book_listings l
            where strip(l.search_vector) @@ $1::tsquery and ${filters}
            limit ${SEARCH_COUNT_CAP + 1}) m`,
    params: [q.whole],
    rum: true,
  }),
  'whole, then prefix under the cap, GIN': (q: { whole: string }) => ({
    ...WAYS_WHOLE(q),
    then: true,
  }),
  'whole on RUM, then prefix under the cap': (q: { whole: string }) => ({
    ...WAYS_RUM(q),
    then: true,
  }),
} as const;
type Way = keyof typeof WAYS;

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) throw new Error('DATABASE_URL (PostgreSQL) is required');
  const client = new pg.Client({ connectionString: url, options: SESSION_OPTIONS });
  await client.connect();
  const pool = new pg.Pool({ connectionString: url, max: 1, options: SESSION_OPTIONS });
  const database = wrapPool(pool);
  const {
    rows: [{ pid, rum }],
  } = await client.query<{ pid: number; rum: boolean }>(
    `select pg_backend_pid() as pid,
       exists (select 1 from pg_indexes where indexname = 'book_listings_words_rum') as rum`,
  );
  const ways = (Object.keys(WAYS) as Way[]).filter((w) => rum || !w.includes('RUM'));
  const searches = [
    ...new Set(
      libraryMix()
        .map((s) => new URLSearchParams(s))
        .filter((p) => p.get('q') && [...p.keys()].length === 1)
        .map((p) => p.get('q')!),
    ),
  ].slice(0, SEARCHES);
  const compiled = [];
  for (const q of searches) compiled.push(await compileWords(database, searchWords(q)));
  await pool.end();
  console.log(
    `capped counts: ${searches.length} word searches of the mix, ${ROUNDS} rounds, ` +
      `${cpus().length} × ${cpus()[0]?.model.trim()}, load ${load()}`,
  );
  const cpu = Object.fromEntries(ways.map((w) => [w, 0])) as Record<Way, number>;
  const wall = Object.fromEntries(ways.map((w) => [w, 0])) as Record<Way, number>;
  const counts: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, words] of compiled.entries())
      for (let k = 0; k < ways.length; k++) {
        const way = ways[(i + k + round) % ways.length];
        const { sql, params, ...rest } = WAYS[way](words);
        const forced = 'rum' in rest;
        const then = 'then' in rest;
        if (forced)
          await client.query(
            'begin; set local enable_seqscan = off; set local enable_bitmapscan = off',
          );
        const c0 = cpuMs(pid);
        const t0 = performance.now();
        const { rows } = await client.query<{ n: number }>(sql, params);
        let open = forced;
        if (then && rows[0].n <= SEARCH_COUNT_CAP) {
          if (open) await client.query('commit');
          open = false;
          const prefix = WAYS['prefix, GIN'](words);
          rows[0] = (await client.query<{ n: number }>(prefix.sql, prefix.params)).rows[0];
        }
        wall[way] += performance.now() - t0;
        cpu[way] += cpuMs(pid) - c0;
        if (open) await client.query('commit');
        (counts[searches[i]] ??= [])[ways.indexOf(way)] = rows[0].n;
      }
  const reached = Object.values(counts).filter(
    (c) => c[ways.indexOf('whole, GIN')] > SEARCH_COUNT_CAP,
  );
  const prefixCapped = Object.values(counts).filter((c) => c[0] > SEARCH_COUNT_CAP).length;
  const wrong = Object.entries(counts).filter(
    ([, c]) =>
      c[1] > c[0] ||
      (rum && c[2] !== c[1]) ||
      Math.min(c[0], SEARCH_COUNT_CAP + 1) !==
        Math.min(c[ways.indexOf('whole, then prefix under the cap, GIN')], SEARCH_COUNT_CAP + 1),
  );
  console.log('  way            CPU ms (PostgreSQL)   wall ms   per search: CPU ms');
  for (const w of ways)
    console.log(
      `  ${w.padEnd(14)} ${String(cpu[w]).padStart(12)} ${wall[w].toFixed(0).padStart(16)}   ${(cpu[w] / ROUNDS / searches.length).toFixed(2).padStart(8)}`,
    );
  console.log(
    `  prefix matches past the cap: ${prefixCapped} of ${searches.length}; whole words alone past it: ${reached.length}` +
      `; counts that disagree (a subset larger, or RUM ≠ GIN): ${wrong.length}${wrong.length ? ` ${JSON.stringify(wrong.slice(0, 5))}` : ''}`,
  );
  console.log(`  load ${load()} at the end`);
  await client.end();
}

await main();
