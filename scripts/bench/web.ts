/**
 * npm run bench:web — Lighthouse (mobile: Moto G Power profile, simulated slow 4G and 4x CPU
 * slowdown) on /, /library and a book page, against the built server as `npm start` runs it.
 *
 * Builds when the build is stale (scripts/start.mjs decides), seeds the demo data into a fresh
 * temporary DATA_DIR (before the server starts: the embedded database is single-process), starts
 * the server on a free port in its own process and drives the system Chromium from this one.
 * Each page is measured BENCH_RUNS times (default 3) and the median run by performance score is
 * printed. CHROME_PATH overrides /usr/bin/chromium.
 *
 * No figure without the whole page (issue 33): each page is first opened as a phone opens it and
 * must show everything it should (lib/complete-page.ts: every card of the library's page and its
 * page links, the home's shelves and counters, the book's title and price); otherwise the bench
 * says what is missing and exits 1 without measuring.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { incompletePages } from './lib/complete-page';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const AIMS = { score: 95, lcpMs: 2500, cls: 0.1 };
// BENCH_JSON_DIR=dir keeps every run's Lighthouse report (to read the LCP element, its phases and
// the main thread's work); BENCH_PAGES=/library,book measures only the pages named.
const JSON_DIR = process.env.BENCH_JSON_DIR;
const ONLY = process.env.BENCH_PAGES?.split(',').filter(Boolean);

interface Figures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  bytes: number;
  requests: number;
  /** Where the main thread went (Lighthouse's simulated ms): work by kind, and by script. */
  work: Array<[string, number]>;
  scripts: Array<[string, number]>;
  longTasks: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`)),
    );
  });
}

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  // The first start may build the app: allow a few minutes on a loaded machine.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not become healthy');
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART) on a loaded machine: retry. */
async function measureWithRetry(url: string, port: number, save?: string): Promise<Figures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, port, save);
    } catch (err) {
      if (attempt >= 3) throw err;
      console.warn(`bench:web: ${(err as Error).message}; trying again`);
    }
  }
}

async function measure(url: string, port: number, save?: string): Promise<Figures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  if (save) writeFileSync(save, JSON.stringify(lhr));
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = lhr.audits['network-requests']?.details as { items?: unknown[] } | undefined;
  const items = <T>(id: string) =>
    ((lhr.audits[id]?.details as { items?: T[] } | undefined)?.items ?? []) as T[];
  const work = items<{ groupLabel?: string; group: string; duration: number }>(
    'mainthread-work-breakdown',
  ).map((w): [string, number] => [w.group, w.duration]);
  const scripts = items<{ url: string; total: number }>('bootup-time')
    .slice(0, 3)
    .map((b): [string, number] => [b.url.replace(/^https?:\/\/[^/]+/, ''), b.total]);
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    si: value('speed-index'),
    bytes: value('total-byte-weight'),
    requests: requests?.items?.length ?? NaN,
    work,
    scripts,
    longTasks: items('long-tasks').length,
  };
}

function median(runs: Figures[]): Figures {
  const sorted = [...runs].sort((a, b) => a.score - b.score);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'scaffale-bench-web-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    GOOGLE_BOOKS_ENABLED: 'false',
  };
  // The embedded database, always: the figures are about the web app, not a remote server.
  delete env.DATABASE_URL;
  let server: ChildProcess | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    console.log(`bench:web: seeding the demo data into ${dataDir}`);
    await run(process.execPath, ['--import', 'tsx', 'scripts/seed/run.ts'], env);
    server = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitForHealth(base, server);

    const page = (await (await fetch(`${base}/api/listings?pageSize=1`)).json()) as {
      items: Array<{ id: string }>;
    };
    if (!page.items.length) throw new Error('the demo data has no listing');
    const pages = [
      { name: '/', key: 'home', url: `${base}/` },
      { name: '/library', key: 'library', url: `${base}/library` },
      { name: '/library/book/:id', key: 'book', url: `${base}/library/book/${page.items[0].id}` },
    ].filter((p) => !ONLY || ONLY.some((o) => o === p.name || o === p.key));
    if (JSON_DIR) mkdirSync(JSON_DIR, { recursive: true });

    const missing = await incompletePages(CHROME, base, pages);
    if (missing.length) {
      for (const m of missing) console.error(`bench:web: incomplete page ${m}`);
      throw new Error('some pages are not whole: no figures (a fast half page measures nothing)');
    }
    console.log(`bench:web: ${pages.map((p) => p.name).join(', ')} are whole`);

    chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
    const load = loadavg().map((l) => l.toFixed(2));
    const results: Array<{ name: string; figures: Figures }> = [];
    for (const p of pages) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++)
        runs.push(
          await measureWithRetry(
            p.url,
            chrome.port,
            JSON_DIR && join(JSON_DIR, `${p.key}-${i + 1}.json`),
          ),
        );
      results.push({ name: p.name, figures: median(runs) });
      console.log(`bench:web: ${p.name} scores ${runs.map((r) => r.score).join(', ')}`);
    }
    const loadAfter = loadavg().map((l) => l.toFixed(2));

    console.log(
      `\nLighthouse ${RUNS > 1 ? `median of ${RUNS} runs` : '1 run'}, mobile, simulated throttling` +
        ` — ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load average ` +
        `${load.join(' ')} before, ${loadAfter.join(' ')} after`,
    );
    console.table(
      Object.fromEntries(
        results.map(({ name, figures: f }) => [
          name,
          {
            score: f.score,
            FCP: seconds(f.fcp),
            LCP: seconds(f.lcp),
            TBT: `${Math.round(f.tbt)} ms`,
            CLS: f.cls.toFixed(3),
            'Speed Index': seconds(f.si),
            transferred: `${(f.bytes / 1024).toFixed(1)} KB`,
            requests: f.requests,
          },
        ]),
      ),
    );
    // Where the main thread went in each median run: the first place to look for blocking time.
    for (const { name, figures: f } of results) {
      const ms = (pairs: Array<[string, number]>) =>
        pairs.map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', ');
      console.log(`main thread ${name}: ${ms(f.work)}; ${f.longTasks} long tasks`);
      console.log(`  scripts: ${ms(f.scripts)}`);
    }
    let met = true;
    for (const { name, figures: f } of results) {
      const misses = [
        f.score < AIMS.score && `performance ${f.score} < ${AIMS.score}`,
        f.lcp > AIMS.lcpMs && `LCP ${seconds(f.lcp)} > ${seconds(AIMS.lcpMs)}`,
        f.cls > AIMS.cls && `CLS ${f.cls.toFixed(3)} > ${AIMS.cls}`,
      ].filter(Boolean);
      if (misses.length) met = false;
      console.log(
        `${misses.length ? 'MISSED' : 'met   '} ${name}${misses.length ? `: ${misses.join(', ')}` : ''}`,
      );
    }
    console.log(
      met
        ? `bench:web: every page meets the aims (performance >= ${AIMS.score}, LCP <= 2.5 s, CLS <= ${AIMS.cls})`
        : 'bench:web: some aims are missed (see above)',
    );
  } finally {
    await chrome?.kill();
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
