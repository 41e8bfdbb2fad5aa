import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, uniqueWord } from './fixtures';
import { dismissCookieBanner, openMember, type OpenMember } from './members';

/**
 * Nothing stale in a browser: a visitor who reloads a book page after the seller marked it sold
 * sees "sold", not the copy their browser kept (public reads are revalidated on every load).
 */

type Language = 'it' | 'en';
const statuses = (language: Language) =>
  (
    JSON.parse(readFileSync(`src/web/locales/${language}.json`, 'utf8')) as {
      statuses: Record<'available' | 'sold', string>;
    }
  ).statuses;

let seller: OpenMember;

test.beforeAll(async ({ browser }) => {
  seller = await openMember(browser, {
    username: `fresh_${Math.random().toString(36).slice(2, 7)}`,
  });
});

test.afterAll(async () => {
  await seller?.context.close();
});

/** The seller's API call, with the site's Origin (CSRF protection). */
async function asSeller(url: string, data: object) {
  const res = await seller.page.request.post(url, {
    headers: { origin: new URL(seller.page.url()).origin },
    data,
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

/** The status badge beside the book's type, under its title. */
const statusOf = (page: Page, label: string) =>
  page.getByRole('main').getByText(label, { exact: true });

const cases: Array<{ language: Language; locale: string; width: number }> = [
  { language: 'it', locale: 'it-IT', width: 375 },
  { language: 'en', locale: 'en-US', width: 1280 },
];

for (const { language, locale, width } of cases) {
  test(`a visitor reloading a book page sees it sold (${language}, ${width} px)`, async ({
    browser,
  }) => {
    const label = statuses(language);
    const title = `Il barone rampante ${uniqueWord('fresco')}`;
    const listing = (await asSeller('/api/listings', {
      mode: 'quickSell',
      title,
      author: 'Italo Calvino',
      price: 9,
    })) as { id: string };

    const context = await browser.newContext({ locale, viewport: { width, height: 800 } });
    const page = await context.newPage();
    try {
      const listingRead = (response: { url(): string }) =>
        new URL(response.url()).pathname === `/api/listings/${listing.id}`;
      await page.goto(`/library/book/${listing.id}`);
      await dismissCookieBanner(page);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(statusOf(page, label.available)).toBeVisible();

      // A reload while nothing changed: the browser asks again with the ETag it kept.
      const revalidated = page.waitForRequest(listingRead);
      await page.reload();
      expect(await (await revalidated).headerValue('if-none-match')).toMatch(/^W\/"/);
      await expect(statusOf(page, label.available)).toBeVisible();

      await asSeller(`/api/listings/${listing.id}/status`, { status: 'sold' });

      // The next load shows the sale, not the copy in the browser's cache.
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(statusOf(page, label.sold)).toBeVisible();
      await expect(statusOf(page, label.available)).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
}
