import type { Browser, Page } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth, uniqueWord } from './fixtures';
import { dismissCookieBanner, openMember, type OpenMember } from './members';

/**
 * The marketplace in sight (issue 20, section 2): the header and the phone's menu reach Buy,
 * Trade and Sell; the home page opens on shelves of real listings; the library on a phone; the
 * book page's catalogue facts and its two small shelves; the typo correction that says so. Each
 * in Italian and English, at 375 and 1280 px.
 */

const TEXTS = {
  it: {
    locale: 'it-IT',
    buy: 'Compra',
    trade: 'Scambia',
    sell: 'Vendi',
    buyTitle: 'Compra libri',
    tradeTitle: 'Scambia libri',
    sellTitle: 'Vendi un libro',
    openMenu: 'Apri il menu',
    promoted: 'Libri promossi',
    justListed: 'Appena arrivati',
    growing: 'Una biblioteca che cresce',
    search: 'Cerca',
    filters: 'Filtri',
    genre: 'Genere',
    showOne: 'Mostra 1 risultato',
    otherCopies: 'Altre copie di questo libro',
    moreFromSeller: 'Altro da questo venditore',
    publisher: 'Editore',
    year: 'Anno',
    synopsis: 'Trama',
    resultsFor: 'Risultati per',
  },
  en: {
    locale: 'en-US',
    buy: 'Buy',
    trade: 'Trade',
    sell: 'Sell',
    buyTitle: 'Buy books',
    tradeTitle: 'Trade books',
    sellTitle: 'Sell a book',
    openMenu: 'Open menu',
    promoted: 'Promoted books',
    justListed: 'Just Listed',
    growing: 'A growing library',
    search: 'Search',
    filters: 'Filters',
    genre: 'Genre',
    showOne: 'Show 1 result',
    otherCopies: 'Other copies of this book',
    moreFromSeller: 'More from this seller',
    publisher: 'Publisher',
    year: 'Year',
    synopsis: 'Synopsis',
    resultsFor: 'Results for',
  },
} as const;
type Lang = keyof typeof TEXTS;
// Each language at one width and each width in one language: the other two pairs repeated the
// same journeys (a minute and a half of CI each run) and found nothing these two do not.
const CASES = [
  { lang: 'it', width: 375 },
  { lang: 'en', width: 1280 },
] as const;

async function visitor(browser: Browser, lang: Lang, width: number) {
  const context = await browser.newContext({
    locale: TEXTS[lang].locale,
    viewport: { width, height: width < 768 ? 740 : 900 },
  });
  const page = await context.newPage();
  await page.goto('/');
  await dismissCookieBanner(page);
  return { context, page };
}

