import type { Page, Route } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth, uniqueWord } from './fixtures';
import { dismissCookieBanner, openMember } from './members';

/**
 * Details a person notices about the network (issue 20 §5): while a list loads they see the
 * shape of what is coming (skeleton cards, the region busy), then the cards in the same place;
 * offline, a page whose code is not loaded yet keeps the header and footer and says "You are
 * offline" with Retry, which shows the page once the connection is back.
 */

/** Holds the answers of GET `pathname` until the returned function is called (then unroutes). */
async function holdResponses(page: Page, pathname: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const matches = (url: URL) => url.pathname === pathname;
  const handler = async (route: Route) => {
    await gate;
    await route.fallback();
  };
  await page.route(matches, handler);
  return () => {
    open();
    void page.unroute(matches, handler);
  };
}

for (const { lang, locale, width, texts } of [
  {
    lang: 'en',
    locale: 'en-US',
    width: 1280,
    texts: {
      contact: 'Contact',
      offline: 'You are offline',
      retry: 'Retry',
      heading: 'Contact us',
    },
  },
  {
    lang: 'it',
    locale: 'it-IT',
    width: 375,
    texts: { contact: 'Contatti', offline: 'Sei offline', retry: 'Riprova', heading: 'Contattaci' },
  },
] as const) {
  test(`offline, a page not loaded yet keeps the shell and retries (${lang}, ${width} px)`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale, viewport: { width, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/');
    await dismissCookieBanner(page);
    await expect(page.getByRole('banner')).toBeVisible();

    await context.setOffline(true);
    await page.getByRole('contentinfo').getByRole('link', { name: texts.contact }).click();
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: texts.offline })).toBeVisible();
    // The shell stays: the header (with the home link) and the footer, never the app's error page.
    await expect(page.getByRole('banner').getByRole('link').first()).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page).toHaveURL(/\/contact$/);
    await expectFitsWidth(page, width);

    // Retry while still offline: still offline, still inside the shell.
    await main.getByRole('button', { name: texts.retry }).click();
    await expect(main.getByRole('heading', { level: 1, name: texts.offline })).toBeVisible();

    await context.setOffline(false);
    await main.getByRole('button', { name: texts.retry }).click();
    await expect(main.getByRole('heading', { level: 1, name: texts.heading })).toBeVisible();
    await expect(main.getByRole('heading', { name: texts.offline })).toHaveCount(0);
    await expect(page).toHaveURL(/\/contact$/);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });
}

test('loading lists show skeleton cards in place, then the cards (library, /buy, community)', async ({
  browser,
}) => {
  // A listing of our own, so the library and the shelves have a card to show for its word.
  const seller = await openMember(browser);
  const word = uniqueWord('Scheletro');
  const origin = { origin: new URL(seller.page.url()).origin };
  const created = await seller.page.request.post('/api/listings', {
    headers: origin,
    data: {
      mode: 'full',
      title: `${word} di carta`,
      author: 'Italo Calvino',
      genre: 'fiction',
      listingType: 'sell',
      price: 9,
      description: 'Come nuovo',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await seller.context.close();

  for (const width of [1280, 375]) {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto('/about');
    await dismissCookieBanner(page);

    // The library: the grid's shape, busy and announced, until the answer; then the card where
    // the first grey card was.
    let release = await holdResponses(page, '/api/listings');
    await page.goto(`/library?q=${word}`);
    const grid = page.getByTestId('book-grid-skeleton');
    await expect(grid).toBeVisible();
    await expect(grid).toHaveAttribute('aria-busy', 'true');
    await expect(grid.getByRole('status')).toHaveText('Loading...');
    const cards = grid.getByTestId('book-card-skeleton');
    expect(await cards.count()).toBeGreaterThan(1);
    const ghost = await cards.first().boundingBox();
    release();
    const card = page.getByTestId('book-card').filter({ hasText: word });
    await expect(card).toBeVisible();
    await expect(grid).toHaveCount(0);
    const real = await card.boundingBox();
    // Same column, same width: nothing jumps sideways when the cards arrive.
    expect(Math.abs(real!.x - ghost!.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(real!.width - ghost!.width)).toBeLessThanOrEqual(1);

    // The /buy shelves.
    release = await holdResponses(page, '/api/shelves');
    await page.goto('/buy');
    const shelves = page.getByTestId('shelves-skeleton');
    await expect(shelves).toBeVisible();
    await expect(shelves).toHaveAttribute('aria-busy', 'true');
    release();
    await expect(
      page.getByTestId('shelf-row').first().getByTestId('book-card').first(),
    ).toBeVisible();
    await expect(shelves).toHaveCount(0);

    // The community feed.
    release = await holdResponses(page, '/api/community/posts/popular');
    await page.goto('/community');
    const feed = page.getByTestId('post-list-skeleton');
    await expect(feed).toBeVisible();
    await expect(feed).toHaveAttribute('aria-busy', 'true');
    await expect(feed.getByTestId('post-card-skeleton').first()).toBeVisible();
    await expectFitsWidth(page, width);
    release();
    await expect(feed).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: 'Popular this week' })).toBeVisible();
    await context.close();
  }
});

test('after a deploy, a page whose chunk is gone reloads once, then offers Retry', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/');
  await dismissCookieBanner(page);

  // The contact page's chunk of this build is gone from the server (a new deploy replaced it).
  const gone = (url: URL) => /\/assets\/ContactPage-[^/]+\.js$/.test(url.pathname);
  let asked = 0;
  await page.route(gone, (route) => {
    asked++;
    return route.fulfill({ status: 404, body: 'Not found' });
  });
  const reloaded = page.waitForEvent('load');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Contact' }).click();
  // Online: one full load of the page, to get the new build...
  await reloaded;
  await expect(page).toHaveURL(/\/contact$/);
  // ...which fails too here: no second reload, the message and Retry, inside the shell.
  const main = page.getByRole('main');
  await expect(
    main.getByRole('heading', { level: 1, name: 'This page could not be loaded' }),
  ).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  expect(asked).toBeGreaterThanOrEqual(2);

  await page.unroute(gone);
  await main.getByRole('button', { name: 'Retry' }).click();
  await expect(main.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible();
  await context.close();
});
