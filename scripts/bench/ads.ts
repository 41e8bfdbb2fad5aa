/**
 * npm run bench:ads — what serving a sponsored slot adds to a library page, on PostgreSQL with
 * the library benchmark's data (issue 4: BENCH_LISTINGS listings, default 100,000) and
 * BENCH_ADS advertisements (default 2,000: 60% running, across the genres, with keywords and
 * today's counters, some at their daily budget).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench npm run bench:ads
 *
 * Starts the server (src/server/main.ts) as a child process and, one request at a time (so the
 * figures are latencies, not queueing), for each query of the library's mix with the slot's
 * context (same genre and search words): (a) the library request alone, (b) the slot request
 * alone, (c) both at once, as the library page sends them, and (d) GET /api/health, the cost of
 * any request on this machine at that moment. BENCH_ROUNDS (5) passes over the mix.
 * Also prints what the one query behind the slots costs in PostgreSQL (EXPLAIN ANALYZE): it reads
 * the running ads into each process's memory once per ADS_SERVING_CACHE_MS.
 */
import 'dotenv/config';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openPostgres } from '../../src/server/db/client';
import { migrate } from '../../src/server/db/migrate';
import { AD_GENRES } from '../../src/shared/schemas/ads';
import { apiPath, queryMix } from './lib/mix';
import { seed } from './lib/seed';
import { BOOKS_CSV, ensureDatabase, startServer } from './lib/server';
import { percentile } from './lib/stats';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const ADS = Number(process.env.BENCH_ADS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const AIM_MS = 2;

/** The ads' keywords (30: the seed below picks by `g % 30`), one space or line between. */
const WORDS = `harry dragon love war night king girl magic murder detective space robot history rome
  milan paris london family summer sea poetry cooking travel music art science business health
  faith mind`.split(/\s+/);

/** BENCH_ADS ads by the benchmark's sellers, once; today's counters are rewritten every run. */
async function seedAds(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from book_advertisements where title like 'Bench ad %'`,
    );
    if (rows[0].n < ADS) {
      await client.query(
        `insert into book_advertisements (author_id, title, description, genre, keywords, status,
           daily_budget, total_budget, start_date, end_date, average_rating, review_count)
         select 'bench-' || (1 + g % 2000), 'Bench ad ' || g, 'A book worth reading.',
           ($2::text[])[1 + g % 25],
           array[($3::text[])[1 + g % 30], ($3::text[])[1 + (g * 7) % 30], ($3::text[])[1 + (g * 13) % 30]],
           case when g % 10 < 6 then 'active' when g % 10 < 8 then 'paused' else 'draft' end,
           case when g % 3 = 0 then 0 else 5 end, case when g % 4 = 0 then 0 else 200 end,
           case when g % 7 = 0 then current_date + 3 else current_date - 20 end,
           case when g % 11 = 0 and g % 7 <> 0 then current_date - 1 else null end,
           round((3 + (g % 20) / 10.0)::numeric, 2), g % 40
         from generate_series($1::int + 1, $4::int) g`,
        [rows[0].n, AD_GENRES, WORDS, ADS],
      );
    }
    // Today's counters: impressions spread out, and about one ad in eight at its daily budget.
    await client.query(
      `insert into ad_daily_stats (ad_id, day, impressions, clicks, conversions)
       select id, current_date, (abs(hashtext(id::text)) % 400),
         case when abs(hashtext(id::text)) % 8 = 0 then 25 else abs(hashtext(id::text)) % 10 end, 0
       from book_advertisements where title like 'Bench ad %'
       on conflict (ad_id, day) do update set impressions = excluded.impressions,
         clicks = excluded.clicks`,
    );
    await client.query('analyze book_advertisements; analyze ad_daily_stats');
  } finally {
    await client.end();
  }
}

/** The slot's context as the library page sends it: the same genre and search words. */
function slotPath(libraryQuery: string): string {
  const params = new URLSearchParams(libraryQuery);
  const slot = new URLSearchParams({ placement: 'library' });
  if (params.get('genre')) slot.set('genre', params.get('genre')!);
  if (params.get('q')) slot.set('q', params.get('q')!);
  return `/api/ads/slot?${slot}`;
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return performance.now() - started;
}

const fmt = (n: number) => `${n.toFixed(2)} ms`.padStart(10);
function line(label: string, values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  console.log(
    `  ${label.padEnd(34)}${fmt(percentile(sorted, 50))}${fmt(percentile(sorted, 95))}${fmt(mean)}`,
  );
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean };
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log('bench:ads measures on PostgreSQL: set DATABASE_URL (see the README). Skipped.');
    return;
  }
  await ensureDatabase(url);
  const database = openPostgres(url, 2);
  await migrate(database);
  await database.close();
  await seed(url, LISTINGS, BOOKS_CSV);
  await seedAds(url);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows: counts } = await client.query<{ listings: number; ads: number; running: number }>(
    `select (select count(*)::int from book_listings) as listings,
       (select count(*)::int from book_advertisements) as ads,
       (select count(*)::int from book_advertisements where status = 'active'
          and (start_date is null or start_date <= current_date)
          and (end_date is null or end_date >= current_date)) as running`,
  );
  console.log(
    `data: ${counts[0].listings.toLocaleString('en')} listings, ${counts[0].ads} ads (${counts[0].running} running); load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const server = await startServer(url, {}, 'scaffale-bench-ads-');
  const base = `http://127.0.0.1:${server.port}`;
  const mix = queryMix();
  const library: number[] = [];
  const slot: number[] = [];
  const page: number[] = [];
  const floor: number[] = [];
  try {
    // Warm-up: every query once (plans, caches, connections).
    for (const q of mix) {
      await timed(base + apiPath(q));
      await timed(base + slotPath(q));
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const q of mix) {
        library.push(await timed(base + apiPath(q)));
        slot.push(await timed(base + slotPath(q)));
        const started = performance.now();
        await Promise.all([timed(base + apiPath(q)), timed(base + slotPath(q))]);
        page.push(performance.now() - started);
        floor.push(await timed(`${base}/api/health`));
      }
    }
  } finally {
    await server.stop();
  }

  console.log(`\n${library.length} requests each, one at a time           p50       p95      mean`);
  const lib = line('library (GET /api/listings)', library);
  const ad = line('slot (GET /api/ads/slot)', slot);
  const both = line('library + slot at once (the page)', page);
  line('floor: GET /api/health (select 1)', floor);
  console.log(
    `\n  the page with its slot vs the library alone: +${(both.p50 - lib.p50).toFixed(2)} ms at p50, +${(both.p95 - lib.p95).toFixed(2)} ms at p95`,
  );
  console.log(
    `  the slot request on its own: ${ad.p50.toFixed(2)} ms at p50 (aim: at most ${AIM_MS} ms added) → ${
      both.p50 - lib.p50 <= AIM_MS ? 'met' : 'NOT met'
    }`,
  );

  // The one query behind the slots: reading the running ads, once per ADS_SERVING_CACHE_MS.
  const explain = await client.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, buffers off)
     select a.id, a.title, a.keywords, u.display_name, coalesce(s.impressions, 0) as impressions
     from book_advertisements a
     join users u on u.id = a.author_id
     left join ad_daily_stats s on s.ad_id = a.id and s.day = current_date
     where a.status = 'active' and (a.start_date is null or a.start_date <= current_date)
       and (a.end_date is null or a.end_date >= current_date)
       and (a.daily_budget = 0 or coalesce(s.clicks, 0) * 0.2 < a.daily_budget)
       and (a.total_budget = 0 or a.click_count * 0.2 < a.total_budget)`,
  );
  const plan = explain.rows.map((r) => r['QUERY PLAN'].trim());
  console.log(
    `\n  reading the running ads (once per ADS_SERVING_CACHE_MS per process): ${plan
      .filter((l) => /^(Planning|Execution) Time/.test(l))
      .join(', ')}`,
  );
  await client.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
