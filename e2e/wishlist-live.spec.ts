import type { Browser, Page } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth, waitForLive } from './fixtures';
import { createConfirmedMember, dismissCookieBanner } from './members';

/**
 * Details of the wishlist a person notices (issue 20 §5): the catalogue search shows a book
 * without an image by its generated cover; "available now" follows a listing of a wished book
 * live, without a reload (English at 1280 px, Italian at 375 px, side by side); a trade match
 * names both books, in each member's language.
 */
const AZKABAN = 'Harry Potter and the Prisoner of Azkaban';
const GUIDE = 'Il nome della rosa: guida alla lettura';
const ROSA = 'Il nome della rosa';
const POSTILLE = 'Postille a Il nome della rosa';

interface Person {
  page: Page;
  id: string;
  name: string;
  close: () => Promise<void>;
}

/** A signed-in member in a browser of their own, in `locale`, at `width`. */
async function person(browser: Browser, locale: string, width = 1280): Promise<Person> {
  const context = await browser.newContext({ locale, viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.goto('/');
  await dismissCookieBanner(page);
  const { id, email } = await createConfirmedMember(page);
  return { page, id, name: email.split('@')[0], close: () => context.close() };
}

const headers = (page: Page) => ({ origin: new URL(page.url()).origin });

/** The catalogue's book titled `title` (found by `q`), as the search boxes find it. */
async function catalogueBook(page: Page, q: string, title: string) {
  const res = await page.request.get(`/api/catalogue/search?${new URLSearchParams({ q })}`);
  const book = (await res.json()).items.find((b: { title: string }) => b.title === title);
  expect(book, `${title} is in the catalogue`).toBeTruthy();
  return book as { id: string; title: string; author: string };
}
async function wish(who: Person, bookId: string) {
  const res = await who.page.request.post('/api/me/wishlist/items', {
    headers: headers(who.page),
    data: { bookId },
  });
  expect(res.status(), await res.text()).toBe(201);
}
async function listForTrade(who: Person, book: { id: string; title: string; author: string }) {
  const res = await who.page.request.post('/api/listings', {
    headers: headers(who.page),
    data: {
      mode: 'quickTrade',
      bookId: book.id,
      title: book.title,
      author: book.author || 'Unknown',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id as string;
}

test("the wishlist's available now follows a listing live, in both languages", async ({
  browser,
}) => {
  const ada = await person(browser, 'en-US', 1280);
  const carla = await person(browser, 'it-IT', 375);
  const bruno = await person(browser, 'en-US');

  // Ada wishes the book from her wishlist's catalogue search; the guide, which has no image,
  // shows its generated cover there.
  await ada.page.goto(`/profile/${ada.id}/wishlist`);
  const search = ada.page.getByRole('searchbox', { name: 'Search for a book to wish' });
  const results = ada.page.getByRole('list', { name: 'Search results' });
  await search.fill(ROSA);
  const guide = results.getByRole('button', { name: new RegExp(`^${GUIDE}`) });
  await expect(guide.getByTestId('cover-generated')).toBeVisible();
  await expect(results.getByTestId('cover-placeholder')).toHaveCount(0);
  await search.fill('harry potter');
  await results.getByRole('button', { name: new RegExp(`^${AZKABAN}`) }).click();
  const adaCard = ada.page
    .getByRole('list', { name: 'Books on your wishlist' })
    .getByRole('article', { name: AZKABAN });
  await expect(adaCard.getByText('Not listed yet: we will tell you when it is.')).toBeVisible();

  const book = await catalogueBook(bruno.page, 'harry potter', AZKABAN);
  await wish(carla, book.id);
  await carla.page.goto(`/profile/${carla.id}/wishlist`);
  const carlaCard = carla.page
    .getByRole('list', { name: 'Libri della tua lista dei desideri' })
    .getByRole('article', { name: AZKABAN });
  await expect(
    carlaCard.getByText('Non ancora in vendita: ti avviseremo quando lo sarà.'),
  ).toBeVisible();
  await expectFitsWidth(carla.page, 375);

  // Bruno lists it: both wishlists say so, without a reload.
  await waitForLive(ada.page);
  await waitForLive(carla.page);
  const listing = await listForTrade(bruno, book);
  await expect(
    adaCard.getByRole('link', { name: '1 available now: See the listing' }),
  ).toHaveAttribute('href', `/library/book/${listing}`);
  await expect(
    carlaCard.getByRole('link', { name: "1 disponibile ora: Vedi l'annuncio" }),
  ).toBeVisible();

  // Reserved: not available any more, live again; then available again.
  const reserved = await bruno.page.request.post(`/api/listings/${listing}/status`, {
    headers: headers(bruno.page),
    data: { status: 'reserved' },
  });
  expect(reserved.status(), await reserved.text()).toBe(200);
  await expect(adaCard.getByText('Not listed yet: we will tell you when it is.')).toBeVisible();
  await expect(
    carlaCard.getByText('Non ancora in vendita: ti avviseremo quando lo sarà.'),
  ).toBeVisible();
  const back = await bruno.page.request.post(`/api/listings/${listing}/status`, {
    headers: headers(bruno.page),
    data: { status: 'available' },
  });
  expect(back.status(), await back.text()).toBe(200);
  await expect(
    adaCard.getByRole('link', { name: '1 available now: See the listing' }),
  ).toBeVisible();
  await expectAccessible(ada.page);
  // Deleted: gone from both, live.
  const gone = await bruno.page.request.delete(`/api/listings/${listing}`, {
    headers: headers(bruno.page),
  });
  expect(gone.status()).toBe(204);
  await expect(adaCard.getByText('Not listed yet: we will tell you when it is.')).toBeVisible();
  await expect(
    carlaCard.getByText('Non ancora in vendita: ti avviseremo quando lo sarà.'),
  ).toBeVisible();
  await Promise.all([ada.close(), carla.close(), bruno.close()]);
});

test('a trade match names both books, in each member’s language', async ({ browser }) => {
  const dario = await person(browser, 'en-US', 1280);
  const elena = await person(browser, 'it-IT', 375);
  const rosa = await catalogueBook(dario.page, ROSA, ROSA);
  const postille = await catalogueBook(dario.page, ROSA, POSTILLE);
  // Dario wishes the rose and lists the Postille for trade; Elena wishes the Postille, then
  // lists the rose for trade: the match is made by her listing.
  await wish(dario, rosa.id);
  await listForTrade(dario, postille);
  await wish(elena, postille.id);
  await listForTrade(elena, rosa);

  // Each reads it on their notifications page, in their language, both books named.
  const told = async (who: Person, bell: RegExp, text: string) => {
    await who.page.goto(`/profile/${who.id}/notifications`);
    await expect(who.page.getByText(text)).toBeVisible();
    await expect(who.page.getByRole('button', { name: bell }).first()).toBeVisible();
  };
  await told(
    dario,
    /^Notifications/,
    `${elena.name} has “${ROSA}”, which you wish, and wishes your “${POSTILLE}”: you can trade`,
  );
  await told(
    elena,
    /^Notifiche/,
    `${dario.name} ha «${POSTILLE}», che desideri, e desidera il tuo «${ROSA}»: potete fare uno scambio`,
  );
  await expectFitsWidth(elena.page, 375);
  await expectAccessible(elena.page);
  await Promise.all([dario.close(), elena.close()]);
});
