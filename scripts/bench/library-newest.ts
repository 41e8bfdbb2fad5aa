/**
 * The newest page of word searches with many matches (decision 0098), two ways from the same
 * searches, straight on PostgreSQL, alternating: along the newest index testing each listing's
 * words (as before 0098: the floor of what a page costs today elsewhere), and from the newest
 * window (library/search/newest.ts, a BitmapAnd of the words' index and the newest index under a
 * time bound from pg_stats). The pages must be the same (it stops otherwise); it prints the time
 * (each way twice, the faster kept) and the shared buffers each read (EXPLAIN (ANALYZE, BUFFERS)).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench_1m npx tsx scripts/bench/library-newest.ts
 *
 * BENCH_NEWEST_SEARCHES (40): word searches of the mix (lib/library-mix.ts) with more matches
 * than the cap.
 */
import 'dotenv/config';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { SEARCH_COUNT_CAP } from '../../src/shared/marketplace';
import { SESSION_OPTIONS, wrapPool, type Database } from '../../src/server/db/client';
import {
  buildFilters,
  compileWords,
  newestPage,
  searchWords,
} from '../../src/server/modules/library';
import { libraryMix } from './lib/library-mix';

const SEARCHES = Number(process.env.BENCH_NEWEST_SEARCHES ?? 40);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

type Plan = { Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } };

/** The database, its statements explained (ANALYZE, BUFFERS) when `explain` is on. */
function explaining(database: Database, state: { explain: boolean; buffers: number }): Database {
  return {
    ...database,
    async query<T>(text: string, params?: unknown[]) {
      if (!state.explain || !text.trimStart().startsWith('with win'))
        return database.query<T>(text, params);
      const [row] = await database.query<{ 'QUERY PLAN': Plan[] }>(
        `explain (analyze, buffers, format json) ${text}`,
        params,
      );
      const plan = row['QUERY PLAN'][0].Plan;
      state.buffers = plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
      return [] as T[];
    },
  } as Database;
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) throw new Error('DATABASE_URL (PostgreSQL) is required');
  const pool = new pg.Pool({ connectionString: url, max: 2, options: SESSION_OPTIONS });
  const database = wrapPool(pool);
  const state = { explain: false, buffers: 0 };
  const windowed = explaining(database, state);
  const [{ n }] = await database.query<{ n: number }>(
    'select count(*)::int as n from book_listings',
  );
  console.log(
    `newest pages: ${n.toLocaleString('en')} listings, ${cpus().length} × ${cpus()[0]?.model.trim()}, load ${load()}`,
  );
  const every = buildFilters({});
  const [{ base }] = await database.query<{ base: number }>(
    `select count(*)::int as base from book_listings l ${every.where()}`,
    every.params,
  );
  const seen = new Set<string>();
  const searches = libraryMix()
    .map((s) => new URLSearchParams(s))
    .filter((p) => p.get('q') && ![...p.keys()].some((k) => k !== 'q' && k !== 'sort'))
    .map((p) => p.get('q')!)
    .filter((q) => !seen.has(q) && !!seen.add(q));
  const times = { index: [] as number[], window: [] as number[] };
  const buffers = { index: [] as number[], window: [] as number[] };
  let used = 0;
  let fallbacks = 0;
  let skipped = 0;
  for (const q of searches) {
    if (used >= SEARCHES) break;
    const words = await compileWords(database, searchWords(q));
    const f = buildFilters({ q, words });
    const [{ matches }] = await database.query<{ matches: number }>(
      `select count(*)::int as matches from book_listings l ${f.where()}`,
      f.params,
    );
    if (matches <= SEARCH_COUNT_CAP) continue;
    const search = { q, words };
    const index = `select l.id from book_listings l ${f.where()}
                   order by l.created_at desc, l.id desc limit 24`;
    const ways = {
      index: async () => (await database.query<{ id: string }>(index, f.params)).map((r) => r.id),
      window: async () =>
        ((await newestPage(database, search, { matches, base }, undefined)) ?? []).map((r) => r.id),
    };
    const pages: Record<string, string> = {};
    for (let pass = 0; pass < 2; pass++)
      for (const way of (used + pass) % 2
        ? (['index', 'window'] as const)
        : (['window', 'index'] as const)) {
        const t0 = performance.now();
        pages[way] = (await ways[way]()).join();
        const ms = performance.now() - t0;
        if (pass === 0) times[way].push(ms);
        else times[way][times[way].length - 1] = Math.min(times[way].at(-1)!, ms);
      }
    if (pages.window === '') {
      times.index.pop();
      times.window.pop();
      skipped++;
      console.log(
        `  ${JSON.stringify(q).padEnd(28)} ${String(matches).padStart(7)} matches  no window (a short walk)`,
      );
      continue;
    }
    if (pages.index !== pages.window) throw new Error(`different pages for ${JSON.stringify(q)}`);
    const [plan] = await database.query<{ 'QUERY PLAN': Plan[] }>(
      `explain (analyze, buffers, format json) ${index}`,
      f.params,
    );
    const p = plan['QUERY PLAN'][0].Plan;
    buffers.index.push(p['Shared Hit Blocks'] + p['Shared Read Blocks']);
    state.explain = true;
    state.buffers = 0;
    await newestPage(windowed, search, { matches, base }, undefined);
    state.explain = false;
    buffers.window.push(state.buffers);
    if (state.buffers > p['Shared Hit Blocks'] + p['Shared Read Blocks']) fallbacks++;
    used++;
    console.log(
      `  ${JSON.stringify(q).padEnd(28)} ${String(matches).padStart(7)} matches  index ${times.index.at(-1)!.toFixed(1).padStart(7)} ms ${String(buffers.index.at(-1)).padStart(6)} buffers   window ${times.window.at(-1)!.toFixed(1).padStart(7)} ms ${String(buffers.window.at(-1)).padStart(6)} buffers`,
    );
  }
  console.log(
    `\n${used} searches past the cap with a window (${skipped} more without: a short walk), the same pages both ways; load ${load()}`,
  );
  console.log('  way                              sum ms   median ms   buffers (median, sum)');
  for (const way of ['index', 'window'] as const)
    console.log(
      `  ${(way === 'index' ? 'along the newest index (before)' : 'newest window (0098)').padEnd(32)} ${sum(times[way]).toFixed(0).padStart(7)} ${median(times[way]).toFixed(2).padStart(11)}   ${median(buffers[way])}, ${sum(buffers[way])}`,
    );
  console.log(`  searches where the window read more buffers than the index: ${fallbacks}`);
  await pool.end();
}

await main();
