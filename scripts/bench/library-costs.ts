/**
 * What two parts of issue 35 cost at the benchmark's size (a million listings), straight on
 * PostgreSQL, each beside its floor measured in the same run, the conditions alternating so that
 * the machine's other load falls on both alike:
 *
 * - **ranking**: the relevance page of every word search of the mix (lib/library-mix.ts) whose
 *   matches are under the cap (the searches that are ranked), read three ways from the same
 *   matches: in newest order (the floor: no score), with the score before issue 35 (phrase, title,
 *   title and author, whole words, ts_rank) and with today's (relevanceScore, words.ts: the exact
 *   words of author and titles, the work's other titles); the cost per ranked match.
 * - **works**: inserting listings one at a time with the works trigger (book_listings_work,
 *   migration 0053: the listing's work_id and its work's other titles) against the same inserts
 *   with that trigger disabled (the floor), every other trigger on; for books that have a work
 *   (every listing but a book's first) and for new books (the trigger looks up or creates the
 *   work). Each round in a transaction rolled back: the data is left as it was.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scaffale_bench_1m npx tsx scripts/bench/library-costs.ts
 *
 * BENCH_COST_ROUNDS (4), BENCH_COST_INSERTS (100 per condition and round), BENCH_COST_SEARCHES
 * (400 ranked searches at most).
 */
import 'dotenv/config';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { SEARCH_COUNT_CAP } from '../../src/shared/marketplace';
import { SESSION_OPTIONS, wrapPool, type Database } from '../../src/server/db/client';
import {
  type CompiledWords,
  Filters,
  RANKING_COLUMNS,
  compileWords,
  relevanceScore,
  searchWords,
} from '../../src/server/modules/library';
import { libraryMix } from './lib/library-mix';

