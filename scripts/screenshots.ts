/**
 * npm run screenshots — the README's pictures: starts Scaffale on a fresh data folder filled by
 * the demo seed, opens the home page, the library and a book page in Chromium at 375 px (a phone)
 * and 1280 px (a desktop), in English, and writes small JPEGs to docs/screenshots/. Not part of
 * npm test. Needs Chromium (CHROME_PATH or /usr/bin/chromium) and a free port (SCREENSHOTS_PORT,
 * default 3390); builds the app first when the build is missing or older than the sources.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.SCREENSHOTS_PORT ?? 3390);
const base = `http://127.0.0.1:${port}`;
const outDir = join(root, 'docs', 'screenshots');
const dataDir = mkdtempSync(join(tmpdir(), 'scaffale-screenshots-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  // The embedded database, whatever the shell says, and no call to Google Books.
  DATABASE_URL: '',
  GOOGLE_BOOKS_ENABLED: 'false',
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: base,
  LOG_LEVEL: 'warn',
};

/** Each shot: the viewport it is taken at, and the width it is scaled to. */
const DEVICES = [
  { name: 'phone', viewport: { width: 375, height: 740 }, scaleTo: 300 },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, scaleTo: 760 },
] as const;

function run(command: string, args: string[]) {
  const res = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${res.status})`);
}

async function waitForHealth(server: ChildProcess) {
  for (let i = 0; i < 240; i++) {
    if (server.exitCode !== null) throw new Error('the server stopped while starting');
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not answer /api/health in 2 minutes');
}

/** The newest listing whose book the catalogue knows best (a year and an ISBN), else the newest. */
async function aBookPage(): Promise<string> {
  const res = await fetch(`${base}/api/listings?pageSize=60&sort=newest`);
  const { items } = (await res.json()) as { items: { id: string; coverUrl: string | null }[] };
  for (const item of items) {
    const detail = (await (await fetch(`${base}/api/listings/${item.id}`)).json()) as {
      book: { year: number | null; isbn: string | null };
    };
    if (detail.book.year && detail.book.isbn) return `/library/book/${item.id}`;
  }
  return `/library/book/${items[0].id}`;
}

async function shoot(
  browser: Browser,
  path: string,
  name: string,
  ready: (p: Page) => Promise<void>,
) {
  for (const device of DEVICES) {
    const context = await browser.newContext({ viewport: device.viewport, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    // Answer the cookie banner once, as a reader would; it would cover the page otherwise.
    await page.getByRole('button', { name: 'Essential Only' }).click();
    // The choice is stored once the consent tool has loaded: wait for its cookie.
    for (let i = 0; i < 100; i++) {
      if ((await context.cookies()).some((c) => c.name === 'scaffale_consent')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.goto(`${base}${path}`);
    await ready(page);
    // Covers and fonts: every image of the first screen loaded.
    await page.waitForFunction(() =>
      [...document.images].every((img) => img.complete || img.loading === 'lazy'),
    );
    const png = await page.screenshot({ type: 'png' });
    const file = join(outDir, `${name}-${device.name}.jpg`);
    await sharp(png)
      .resize({ width: device.scaleTo })
      .jpeg({ quality: 72, mozjpeg: true })
      .toFile(file);
    console.log(`screenshots: ${file} (${Math.round(statSync(file).size / 1024)} KB)`);
    await context.close();
  }
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  run(process.execPath, ['scripts/build.mjs']);
  run(join(root, 'node_modules', '.bin', 'tsx'), ['scripts/seed/run.ts']);
  const server = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  let browser: Browser | undefined;
  try {
    await waitForHealth(server);
    browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
    });
    await shoot(browser, '/', 'home', async (page) => {
      await page.getByRole('region', { name: 'Just Listed', exact: true }).waitFor();
    });
    await shoot(browser, '/library', 'library', async (page) => {
      await page.getByTestId('book-card').first().waitFor();
    });
    const book = await aBookPage();
    await shoot(browser, book, 'book', async (page) => {
      await page.getByRole('heading', { level: 1 }).waitFor();
    });
  } finally {
    await browser?.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
