/**
 * How fast the suggestions as you type (GET /api/listings/suggest) are found at the server, on
 * PostgreSQL with 100,000 listings (BENCH_LISTINGS), each figure beside its floor:
 *
 *   npx tsx scripts/bench/suggest.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench_suggest … (the default)
 *
 * Creates, migrates and seeds its own database once (lib/seed.ts: goodbooks-10k, 2,000 sellers),
 * then runs suggest() (src/server/modules/library/suggest.ts, what the route runs, without the
 * micro-cache of anonymous answers) for typed texts from one letter to two words, one at a time,
 * BENCH_ROUNDS (30) times each. The floor is one round trip of the same pool (`select 1`), what
 * any query costs. The aim: p95 under 20 ms for every typed text.
 */
import { cpus, loadavg } from 'node:os';
import { openPostgres } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { suggest } from '../../src/server/modules/library';
import { seed } from './lib/seed';
import { BOOKS_CSV, ensureDatabase } from './lib/server';

const URL_ =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scaffale_bench_suggest';
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const AIM_MS = 20;
const TYPED = [
  'a',
  't',
  'th',
  'the',
  'har',
  'harry',
  'harry pot',
  'lord of',
  'tolk',
  'king',
  'gam',
  'perche',
  'ñ',
  'zzqx',
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm
  const out: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}

async function main() {
  await ensureDatabase(URL_, true);
  const database = openPostgres(URL_, 2);
  try {
    await migrate(database);
    await seed(URL_, LISTINGS, BOOKS_CSV);
    // The seed loads without per-row triggers: the terms the trigger would have kept (0037).
    await database.query('select refresh_listing_terms()');
    // Vacuumed as autovacuum would have: the counts read the listings' indexes without the table.
    await database.query('vacuum (analyze) book_listings');
    await database.query('analyze listing_terms');
    await database.query('analyze listing_term_starts');
    const [{ n, terms, starts }] = await database.query<{
      n: number;
      terms: number;
      starts: number;
    }>(
      `select (select count(*) from book_listings where status = 'available')::int as n,
         (select count(*) from listing_terms)::int as terms,
         (select count(*) from listing_term_starts)::int as starts`,
    );
    const loadBefore = loadavg().map((l) => l.toFixed(2));
    const floor = await time(() => database.query('select 1'));
    const rows: Record<string, Record<string, string | number>> = {};
    let worst = 0;
    for (const typed of TYPED) {
      let items = 0;
      const ms = await time(async () => {
        items = (await suggest(database, typed)).items.length;
      });
      worst = Math.max(worst, pct(ms, 95));
      rows[JSON.stringify(typed)] = {
        items,
        'p50 ms': pct(ms, 50).toFixed(2),
        'p95 ms': pct(ms, 95).toFixed(2),
        'max ms': ms.at(-1)!.toFixed(2),
        'floor p50 ms': pct(floor, 50).toFixed(2),
      };
    }
    console.log(
      `\nsuggest: ${n} available listings, ${terms} titles and authors, ${starts} word starts; ${ROUNDS} rounds each, ` +
        `one at a time — ${cpus().length} cores (${cpus()[0]?.model}), load average ` +
        `${loadBefore.join(' ')} before, ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} after`,
    );
    console.table(rows);
    console.log(
      `floor (select 1): p50 ${pct(floor, 50).toFixed(2)} ms, p95 ${pct(floor, 95).toFixed(2)} ms`,
    );
    console.log(
      worst < AIM_MS
        ? `met    every p95 under ${AIM_MS} ms (worst ${worst.toFixed(2)} ms)`
        : `MISSED worst p95 ${worst.toFixed(2)} ms >= ${AIM_MS} ms`,
    );
  } finally {
    await database.close?.();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
