/**
 * A speed figure is worth nothing if the page measured is not the whole page (issue 33: the
 * library drew 16 of its 24 cards and no page links on a first open, and Lighthouse scored the
 * missing work as speed). Before bench:web prints a figure, each page is opened as Lighthouse
 * opens it (a fresh phone-sized browser, nothing cached) and must show all it should:
 * - the library: every card of its first page (min(total, page size) from the API) and the page
 *   links when there is more than one page;
 * - the home: its shelves with cards, and "books available" equal to the library's total;
 * - a book page: its title and price.
 */
import { chromium, type Page } from '@playwright/test';
import { LIBRARY_PAGE_SIZE } from '../../../src/shared/marketplaceConstants';
import { formatCounter } from '../../../src/shared/format';

/** Lighthouse's mobile screen (Moto G Power): what bench:web measures. */
const SCREEN = { width: 412, height: 823 };
const WAIT_MS = 30_000;

async function libraryTotal(base: string): Promise<number> {
  const res = await fetch(`${base}/api/listings?pageSize=${LIBRARY_PAGE_SIZE}`);
  if (!res.ok) throw new Error(`/api/listings answered ${res.status}`);
  return ((await res.json()) as { total: number }).total;
}

/** Polls `read` until it equals `expected` (or the wait is over): the value last read. */
async function settled<T>(read: () => Promise<T>, expected: T): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    value = await read();
  }
  return value;
}

const cards = (page: Page, within = 'body') =>
  page.locator(`${within} [data-testid="book-card"]`).count();

async function libraryMisses(page: Page, base: string): Promise<string[]> {
  const total = await libraryTotal(base);
  const expected = Math.min(total, LIBRARY_PAGE_SIZE);
  await page.getByTestId('library-count').waitFor({ timeout: WAIT_MS });
  const misses: string[] = [];
  const shown = await settled(() => cards(page, 'main ul[aria-label]'), expected);
  if (shown !== expected) misses.push(`${shown} cards of the first page's ${expected}`);
  if (total > LIBRARY_PAGE_SIZE) {
    const links = await settled(() => page.locator('main .mantine-Pagination-root').count(), 1);
    if (links !== 1) misses.push(`no page links for ${total} books`);
  }
  return misses;
}

async function homeMisses(page: Page, base: string): Promise<string[]> {
  const misses: string[] = [];
  const total = await libraryTotal(base);
  const stat = page.getByTestId('stat-booksAvailable');
  const shown = await settled(() => stat.innerText(), formatCounter(total));
  if (shown !== formatCounter(total))
    misses.push(`“${shown}” books available, the library has ${total}`);
  const rows = page.getByTestId('shelf-row');
  await rows
    .first()
    .waitFor({ timeout: WAIT_MS })
    .catch(() => undefined);
  if ((await rows.count()) === 0) misses.push('no shelf');
  else if ((await cards(page, '[data-testid="shelf-row"]')) === 0) misses.push('empty shelves');
  return misses;
}

async function bookMisses(page: Page): Promise<string[]> {
  const misses: string[] = [];
  const title = page.locator('main h1').first();
  const shown = await title.waitFor({ timeout: WAIT_MS }).then(
    () => true,
    () => false,
  );
  if (!shown) misses.push('no title');
  const price = page.getByTestId('detail-price');
  await price.waitFor({ timeout: WAIT_MS }).catch(() => undefined);
  if (!/\d/.test((await price.count()) ? await price.innerText() : '')) misses.push('no price');
  return misses;
}

/**
 * Opens each page in a fresh phone-sized browser and returns what is missing, by page name;
 * an empty list when every page is whole.
 */
export async function incompletePages(
  chrome: string,
  base: string,
  pages: Array<{ name: string; key: string; url: string }>,
): Promise<string[]> {
  const browser = await chromium.launch({
    executablePath: chrome,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const misses: string[] = [];
  try {
    for (const p of pages) {
      const context = await browser.newContext({ viewport: SCREEN, isMobile: true });
      const page = await context.newPage();
      await page.goto(p.url);
      const found =
        p.key === 'library'
          ? await libraryMisses(page, base)
          : p.key === 'home'
            ? await homeMisses(page, base)
            : await bookMisses(page);
      misses.push(...found.map((m) => `${p.name}: ${m}`));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return misses;
}
