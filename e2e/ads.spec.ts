import type { Browser, Locator, Page } from '@playwright/test';
import { test, expect, expectAccessible, uniqueWord } from './fixtures';
import { openMember, uniqueEmail, type OpenMember } from './members';
import { pngBuffer } from './images';

/**
 * Advertisements, walked as people walk them: an author creates a draft with the form (each
 * validation message shown once, next to its field), activates it; a reader finds it labelled
 * sponsored among the library results, scrolls it into view, opens it and follows a purchase
 * link; the author's analytics counts exactly that; pausing takes it out of the library; a
 * reader reviews the book once.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

// A word no other journey uses: the library search and the ad's keywords both carry it.
let TOKEN = '';
let TITLE = '';
// The ad's purchase and sample links: https, answered inside the reader's browser (no network).
const STORE = 'https://shop.example.org';
// Headless Chromium announces itself as HeadlessChrome, which bot filters rightly refuse; the
// reader is a person on an ordinary browser.
const PERSON_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

let author: OpenMember;
let reader: OpenMember;
let adId: string;

/** Display names come from the e-mail address: author.… and reader.… */
const member = (browser: Browser, role: 'author' | 'reader') =>
  openMember(browser, {
    username: `${role}_${Math.random().toString(36).slice(2, 7)}`,
    email: uniqueEmail(role),
    userAgent: PERSON_UA,
  });

test.beforeAll(async ({ browser }) => {
  TOKEN = uniqueWord('quokka');
  TITLE = `Il pendolo di Foucault ${TOKEN}`;
  author = await member(browser, 'author');
  reader = await member(browser, 'reader');
  // A listing the reader's search finds, so the library has results to place the slot among.
  const res = await author.page.request.post('/api/listings', {
    headers: { origin: new URL(author.page.url()).origin },
    data: { mode: 'quickSell', title: `Baudolino ${TOKEN}`, author: 'Umberto Eco', price: 8 },
  });
  expect(res.status(), await res.text()).toBe(201);
});

test.afterAll(async () => {
  await author?.context.close();
  await reader?.context.close();
});

const once = async (scope: Page | Locator, text: string) =>
  expect(scope.getByText(text, { exact: true })).toHaveCount(1);

