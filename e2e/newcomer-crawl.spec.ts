import type { Browser, Page } from '@playwright/test';
import { test, expect, uniqueWord } from './fixtures';
import { grantAdmin, openMember, type OpenMember } from './members';
import { apiPost } from './api';
import { acceptedOffer } from './deals';
import { pageProblems, settle, watch } from './crawl-invariants';

/**
 * The newcomer crawl (issue 33): a visitor, a new member, a member with deals and an admin each
 * open every route of the app's route table (src/web/app/router.tsx) fresh, and every page keeps
 * the invariants of e2e/crawl-invariants.ts: no raw translation key, no raw payload, money and
 * dates in the page's language, every list of books a whole page (min(total, page size) cards)
 * with page links past one page, no console error, no failed request, nothing wider than 375 px.
 * Each page's problems are gathered, and the test fails once with all of them.
 */
test.describe.configure({ timeout: 600_000 });

const WIDTH = 375;
const PAGE_SIZE = 24;
/** More than a page: the library has two. */
const LISTINGS = 30;

interface World {
  seller: OpenMember;
  buyer: OpenMember;
  listingId: string;
  postId: string;
  adId: string;
}
let world: World;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  const seller = await openMember(browser);
  const buyer = await openMember(browser);
  const word = uniqueWord('giro');
  const ids: string[] = [];
  for (let i = 0; i < LISTINGS; i++) {
    const { id } = await apiPost(seller.page, '/api/listings', {
      mode: 'full',
      title: `Il giro ${i + 1} ${word}`,
      author: 'Elsa Morante',
      genre: i % 2 ? 'fiction' : 'poetry',
      condition: 'good',
      listingType: i % 3 ? 'both' : 'sell',
      price: 4.5 + i,
      currency: 'EUR',
      description: 'Una copia letta con cura.',
    });
    ids.push(id);
  }
  // A deal: the buyer contacts the seller, offers, the seller accepts (chats, offers, a deal).
  await acceptedOffer(seller, buyer, {
    mode: 'full',
    title: `La storia ${word}`,
    author: 'Elsa Morante',
    genre: 'fiction',
    condition: 'good',
    listingType: 'sell',
    price: 12,
    currency: 'EUR',
    description: 'Per la trattativa.',
  });
  // A wish and a watch, so the buyer's lists have items.
  const detail = await (await seller.page.request.get(`/api/listings/${ids[0]}`)).json();
  await apiPost(buyer.page, '/api/me/wishlist/items', { bookId: detail.bookId }).catch(
    () => undefined,
  );
  const post = await apiPost(seller.page, '/api/community/posts', {
    bookId: detail.bookId,
    content: `Un libro da rileggere ${word}.`,
  });
  const ad = await apiPost(seller.page, '/api/ads', {
    title: `Promo ${word}`,
    description: 'Libri di Elsa Morante.',
    genre: 'fiction',
    startDate: new Date().toISOString().slice(0, 10),
  });
  await apiPost(seller.page, `/api/ads/${ad.ad.id}/activate`, {});
  world = {
    seller,
    buyer,
    listingId: ids[0],
    postId: post.id,
    adId: ad.ad.id,
  };
});

test.afterAll(async () => {
  await world?.seller.context.close();
  await world?.buyer.context.close();
});

/** Every page of the route table a visitor can open, with real ids. */
const publicRoutes = () => [
  '/',
  '/about',
  '/contact',
  '/privacy-policy',
  '/privacy_policy',
  '/terms-of-service',
  '/cookie-policy',
  '/login',
  '/signup',
  '/reset-password',
  '/library',
  '/library?page=2',
  '/trade',
  '/buy',
  `/library/book/${world.listingId}`,
  '/sell',
  `/user/${world.seller.id}`,
  `/user/${world.seller.id}/books`,
  '/community',
  `/community/posts/${world.postId}`,
  '/promoted',
  `/ads/${world.adId}`,
  '/no-such-page',
];

/** The private area's pages (privateAreaRoutes), for the member `id`. */
const privateRoutes = (id: string, adId?: string) => [
  `/profile/${id}`,
  `/profile/${id}/dashboard`,
  `/profile/${id}/settings`,
  `/profile/${id}/books`,
  `/profile/${id}/wishlist`,
  `/profile/${id}/watching`,
  `/profile/${id}/trades`,
  `/profile/${id}/saved-searches`,
  `/profile/${id}/friends`,
  `/profile/${id}/chats`,
  `/profile/${id}/notifications`,
  `/profile/${id}/ads`,
  `/profile/${id}/ads/new`,
  ...(adId ? [`/profile/${id}/ads/${adId}/analytics`] : []),
];