/** Opens a link of the main navigation: the header's on a wide screen, the drawer's on a phone. */
async function navigate(page: Page, lang: Lang, width: number, name: string) {
  if (width < 768) {
    await page.getByRole('button', { name: TEXTS[lang].openMenu }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('link', { name, exact: true }).click();
    await expect(drawer).toBeHidden();
  } else {
    await page
      .getByRole('banner')
      .getByRole('navigation')
      .getByRole('link', { name, exact: true })
      .click();
  }
}

/** No badge or button of the page has text cut off (an ellipsis or a clipped label). */
async function expectNothingCut(page: Page, scope: string) {
  const cut = await page.evaluate((selector) => {
    const out: string[] = [];
    for (const root of document.querySelectorAll(selector))
      for (const el of root.querySelectorAll<HTMLElement>(
        '[data-testid="book-card"] span, .mantine-Badge-label, .mantine-Button-label',
      ))
        if (el.offsetParent && el.scrollWidth > el.clientWidth + 1) out.push(el.textContent ?? '');
    return out;
  }, scope);
  expect(cut, `cut texts in ${scope}`).toEqual([]);
}

async function post(member: OpenMember, url: string, data: unknown) {
  const res = await member.page.request.post(url, {
    headers: { origin: new URL(member.page.url()).origin },
    data,
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json() as Promise<{ id: string }>;
}

for (const { lang, width } of CASES) {
  test(`the header reaches Buy, Trade and Sell, the footer the promoted books (${lang}, ${width} px)`, async ({
    browser,
  }) => {
    const T = TEXTS[lang];
    const { context, page } = await visitor(browser, lang, width);
    await navigate(page, lang, width, T.buy);
    await expect(page).toHaveURL(/\/buy$/);
    await expect(page.getByRole('heading', { level: 1, name: T.buyTitle })).toBeVisible();
    await navigate(page, lang, width, T.trade);
    await expect(page).toHaveURL(/\/trade$/);
    await expect(page.getByRole('heading', { level: 1, name: T.tradeTitle })).toBeVisible();
    await navigate(page, lang, width, T.sell);
    await expect(page).toHaveURL(/\/sell$/);
    await expect(page.getByRole('heading', { level: 1, name: T.sellTitle })).toBeVisible();
    await expectFitsWidth(page, width);
    await page.getByRole('contentinfo').getByRole('link', { name: T.promoted }).click();
    await expect(page).toHaveURL(/\/promoted$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await context.close();
  });
}

test.describe('with listings', () => {
  let seller: OpenMember;
  let other: OpenMember;
  // Set by beforeAll, which runs again (with new members) whenever a worker comes back to
  // these tests after others: each run has its own word, so its searches see its own books.
  let TOKEN = '';
  let TITLE = '';
  let ROSA_MINE = '';
  let ROSA_OTHER = '';
  let EXTRA = '';
  let rosaMineId = '';

  test.beforeAll(async ({ browser }) => {
    TOKEN = uniqueWord('quillon');
    TITLE = `Il barone rampante ${TOKEN}`;
    ROSA_MINE = `Il nome della rosa ${TOKEN} prima copia`;
    ROSA_OTHER = `Il nome della rosa ${TOKEN} seconda copia`;
    EXTRA = `Baudolino ${TOKEN}`;
    seller = await openMember(browser);
    other = await openMember(browser);
    await post(seller, '/api/listings', {
      mode: 'full',
      title: TITLE,
      author: 'Italo Calvino',
      genre: 'poetry',
      condition: 'good',
      listingType: 'sell',
      price: 11,
      currency: 'EUR',
      description: 'Copertina un po’ consumata',
    });
    // Two copies of one catalogue book (known to the catalogue: publisher, year, ISBN, synopsis).
    const found = await seller.page.request.get('/api/catalogue/search?q=il%20nome%20della%20rosa');
    expect(found.status()).toBe(200);
    const book = (await found.json()).items.find(
      (b: { isbn13: string | null }) => b.isbn13 === '9788845292613',
    );
    expect(book).toBeTruthy();
    rosaMineId = (
      await post(seller, '/api/listings', {
        mode: 'quickTrade',
        title: ROSA_MINE,
        author: 'Umberto Eco',
        bookId: book.id,
      })
    ).id;
    await post(other, '/api/listings', {
      mode: 'quickTrade',
      title: ROSA_OTHER,
      author: 'Umberto Eco',
      bookId: book.id,
    });
    await post(seller, '/api/listings', {
      mode: 'quickSell',
      title: EXTRA,
      author: 'Umberto Eco',
      price: 7,
    });
  });

  test.afterAll(async () => {
    await seller?.context.close();
    await other?.context.close();
  });

  for (const { lang, width } of CASES) {
    test(`the home page opens on shelves of real listings (${lang}, ${width} px)`, async ({
      browser,
    }) => {
      const T = TEXTS[lang];
      // A listing made now through the server shows at once (the shelves' cache follows changes).
      const fresh = `Le cosmicomiche ${uniqueWord('home')}`;
      await post(seller, '/api/listings', {
        mode: 'quickSell',
        title: fresh,
        author: 'Italo Calvino',
        price: 9,
      });
      const { context, page } = await visitor(browser, lang, width);
      const justListed = page.getByRole('region', { name: T.justListed, exact: true });
      await expect(justListed.getByRole('link', { name: new RegExp(fresh) })).toBeVisible();
      await expect(page.getByRole('heading', { name: T.growing })).toBeVisible();
      await expect(page.getByTestId('stat-booksAvailable')).toHaveText(/^\d/);
      await expectFitsWidth(page, width);
      await expectNothingCut(page, 'main');
      if (width === 375) await expectAccessible(page);
      await justListed.getByRole('link', { name: new RegExp(fresh) }).click();
      await expect(page).toHaveURL(/\/library\/book\//);
      await expect(page.getByRole('heading', { level: 1, name: fresh })).toBeVisible();
      await context.close();
    });
  }

  for (const { lang, width } of CASES) {
    test(`the book page shows the catalogue's facts, other copies and more from the seller (${lang}, ${width} px)`, async ({
      browser,
    }) => {
      const T = TEXTS[lang];
      const { context, page } = await visitor(browser, lang, width);
      await page.goto(`/library/book/${rosaMineId}`);
      await expect(page.getByRole('heading', { level: 1, name: ROSA_MINE })).toBeVisible();
      const facts = page.locator('dl').first();
      await expect(facts).toContainText(T.publisher);
      await expect(facts).toContainText('La nave di Teseo');
      await expect(facts).toContainText(T.year);
      await expect(facts).toContainText('2020');
      await expect(facts).toContainText('9788845292613');
      const synopsis = page.getByRole('region', { name: T.synopsis });
      await expect(synopsis).toContainText('Ultima settimana del novembre 1327');

      const copies = page.getByRole('region', { name: T.otherCopies });
      await expect(copies.getByRole('link', { name: new RegExp(ROSA_OTHER) })).toBeVisible();
      await expect(copies.getByRole('link', { name: new RegExp(ROSA_MINE) })).toHaveCount(0);
      const more = page.getByRole('region', { name: T.moreFromSeller });
      await expect(more.getByRole('link', { name: new RegExp(EXTRA) })).toBeVisible();
      await expect(more.getByRole('link', { name: new RegExp(TITLE) })).toBeVisible();
      await expect(more.getByRole('link', { name: new RegExp(ROSA_OTHER) })).toHaveCount(0);
      await expectFitsWidth(page, width);
      await expectNothingCut(page, 'main');

      await copies.getByRole('link', { name: new RegExp(ROSA_OTHER) }).click();
      await expect(page.getByRole('heading', { level: 1, name: ROSA_OTHER })).toBeVisible();
      await context.close();
    });
  }

  for (const { lang, width } of CASES) {
    test(`a typo correction says so, and the typed words are one click away (${lang}, ${width} px)`, async ({
      browser,
    }) => {
      const T = TEXTS[lang];
      const { context, page } = await visitor(browser, lang, width);
      // "barone rampnte": "rampnte" starts no known word; corrected to "rampante".
      await page.goto(`/library?q=${encodeURIComponent(`${TOKEN} rampnte`)}`);
      const notice = page.getByTestId('correction-notice');
      await expect(notice).toContainText(T.resultsFor);
      await expect(notice.locator('em')).toHaveText(`${TOKEN} rampante`);
      await expect(page.getByTestId('book-card').filter({ hasText: TITLE })).toBeVisible();
      await notice.getByRole('button', { name: `${TOKEN} rampnte` }).click();
      await expect(page).toHaveURL(/exact=1/);
      await expect(page.getByTestId('correction-notice')).toHaveCount(0);
      await expect(page.getByTestId('book-card')).toHaveCount(0);
      await context.close();
    });
  }

  for (const lang of ['it', 'en'] as const) {
    test(`the library on a phone: words above the results, the filters counted, Show N results (${lang})`, async ({
      browser,
    }) => {
      const T = TEXTS[lang];
      const { context, page } = await visitor(browser, lang, 375);
      await page.goto('/library');
      const search = page.getByRole('combobox', { name: T.search, exact: true });
      const results = page.getByTestId('library-count');
      await expect(search).toBeVisible();
      await expect(results).toBeVisible();
      const [box, count] = [await search.boundingBox(), await results.boundingBox()];
      expect(box!.y + box!.height).toBeLessThanOrEqual(count!.y);
      await search.fill(TOKEN);
      await expect(page).toHaveURL(new RegExp(`q=${TOKEN}`));
      await expect(page.getByTestId('book-card')).toHaveCount(4);

      await page.getByRole('button', { name: T.filters, exact: true }).click();
      const drawer = page.getByRole('dialog', { name: T.filters });
      await drawer.getByLabel(T.genre).selectOption('poetry');
      await expect(page.getByRole('button', { name: `${T.filters} (1)` })).toBeAttached();
      const show = drawer.getByRole('button', { name: T.showOne });
      await expect(show).toBeVisible();
      await show.click();
      await expect(drawer).toBeHidden();
      await expect(page.getByRole('button', { name: `${T.filters} (1)` })).toBeVisible();
      await expect(page.getByTestId('book-card')).toHaveCount(1);
      await expect(page.getByTestId('book-card').filter({ hasText: TITLE })).toBeVisible();
      await expectFitsWidth(page, 375);
      await expectNothingCut(page, 'main');
      await context.close();
    });
  }

  test('cards on /buy have one width per shelf and nothing cut, at 375 and 1280 px', async ({
    browser,
  }) => {
    for (const width of [375, 1280]) {
      const { context, page } = await visitor(browser, 'it', width);
      await page.goto(`/buy?q=${TOKEN}`);
      const shelf = page.getByRole('region', { name: TEXTS.it.justListed, exact: true });
      await expect(shelf.getByTestId('book-card')).toHaveCount(4);
      const widths = await shelf
        .getByTestId('book-card')
        .evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().width)));
      expect(new Set(widths).size, `${width} px: ${widths.join(', ')}`).toBe(1);
      await expectNothingCut(page, 'main');
      await expectFitsWidth(page, width);
      await context.close();
    }
    // The quick actions of a member's books: "Vendita rapida" whole, at 375 and 1280 px.
    const page = await seller.context.newPage();
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('scaffale.language', 'it'));
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/profile/${seller.id}/books`);
      const actions = page.getByRole('region', { name: 'Azioni rapide' });
      await expect(actions.getByRole('button', { name: 'Vendita rapida' })).toBeVisible();
      await expectNothingCut(page, 'main');
    }
    await page.close();
  });
});