const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 4);
const INSERTS = Number(process.env.BENCH_COST_INSERTS ?? 100);
const SEARCHES = Number(process.env.BENCH_COST_SEARCHES ?? 400);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The score before issue 35 (commit 286d9cb's parent): phrase 16, title 4, title+author 2, whole 1, rank. */
function scoreBefore(f: Filters, words: string[], c: { [k: string]: string }) {
  const phrase =
    words.length > 1
      ? `case when ' ' || regexp_replace(lower(immutable_unaccent(l.title)), '[^[:alnum:]]+', ' ', 'g') || ' '
           like '% ' || ${f.param(c.phrase)} || ' %' then 16 else 0 end + `
      : '';
  return `(${phrase}
    case when l.search_vector @@ ${f.param(c.title)}::tsquery then 4
         when l.search_vector @@ ${f.param(c.titleAuthor)}::tsquery then 2 else 0 end
    + case when l.search_vector @@ ${f.param(c.whole)}::tsquery then 1 else 0 end
    + ts_rank('{0.1, 0.2, 0.5, 1.0}', l.search_vector, ${f.param(c.match)}::tsquery, 32))`;
}

/**
 * The score of issue 35 before migration 0059 (commit 8c7b2f9's relevanceScore): the same tiers
 * as today's, the words of the author and titles split with regexp_replace for each match.
 */
function scoreRegexp(f: Filters, words: string[], c: CompiledWords) {
  const wordsOf = (text: string) =>
    `string_to_array(trim(regexp_replace(${text}, '[^[:alnum:]]+', ' ', 'g')), ' ')`;
  const exact = `${f.param(c.exact)}::text[]`;
  const own = 'lower(immutable_unaccent(l.title))';
  const titles = `lower(immutable_unaccent(l.title || chr(10) || coalesce(l.work_titles, '')))`;
  const authorWords = wordsOf(`l.author_norm || ' ' || coalesce(l.author_variants, '')`);
  const phraseIn = (text: string, phrase: string) =>
    `' ' || replace(regexp_replace(${text}, '[^[:alnum:]' || chr(10) || ']+', ' ', 'g'), chr(10), ' ' || chr(10) || ' ') || ' '
       like '% ' || ${phrase} || ' %'`;
  let phrase = '';
  if (words.length > 1) {
    const typed = f.param(c.phrase);
    phrase = `case when ${phraseIn(own, typed)} then 128
                   when ${phraseIn(titles, typed)} then 64 else 0 end + `;
  }
  return `(${phrase}
    case when cardinality(${exact}) = 0 then 0
         when ${authorWords} @> ${exact} then 32
         when (${wordsOf(own)} || ${authorWords}) @> ${exact} then 16
         when (${wordsOf(titles)} || ${authorWords}) @> ${exact} then 8
         else 0 end
    + case when l.search_vector @@ ${f.param(c.title)}::tsquery then 4
         when l.search_vector @@ ${f.param(c.titleAuthor)}::tsquery then 2
         else 0 end
    + case when l.search_vector @@ ${f.param(c.whole)}::tsquery then 1 else 0 end
    + ts_rank('{0.1, 0.2, 0.5, 1.0}', l.search_vector, ${f.param(c.match)}::tsquery, 32))`;
}

async function timedQuery(database: Database, text: string, params: unknown[]) {
  const t0 = performance.now();
  const rows = await database.query<{ n: number; ids: string[] | null }>(text, params);
  return { ms: performance.now() - t0, row: rows[0] };
}

async function ranking(database: Database) {
  const searches = libraryMix()
    .map((s) => new URLSearchParams(s))
    .filter((p) => p.get('q') && ![...p.keys()].some((k) => k !== 'q'))
    .map((p) => p.get('q')!);
  const ways = [
    'newest (floor)',
    'score before issue 35',
    'score, words split (0096)',
    'score now',
  ] as const;
  const times = Object.fromEntries(ways.map((w) => [w, [] as number[]])) as Record<
    (typeof ways)[number],
    number[]
  >;
  let ranked = 0;
  let matches = 0;
  let differing = 0;
  let differingSplit = 0;
  for (const q of searches) {
    if (ranked >= SEARCHES) break;
    const words = searchWords(q);
    const compiled = await compileWords(database, words);
    const statement = (way: (typeof ways)[number]) => {
      const f = new Filters();
      const match = f.param(compiled.match);
      const score =
        way === 'score now'
          ? relevanceScore(f, words, compiled)
          : way === 'score, words split (0096)'
            ? scoreRegexp(f, words, compiled)
            : way === 'score before issue 35'
              ? scoreBefore(f, words, compiled as unknown as Record<string, string>)
              : '0::float8';
      return {
        text: `with m as materialized (
                 select l.id, l.created_at, l.title, l.work_titles, l.author_norm, l.author_variants,
                   ${RANKING_COLUMNS.join(', ')}, l.search_vector
                 from (select l.* from book_listings l where l.search_vector @@ ${match}::tsquery offset 0) l
                 where l.status = 'available' and l.hidden_at is null
                 limit (select ${SEARCH_COUNT_CAP + 1}::int))
               select count(*)::int as n,
                 (select array_agg(r.id) from (select l.id from m l
                   order by ${score} desc, l.created_at desc, l.id desc limit 24) r) as ids
               from m`,
        params: f.params,
      };
    };
    const first = statement('newest (floor)');
    const probe = await timedQuery(database, first.text, first.params);
    if (probe.row.n > SEARCH_COUNT_CAP || probe.row.n === 0) continue;
    ranked++;
    matches += probe.row.n;
    // Each way twice, in a rotating order; the faster of the two kept (the machine's noise is one-sided).
    const pages: Record<string, string> = {};
    for (let pass = 0; pass < 2; pass++)
      for (let i = 0; i < ways.length; i++) {
        const way = ways[(i + ranked + pass) % ways.length];
        const s = statement(way);
        const r = await timedQuery(database, s.text, s.params);
        if (pass === 0) times[way].push(r.ms);
        else times[way][times[way].length - 1] = Math.min(times[way].at(-1)!, r.ms);
        pages[way] = (r.row.ids ?? []).join();
      }
    if (pages['score now'] !== pages['score before issue 35']) differing++;
    // The words kept in the row (migration 0059) must rank exactly as the words split per match.
    if (pages['score now'] !== pages['score, words split (0096)']) {
      differingSplit++;
      console.log(`  DIFFERENT pages for ${JSON.stringify(q)}: stored words against split words`);
    }
  }
  console.log(
    `\nranking: ${ranked} word searches of the mix under the cap, ${matches.toLocaleString('en')} matches in all ` +
      `(mean ${(matches / Math.max(1, ranked)).toFixed(0)}); each way twice, the faster kept; load ${load()}`,
  );
  console.log('  way                           sum ms   median ms   µs per match over the floor');
  const floor = sum(times['newest (floor)']);
  for (const way of ways) {
    const total = sum(times[way]);
    const over = way === 'newest (floor)' ? '' : (((total - floor) * 1000) / matches).toFixed(2);
    console.log(
      `  ${way.padEnd(27)} ${total.toFixed(0).padStart(8)} ${median(times[way]).toFixed(2).padStart(11)}   ${over}`,
    );
  }
  console.log(
    `  first pages that differ between the score before issue 35 and now: ${differing} of ${ranked}`,
  );
  console.log(
    `  first pages that differ between the words split and the words kept: ${differingSplit} of ${ranked}`,
  );
}

async function works(client: pg.Client) {
  const { rows: books } = await client.query<{ id: string; title: string; author: string }>(
    `select id, title, author from books where work_id is not null order by id limit $1`,
    [INSERTS],
  );
  const insert = `insert into book_listings (book_id, user_id, title, author, genre, language,
      listing_type, condition, price, description, status)
    values ($1, 'bench-1', $2, $3, 'fiction', 'en', 'sell', 'good', 9.5, 'Bench copy.', 'available')`;
  const times: Record<string, number[]> = {};
  const add = (key: string, ms: number) => (times[key] ??= []).push(ms);
  for (let round = 0; round < ROUNDS; round++)
    for (const on of round % 2 ? [true, false] : [false, true]) {
      await client.query('begin');
      if (!on) await client.query('alter table book_listings disable trigger book_listings_work');
      for (const [i, b] of books.entries()) {
        // A book that has its work (a listing like most)…
        let t0 = performance.now();
        await client.query(insert, [b.id, b.title, b.author]);
        add(`${on ? 'trigger' : 'floor'}: book with a work`, performance.now() - t0);
        // …and a new book: its first listing looks its work up by title and author, or makes one.
        const {
          rows: [nb],
        } = await client.query<{ id: string }>(
          `insert into books (google_books_id, title, author, authors)
           values ($1, $2, $3, array[$3]) returning id`,
          [`bench-cost-${round}-${i}`, `${b.title} (${round}.${i})`, b.author],
        );
        t0 = performance.now();
        await client.query(insert, [nb.id, `${b.title} (${round}.${i})`, b.author]);
        add(`${on ? 'trigger' : 'floor'}: new book`, performance.now() - t0);
      }
      await client.query('rollback');
    }
  console.log(
    `\nworks trigger: ${ROUNDS} rounds × ${books.length} inserts of each kind, trigger on and off alternating, ` +
      `each round rolled back; load ${load()}`,
  );
  console.log('  inserts                          n    median ms   mean ms');
  for (const [key, ms] of Object.entries(times).sort())
    console.log(
      `  ${key.padEnd(30)} ${String(ms.length).padStart(4)} ${median(ms).toFixed(3).padStart(11)} ${(sum(ms) / ms.length).toFixed(3).padStart(9)}`,
    );
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) throw new Error('DATABASE_URL (PostgreSQL) is required');
  const pool = new pg.Pool({ connectionString: url, max: 2, options: SESSION_OPTIONS });
  const database = wrapPool(pool);
  const [{ n }] = await database.query<{ n: number }>(
    'select count(*)::int as n from book_listings',
  );
  console.log(
    `library costs: ${n.toLocaleString('en')} listings, ${cpus().length} × ${cpus()[0]?.model.trim()}, load ${load()}`,
  );
  const only = process.argv.slice(2);
  if (!only.length || only.includes('--ranking')) await ranking(database);
  if (!only.length || only.includes('--works')) {
    const client = new pg.Client({ connectionString: url, options: SESSION_OPTIONS });
    await client.connect();
    try {
      await works(client);
    } finally {
      await client.end();
    }
  }
  await pool.end();
  console.log(`\nload ${load()} at the end`);
}

await main();