test('an author creates a draft with the form and activates it', async () => {
  const page = author.page;
  await page.goto(`/profile/${author.id}/ads`);
  await expect(page).toHaveTitle('My advertisements | Scaffale');
  await expect(
    page.getByRole('navigation', { name: 'Private area' }).getByRole('link', {
      name: 'Advertisements',
    }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'You have no advertisements yet' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Create advertisement' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/profile/${author.id}/ads/new$`));
  const form = page.getByRole('form', { name: 'Advertisement' });
  // The create form's defaults: banner, the author's language (English), EUR, budgets 0 (in the
  // reader's money format), this year.
  await expect(form.getByLabel('Ad type')).toHaveValue('banner');
  await expect(form.getByLabel('Language')).toHaveValue('en');
  await expect(form.getByLabel('Currency')).toHaveValue('EUR');
  await expect(form.getByLabel('Daily budget')).toHaveValue('0.00');
  await expect(form.getByLabel('Total budget')).toHaveValue('0.00');
  await expect(form.getByLabel('Publication year')).toHaveValue(String(new Date().getFullYear()));

  // Nothing filled: the three required fields, each said once beside its field.
  await form.getByRole('button', { name: 'Save draft' }).click();
  await once(form, 'Title is required');
  await once(form, 'Description is required');
  await once(form, 'Please select a genre');
  await expect(form.getByLabel(/^Title/)).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);

  // Out-of-range numbers, a malformed link, a negative price: each message once.
  await form.getByLabel('Publication year').fill('1400');
  await form.getByLabel('Page count').fill('0');
  await form.getByLabel('Book price').fill('-1');
  await form.getByLabel('Amazon link').fill('amazon');
  await form.getByLabel('Sample chapter link').fill('sample chapter');
  await form.getByRole('button', { name: 'Save draft' }).click();
  await once(form, 'Publication year must be between 1450 and two years from now');
  await once(form, 'Page count must be at least 1');
  await once(form, 'Price cannot be negative');
  await expect(
    form.getByText('Please enter a valid web address starting with https://'),
  ).toHaveCount(2);
  await once(form, 'Title is required');

  // Now right, with a cover through the upload pipeline. Links must be https (the store is a
  // stand-in the reader's browser answers itself).
  await form.getByLabel(/^Title/).fill(TITLE);
  await form
    .getByLabel('Description')
    .fill('Three editors invent a plot, and the plot takes them.');
  await form.getByLabel('Genre').selectOption('mystery');
  await form.getByLabel('Publication year').fill('1988');
  await form.getByLabel('Page count').fill('509');
  await form.getByLabel('Book price').fill('14.5');
  await form.getByLabel('Keywords').fill(` templari , ${TOKEN},, complotto `);
  await form.getByLabel('Target audience').fill('adults, students');
  await form.getByLabel('Sample chapter link').fill(`${STORE}/about?sample=1`);
  await form.getByLabel('Amazon link').fill('http://shop.example.org/about?store=amazon');
  await form.getByRole('button', { name: 'Save draft' }).click();
  await once(form, 'Please enter a valid web address starting with https://');
  await form.getByLabel('Amazon link').fill(`${STORE}/about?store=amazon`);
  await form.getByLabel('Daily budget').fill('5');
  await form.locator('input[type=file]').setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: await pngBuffer(200, 300),
  });
  await expect(form.getByText('Cover uploaded.')).toBeVisible();
  await expect(form.getByRole('alert')).toHaveCount(0);
  await form.getByRole('button', { name: 'Save draft' }).click();

  // Back on the list, as a draft.
  await expect(page).toHaveURL(new RegExp(`/profile/${author.id}/ads\\?status=draft$`));
  const row = page.getByRole('article', { name: TITLE });
  await expect(row.getByTestId('ad-status')).toHaveText('Draft');
  await expect(page.getByRole('tab', { name: /^Draft/ })).toHaveAttribute('aria-selected', 'true');

  // Edit opens over the list, pre-filled; the keywords came back trimmed, empties dropped.
  await row.getByRole('button', { name: `Edit “${TITLE}”` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit advertisement' });
  await expect(dialog.getByLabel('Keywords')).toHaveValue(`templari, ${TOKEN}, complotto`);
  await expect(dialog.getByLabel('Genre')).toHaveValue('mystery');
  await expect(dialog.getByLabel('Page count')).toHaveValue('509');
  await dialog.getByLabel('Subtitle').fill('Un romanzo');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText('Un romanzo')).toBeVisible();

  await row.getByRole('button', { name: `Activate “${TITLE}”` }).click();
  await page.getByRole('tab', { name: /^Active/ }).click();
  const active = page.getByRole('article', { name: TITLE });
  await expect(active.getByTestId('ad-status')).toHaveText('Active');
  const href = await active
    .getByRole('link', { name: `Analytics of “${TITLE}”` })
    .getAttribute('href');
  adId = href!.split('/')[4];
  expect(adId).toBeTruthy();
});

