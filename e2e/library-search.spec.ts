import type { Browser, Page } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth, uniqueWord } from './fixtures';
import { dismissCookieBanner, openMember, type OpenMember } from './members';
import { apiPost } from './api';

/**
 * Searching the library (issue 25): a reader types a few letters, sees titles and authors
 * suggested, picks one (by keyboard on a desktop, by touch on a phone) and gets its results; then
 * uses a filter's count (a genre with its count) and finds as many results as it said. At 375
 * and 1280 px.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

let WORD = '';
let seller: OpenMember;
const titles = () => ({
  cosmicomiche: `Le cosmicomiche ${WORD}`,
  marcovaldo: `Marcovaldo ${WORD}`,
  barone: `Il barone rampante ${WORD}`,
});

test.beforeAll(async ({ browser }) => {
  WORD = uniqueWord('quasar');
  seller = await openMember(browser);
  const t = titles();
  const books = [
    { title: t.cosmicomiche, genre: 'fiction', price: 9 },
    { title: t.marcovaldo, genre: 'fiction', price: 7 },
    { title: t.barone, genre: 'history', price: 12 },
  ];
  // A cheaper book without the word: the library's lowest price before the words are typed.
  books.push({ title: `Un tascabile ${uniqueWord('economico')}`, genre: 'fiction', price: 2 });
  for (const b of books)
    await apiPost(seller.page, '/api/listings', {
      mode: 'full',
      title: b.title,
      author: 'Italo Calvino',
      genre: b.genre,
      condition: 'good',
      listingType: 'sell',
      price: b.price,
      currency: 'EUR',
      description: 'Una copia letta con cura.',
    });
});

test.afterAll(async () => {
  await seller?.context.close();
});

async function visitor(browser: Browser, width: number) {
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width, height: width < 600 ? 740 : 900 },
  });
  const page = await context.newPage();
  await page.goto('/');
  await dismissCookieBanner(page);
  return { context, page };
}

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search', exact: true });
const count = (page: Page) => page.getByTestId('library-count');
const results = (page: Page) => page.getByRole('list', { name: 'Books' });

test('a maximum price set after typing words sends no minimum (1280 px)', async ({ browser }) => {
  const { context, page } = await visitor(browser, 1280);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/listings\?/.test(r.url())) asked.push(r.url());
  });
  await page.goto('/library');
  await expect(results(page).getByTestId('book-card').first()).toBeVisible();
  const minPrice = page.getByRole('textbox', { name: 'Minimum price' });
  const maxPrice = page.getByRole('textbox', { name: 'Maximum price' });
  // Nothing set: the fields are empty and show every listing's bounds (the 2 € book's too).
  await expect(minPrice).toHaveValue('');
  // The library's totals and bounds may be up to 10 s old (TOTALS_TTL_MS): another journey's
  // visit may have counted them before the 2 € book was listed.
  await expect(async () => {
    await page.reload();
    await expect(minPrice).toHaveAttribute('placeholder', /^[0-2]$/, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // Words typed as a person does; the fields then show the bounds of the words' results.
  await searchBox(page).pressSequentially(WORD, { delay: 20 });
  await expect(page).toHaveURL(new RegExp(`[?&]q=${WORD}`));
  await expect(count(page)).toHaveText('Books found: 3');
  await expect(minPrice).toHaveAttribute('placeholder', '7');
  await expect(maxPrice).toHaveAttribute('placeholder', '12');
  await expect(minPrice).toHaveValue('');

  await maxPrice.fill('10');
  await maxPrice.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]maxPrice=10`));
  expect(new URL(page.url()).searchParams.get('minPrice')).toBeNull();
  await expect(count(page)).toHaveText('Books found: 2');
  const withMax = asked.filter((u) => new URL(u).searchParams.get('maxPrice') === '10');
  expect(withMax.length).toBeGreaterThan(0);
  expect(withMax.filter((u) => new URL(u).searchParams.has('minPrice'))).toEqual([]);
  await expect(minPrice).toHaveValue('');
  await expect(maxPrice).toHaveValue('10');

  // Emptied, the maximum is no filter any more.
  await maxPrice.fill('');
  await maxPrice.press('Enter');
  await expect(count(page)).toHaveText('Books found: 3');
  expect(new URL(page.url()).searchParams.has('maxPrice')).toBe(false);

  // By keyboard on the slider: the lower handle one step up sets the minimum alone.
  const lower = page.getByRole('slider', { name: 'Minimum price' });
  await expect(lower).toHaveAttribute('aria-valuenow', '7');
  await lower.focus();
  await lower.press('ArrowRight');
  await expect(page).toHaveURL(/[?&]minPrice=8(&|$)/);
  expect(new URL(page.url()).searchParams.has('maxPrice')).toBe(false);
  await expect(count(page)).toHaveText('Books found: 2');
  await expect(minPrice).toHaveValue('8');
  await expect(maxPrice).toHaveValue('');
  await context.close();
});

for (const width of [375, 1280]) {
  test(`suggestions as you type lead to the book (${width} px)`, async ({ browser }) => {
    const { context, page } = await visitor(browser, width);
    await page.goto('/library');
    await expect(results(page).getByTestId('book-card').first()).toBeVisible();
    // Without words there is nothing to be relevant to: newest first, "Best match" not offered.
    const sort = page.getByRole('combobox', { name: 'Sort by' });
    await expect(sort).toHaveValue('newest');
    await expect(sort.getByRole('option', { name: 'Best match' })).toHaveCount(0);

    const box = searchBox(page);
    await box.click();
    // A few letters of the word, typed key by key as a person does.
    await box.pressSequentially(WORD.slice(0, -2), { delay: 30 });
    const list = page.getByRole('listbox', { name: 'Suggestions' });
    await expect(list).toBeVisible();
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    const t = titles();
    for (const title of Object.values(t))
      await expect(list.getByRole('option', { name: new RegExp(title) })).toBeVisible();
    await expectFitsWidth(page, width);
    await expectAccessible(page);

    const chosen = width < 600 ? t.marcovaldo : t.barone;
    if (width < 600) {
      await list.getByRole('option', { name: new RegExp(chosen) }).click();
    } else {
      // By keyboard: down to the option, which the box names as active, then Enter.
      const option = list.getByRole('option', { name: new RegExp(chosen) });
      const id = await option.getAttribute('id');
      for (let i = 0; i < 3 && (await box.getAttribute('aria-activedescendant')) !== id; i++)
        await box.press('ArrowDown');
      await expect(box).toHaveAttribute('aria-activedescendant', id!);
      await expect(option).toHaveAttribute('aria-selected', 'true');
      await box.press('Enter');
    }
    await expect(list).toBeHidden();
    await expect(box).toHaveValue(chosen);
    await expect(page).toHaveURL(
      new RegExp(`[?&]q=${encodeURIComponent(chosen).replace(/%20/g, '(\\+|%20)')}`),
    );
    await expect(count(page)).toHaveText('Books found: 1');
    await expect(results(page).getByTestId('book-card').filter({ hasText: chosen })).toBeVisible();
    // Words: the best match first, unless another order is chosen.
    await expect(sort).toHaveValue('relevance');

    // Escape closes the suggestions and keeps what was typed.
    await box.fill('');
    await box.pressSequentially(WORD.slice(0, 6), { delay: 30 });
    await expect(list).toBeVisible();
    await box.press('Escape');
    await expect(list).toBeHidden();
    await expect(box).toHaveValue(WORD.slice(0, 6));
    await context.close();
  });

  test(`a genre's count is the number of results it gives (${width} px)`, async ({ browser }) => {
    const { context, page } = await visitor(browser, width);
    const probe = await page.request.get(`/api/listings?q=${WORD}&facets=1`);
    // The counts come from the search engine's facets (issue 25, part A).
    test.fixme(!(await probe.json()).facets, 'waiting for the facet counts of GET /api/listings');
    await page.goto(`/library?q=${WORD}`);
    await expect(count(page)).toHaveText('Books found: 3');
    let filters: ReturnType<Page['getByRole']> | Page = page;
    if (width < 600) {
      await page.getByRole('button', { name: 'Filters' }).click();
      filters = page.getByRole('dialog', { name: 'Filters' });
    }
    const genre = filters.getByRole('combobox', { name: 'Genre' });
    const fiction = genre.getByRole('option', { name: /^Fiction \(\d+\)$/ });
    await expect(fiction).toHaveText('Fiction (2)');
    await expect(genre.getByRole('option', { name: /^History \(\d+\)$/ })).toHaveText(
      'History (1)',
    );
    await expect(genre.getByRole('option', { name: /^Poetry \(\d+\)$/ })).toHaveText('Poetry (0)');
    await genre.selectOption('fiction');
    await expect(page).toHaveURL(/genre=fiction/);
    if (width < 600) {
      await expect(page.getByTestId('show-results')).toHaveText('Show 2 results');
      await page.getByTestId('show-results').click();
    }
    await expect(count(page)).toHaveText('Books found: 2');
    await expect(results(page).getByTestId('book-card')).toHaveCount(2);
    // The condition filter, with its counts too.
    if (width < 600) await page.getByRole('button', { name: /^Filters/ }).click();
    const condition = filters.getByRole('combobox', { name: 'Condition' });
    await expect(condition.getByRole('option', { name: /^Good \(\d+\)$/ })).toHaveText('Good (2)');
    await condition.selectOption('poor');
    await expect(page).toHaveURL(/condition=poor/);
    await expect(count(page)).toHaveText('Books found: 0');
    await expectFitsWidth(page, width);
    await context.close();
  });
}