/** The lists of books whose length the crawl checks: min(total, page size) cards, and page links. */
async function listProblems(page: Page, lang: 'it' | 'en'): Promise<string[]> {
  const url = new URL(page.url());
  const path = url.pathname + url.search;
  let total: number | undefined;
  let size = PAGE_SIZE;
  let cards = page.getByTestId('book-card');
  if (/^\/(library|trade)$/.test(url.pathname)) {
    const count = await page.getByTestId('library-count').innerText({ timeout: 15_000 });
    total = Number(count.replace(/\D/g, ''));
    cards = page
      .getByRole('list', { name: lang === 'it' ? 'Libri' : 'Books' })
      .getByTestId('book-card');
  } else if (/^\/user\/[^/]+\/books$/.test(url.pathname)) {
    const id = url.pathname.split('/')[2];
    const res = await page.request.get(`/api/users/${id}/listings?type=all&page=1`);
    const body = await res.json();
    total = body.total;
    size = body.pageSize;
  }
  if (total === undefined) return [];
  const pageNo = Number(url.searchParams.get('page') ?? 1);
  const expected = Math.max(0, Math.min(size, total - (pageNo - 1) * size));
  const found: string[] = [];
  // The cards are drawn in slices after the answer (one per frame): a whole page may take a few
  // seconds on a busy host, never forever (issue 33: it stopped at 16).
  const shown = await expect
    .poll(() => cards.count(), { timeout: 15_000 })
    .toBe(expected)
    .then(() => expected)
    .catch(() => cards.count());
  if (shown !== expected) found.push(`${path}: ${shown} cards of ${total} (expected ${expected})`);
  const next = lang === 'it' ? `Pagina ${pageNo === 1 ? 2 : 1}` : `Page ${pageNo === 1 ? 2 : 1}`;
  if (total > size) {
    const link = page.getByRole('button', { name: next, exact: true });
    const links = await expect(link)
      .toHaveCount(1, { timeout: 5_000 })
      .then(() => 1)
      .catch(() => link.count());
    if (links === 0) found.push(`${path}: ${total} books and no link to “${next}”`);
  }
  return found;
}

/** Opens each path fresh (a full load) in `page` and gathers every broken invariant. */
async function crawl(page: Page, paths: string[], lang: 'it' | 'en'): Promise<string[]> {
  const watched = watch(page, [/\/no-such-page$/]);
  const problems: string[] = [];
  for (const path of paths) {
    const started = Date.now();
    const found: string[] = [];
    try {
      await page.goto(path, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      await settle(page);
      found.push(...(await pageProblems(page, { lang, width: WIDTH })));
      found.push(...(await listProblems(page, lang)));
    } catch (e) {
      found.push(`${path}: never settled: ${(e as Error).message.split('\n')[0]}`);
    }
    // Said as the crawl goes (a crawl stopped by its time limit still tells what it saw).
    console.log(
      `crawl ${path} (${Date.now() - started} ms)${found.map((f) => `\n  ${f}`).join('')}`,
    );
    problems.push(...found);
  }
  problems.push(...watched.problems);
  return problems;
}

async function freshPage(browser: Browser, lang: 'it' | 'en') {
  const context = await browser.newContext({
    locale: lang === 'it' ? 'it-IT' : 'en-US',
    viewport: { width: WIDTH, height: 740 },
  });
  return { context, page: await context.newPage() };
}

/**
 * One test, one step per person: every page's problems are gathered, and the crawl fails once
 * with all of them (a failure in the visitor's pages does not hide the admin's).
 */
test('the newcomer crawl: every route, fresh, as four people (375 px, it and en)', async ({
  browser,
}) => {
  const problems: string[] = [];
  /** A step that cannot go on (a helper's time limit on a busy host) is a problem too, not the end. */
  const step = (name: string, body: () => Promise<void>) =>
    test.step(name, () =>
      body().catch((e: Error) => {
        problems.push(`${name}: stopped: ${e.message.split('\n')[0]}`);
      }),
    );

  await step('a visitor, in Italian: every public page', async () => {
    const { context, page } = await freshPage(browser, 'it');
    problems.push(...(await crawl(page, [...publicRoutes(), '/profile', '/admin'], 'it')));
    await context.close();
  });

  await step('a visitor in English: the library', async () => {
    const { context, page } = await freshPage(browser, 'en');
    problems.push(...(await crawl(page, ['/library', '/library?page=2', '/trade'], 'en')));
    await context.close();
  });

  await step('a new member: the private area and the pages a member sees', async () => {
    const newcomer = await openMember(browser);
    await newcomer.page.setViewportSize({ width: WIDTH, height: 740 });
    problems.push(
      ...(await crawl(
        newcomer.page,
        // The pages a member sees differently (the visitor opened every public one).
        [
          ...privateRoutes(newcomer.id),
          '/',
          '/library',
          '/sell',
          `/library/book/${world.listingId}`,
          `/user/${newcomer.id}`,
          '/community',
        ],
        'en',
      )),
    );
    await newcomer.context.close();
  });

  await step('members with deals: their private areas', async () => {
    const { seller, buyer } = world;
    await seller.page.setViewportSize({ width: WIDTH, height: 740 });
    await buyer.page.setViewportSize({ width: WIDTH, height: 740 });
    problems.push(...(await crawl(seller.page, privateRoutes(seller.id, world.adId), 'en')));
    problems.push(
      ...(await crawl(
        buyer.page,
        [
          ...['dashboard', 'chats', 'notifications', 'wishlist', 'watching', 'trades'].map(
            (p) => `/profile/${buyer.id}/${p}`,
          ),
          `/library/book/${world.listingId}`,
        ],
        'en',
      )),
    );
  });

  await step('an admin: moderation', async () => {
    const admin = await openMember(browser);
    expect(grantAdmin(admin.email)).toContain('is now an admin');
    await admin.page.setViewportSize({ width: WIDTH, height: 740 });
    problems.push(
      ...(await crawl(
        admin.page,
        ['/admin', `/profile/${admin.id}/transactions`, `/profile/${admin.id}/dashboard`],
        'en',
      )),
    );
    await admin.context.close();
  });

  expect(problems).toEqual([]);
});