test('a reader sees it sponsored in the library, opens it and follows a purchase link', async () => {
  const page = reader.page;
  const impressionAnswered = page.waitForResponse(
    (res) =>
      res.url().endsWith(`/api/ads/${adId}/events`) &&
      (res.request().postData() ?? '').includes('"impression"'),
  );
  await page.goto(`/library?q=${TOKEN}`);
  const results = page.getByRole('list', { name: 'Books' });
  await expect(results.getByTestId('book-card')).toHaveCount(1);
  const card = results.getByRole('article', { name: `Sponsored: ${TITLE}` });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByText('Sponsored', { exact: true })).toBeVisible();
  // The label leads to every promoted book.
  await expect(card.getByRole('link', { name: 'Sponsored: all promoted books' })).toHaveAttribute(
    'href',
    '/promoted',
  );
  await expect(card.getByText(/^Promoted by author\./)).toBeVisible();
  await expect(
    card.getByText(new RegExp(`Shown because of its genre \\(Mystery\\) and keywords: .*${TOKEN}`)),
  ).toBeVisible();
  await expectAccessible(page);
  // Half of it on screen for a full second is an impression; its answer carries the token the
  // click sends back.
  const impression = await impressionAnswered;
  expect(((await impression.json()) as { token?: string }).token).toBeTruthy();

  await card.getByRole('link', { name: TITLE }).click();
  await expect(page).toHaveURL(new RegExp(`/ads/${adId}$`));
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByText('Sponsored', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: /Read a sample chapter/ })).toHaveAttribute(
    'href',
    /sample=1/,
  );
  await expectAccessible(page);

  // /buy: a shelf of sponsored books, headed and labelled as such.
  await page.goto('/buy');
  const shelf = page.getByRole('region', { name: 'Sponsored books' });
  await expect(shelf.getByRole('article', { name: `Sponsored: ${TITLE}` })).toBeVisible();
  await expectAccessible(page);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();

  await reader.context.route(`${STORE}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Store</title><h1>Store</h1>' }),
  );
  const popup = page.waitForEvent('popup');
  await page.getByRole('link', { name: /Buy on Amazon/ }).click();
  const store = await popup;
  await expect(store).toHaveURL(/store=amazon/);
  await store.close();
});

// Paused right after the reader's visit: a paused ad is neither served nor counted, so the
// figures below are the reader's alone even while other journeys browse the library in parallel.
test('pausing takes it out of the library', async () => {
  const page = author.page;
  await page.goto(`/profile/${author.id}/ads`);
  const row = page.getByRole('article', { name: TITLE });
  await row.getByRole('button', { name: `Pause “${TITLE}”` }).click();
  await expect(row.getByTestId('ad-status')).toHaveText('Paused');

  const r = reader.page;
  const slot = r.waitForResponse((res) => res.url().includes('/api/ads/slot'));
  await r.goto(`/library?q=${TOKEN}`);
  await expect(r.getByRole('list', { name: 'Books' }).getByTestId('book-card')).toHaveCount(1);
  expect(((await (await slot).json()) as { items: unknown[] }).items).toEqual([]);
  await expect(r.getByTestId('sponsored-card')).toHaveCount(0);
});

// Other journeys run beside this one and browse pages with ad slots while the ad is active: an
// impression is counted once per viewer and day, so theirs may add to the reader's (the counting
// rules themselves are API-tested in modules/ads/events.counting.test.ts). The page must show
// exactly what the server counted, and the reader's click and purchase once each.
test("the author's analytics count the reader's impression, one click and one conversion", async () => {
  const page = author.page;
  await page.goto(`/profile/${author.id}/ads/${adId}/analytics?timeframe=7d`);
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  // Events are written in batches (about every second): wait until they are in, then read.
  let impressions = 0;
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/ads/${adId}/analytics?timeframe=7d`);
        const { totals } = (await res.json()) as {
          totals: { conversions: number; impressions: number };
        };
        impressions = totals.impressions;
        return totals.conversions;
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  expect(impressions).toBeGreaterThanOrEqual(1);
  const shown = new RegExp(`Impressions\\s*${impressions}$`);
  await page.reload();
  await expect(page.getByTestId('stat-impressions')).toContainText(shown);
  await expect(page.getByTestId('stat-clicks')).toContainText(/Clicks\s*1$/);
  await expect(page.getByTestId('stat-click-rate')).toContainText(
    `${(100 / impressions).toFixed(2)}%`,
  );
  await expect(page.getByTestId('stat-conversions')).toContainText(/Conversions\s*1$/);
  await expect(page.getByTestId('stat-conversion-rate')).toContainText('100.00%');
  await expect(page.getByTestId('stat-cost')).toContainText('€0.20');
  await expect(page.getByTestId('ads-chart')).toBeVisible();
  // A header row, then the impressions, the click and the conversion.
  await expect(page.getByTestId('recent-events').getByRole('row')).toHaveCount(impressions + 3);
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    `/api/ads/${adId}/analytics.csv?timeframe=7d`,
  );
  await page.locator('label', { hasText: 'All time' }).click();
  await expect(page.getByRole('radio', { name: 'All time' })).toBeChecked();
  await expect(page).toHaveURL(/timeframe=all/);
  await expect(page.getByTestId('stat-impressions')).toContainText(shown);
  await expectAccessible(page);
});

