import type { Browser } from '@playwright/test';
import { test, expect, expectFitsWidth, uniqueWord } from './fixtures';
import { dismissCookieBanner, openMember, type OpenMember } from './members';
import { apiPost } from './api';

/**
 * A search that finds nothing helps (issue 33, item 12): words alone are told they found nothing
 * (filters, none of them on, are not mentioned), with a title close to them to search instead
 * ("did you mean"); a visitor is offered to sign in to be told when the book comes, a member the
 * wishlist beside "Save this search". Words with a filter speak of both and offer to clear it.
 */
test.describe.configure({ mode: 'serial' });

let WORD = '';
let seller: OpenMember;
let reader: OpenMember;
const title = () => `Il barone ${WORD}`;

test.beforeAll(async ({ browser }) => {
  WORD = uniqueWord('rampante');
  seller = await openMember(browser);
  await apiPost(seller.page, '/api/listings', {
    mode: 'full',
    title: title(),
    author: 'Italo Calvino',
    genre: 'fiction',
    condition: 'good',
    listingType: 'sell',
    price: 9,
    currency: 'EUR',
    description: 'Una copia letta con cura.',
  });
  reader = await openMember(browser);
});

test.afterAll(async () => {
  await seller?.context.close();
  await reader?.context.close();
});

async function visitor(browser: Browser, lang: 'it' | 'en') {
  const context = await browser.newContext({
    locale: lang === 'it' ? 'it-IT' : 'en-US',
    viewport: { width: 375, height: 740 },
  });
  return { context, page: await context.newPage() };
}

test('words that find nothing: no talk of filters, a title to search instead, sign in to be told (375 px, it)', async ({
  browser,
}) => {
  const { context, page } = await visitor(browser, 'it');
  const words = `${WORD} zqxjv`;
  await page.goto(`/library?q=${encodeURIComponent(words)}`);
  const empty = page.getByTestId('library-no-results');
  await expect(empty).toContainText(`Nessun libro corrisponde a “${words}”, per ora.`, {
    timeout: 30_000,
  });
  await expect(empty).not.toContainText(/filtri/i);
  await expect(empty.getByRole('button', { name: 'Azzera filtri' })).toHaveCount(0);
  await expect(empty.getByRole('link', { name: 'Accedi per salvare la ricerca' })).toHaveAttribute(
    'href',
    /^\/login\?redirect_to=%2Flibrary%3Fq%3D/,
  );
  await expectFitsWidth(page, 375);

  // Did you mean: the title, searched at a touch (past the cookie banner, which covers it).
  await dismissCookieBanner(page);
  await empty.getByRole('button', { name: title() }).click();
  await expect(page.getByTestId('book-card')).toHaveCount(1);
  await expect(page.getByTestId('book-card')).toContainText(title());
  await context.close();
});

test('words and a filter that find nothing speak of both and clear the filter (375 px, en)', async ({
  browser,
}) => {
  const { context, page } = await visitor(browser, 'en');
  await page.goto(`/library?q=${WORD}&genre=poetry`);
  const empty = page.getByTestId('library-no-results');
  await expect(empty).toContainText(
    `No book matches “${WORD}” with these filters. Try changing or clearing them.`,
    { timeout: 30_000 },
  );
  await dismissCookieBanner(page);
  await empty.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/genre=/);
  await context.close();
});

test('a member is offered the wishlist beside “Save this search” (1280 px, en)', async () => {
  const page = reader.page;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/library?q=${WORD}zqxjv`);
  const empty = page.getByTestId('library-no-results');
  await expect(empty).toContainText(`No book matches “${WORD}zqxjv” yet.`, { timeout: 30_000 });
  await expect(empty).toContainText('Choose “Save this search” above');
  await expect(page.getByRole('button', { name: 'Save this search' })).toHaveCount(1);
  await empty.getByRole('link', { name: 'Add to your wishlist' }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${reader.id}/wishlist$`));
});