test('resumed, a reader reviews it once', async () => {
  const page = author.page;
  await page.goto(`/profile/${author.id}/ads`);
  const row = page.getByRole('article', { name: TITLE });
  const r = reader.page;
  await row.getByRole('button', { name: `Resume “${TITLE}”` }).click();
  await expect(row.getByTestId('ad-status')).toHaveText('Active');

  await r.goto(`/ads/${adId}`);
  const reviews = r.getByRole('region', { name: "Readers' reviews" });
  await expect(reviews.getByText('No reviews yet.')).toBeVisible();
  const form = reviews.getByRole('form', { name: 'Review this book' });
  await form.getByRole('button', { name: 'Publish review' }).click();
  await once(form, 'Choose a rating from 1 to 5');
  await once(form, 'Write a few words about the book');
  // The stars are the radios' labels, as a person clicks them.
  const four = form.getByRole('radio', { name: '4 out of 5' });
  await form.locator(`label[for="${await four.getAttribute('id')}"]`).click();
  await expect(four).toBeChecked();
  await form.getByLabel('Your review').fill('Dense, funny, and it never lets go.');
  await form.getByRole('button', { name: 'Publish review' }).click();
  await expect(reviews.getByText('Thank you: your review is published.')).toBeVisible();
  await expect(reviews.getByText('Dense, funny, and it never lets go.')).toBeVisible();
  await expect(reviews.getByText('4 out of 5 · reviews: 1')).toBeVisible();
  // Once: after a reload the form is not offered again.
  await r.reload();
  await expect(reviews.getByText('Dense, funny, and it never lets go.')).toBeVisible();
  await expect(reviews.getByRole('form', { name: 'Review this book' })).toHaveCount(0);
  await expectAccessible(r);
});

test('a refused action shows in a dismissible banner; deleting asks first', async () => {
  const page = author.page;
  // A draft whose end date has passed cannot be activated: the server says why.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const old = `Ended ${TOKEN}`;
  const res = await page.request.post('/api/ads', {
    headers: { origin: new URL(page.url()).origin },
    data: {
      title: old,
      description: 'Too late.',
      genre: 'history',
      startDate: '2020-01-01',
      endDate: yesterday,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto(`/profile/${author.id}/ads?status=draft`);
  const row = page.getByRole('article', { name: old });
  await row.getByRole('button', { name: `Activate “${old}”` }).click();
  const banner = page.getByTestId('ads-banner');
  await expect(banner).toContainText('end date has passed');
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);

  await row.getByRole('button', { name: `Delete “${old}”` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this advertisement?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Delete “${old}”` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No drafts' })).toBeVisible();
});

test("only the author reaches an ad's management and analytics", async () => {
  const page = reader.page;
  // Another member's private area opens one's own dashboard, as every private page does.
  await page.goto(`/profile/${author.id}/ads`);
  await expect(page).toHaveURL(new RegExp(`/profile/${reader.id}/dashboard$`));
  // Someone else's ad is not found in one's own analytics (the server answers 404).
  await page.goto(`/profile/${reader.id}/ads/${adId}/analytics`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('the promoted books page lists it and works at 375 px', async ({ browser }) => {
  const page = reader.page;
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/promoted?keywords=${TOKEN}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Promoted books' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Promoted books' }).getByRole('article', {
      name: `Sponsored: ${TITLE}`,
    }),
  ).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);

  const a = author.page;
  await a.setViewportSize({ width: 375, height: 800 });
  await a.goto(`/profile/${author.id}/ads/new`);
  await expect(a.getByRole('form', { name: 'Advertisement' })).toBeVisible();
  const formOverflow = await a.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(formOverflow).toBeLessThanOrEqual(0);
  // By keyboard: Tab reaches the title field and typing fills it.
  await a.getByLabel(/^Title/).focus();
  await a.keyboard.type('K');
  await a.keyboard.press('Tab');
  await expect(a.getByLabel('Subtitle')).toBeFocused();

  // In Italian, the default language, the label says so too.
  const italian = await browser.newContext({ locale: 'it-IT', userAgent: PERSON_UA });
  const p = await italian.newPage();
  await p.goto(`/promoted?keywords=${TOKEN}`);
  const card = p.getByRole('article', { name: `Sponsorizzato: ${TITLE}` });
  await expect(card.getByText('Sponsorizzato', { exact: true })).toBeVisible();
  await expect(card.getByText(/^Promosso da author\./)).toBeVisible();
  await expect(card.getByText(/^Mostrato per il suo genere \(Gialli\)/)).toBeVisible();
  await italian.close();
});
