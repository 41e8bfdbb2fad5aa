import type { Page } from '@playwright/test';
import { test, expect, expectAccessible } from './fixtures';
import { openMember, type OpenMember } from './members';
import { outbox } from './outbox';

/**
 * The wishlist journeys: a member wishes a book from the catalogue search; another member lists
 * that book and the first is told (notification opening the listing, and the e-mail digest);
 * the heart on the listing shows it is wished; two members who each list for trade what the
 * other wishes find each other on their trade-matches page and open a chat from there.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

const ROSA = 'Il nome della rosa';
const POTTER = "Harry Potter and the Sorcerer's Stone";

let ada: OpenMember;
let bruno: OpenMember;
/** The path of Bruno's listing of the rose, which Ada's notification opens. */
let brunosListing = '';

test.beforeAll(async ({ browser }) => {
  const suffix = Math.random().toString(36).slice(2, 7);
  ada = await openMember(browser, { username: `ada_${suffix}` });
  bruno = await openMember(browser, { username: `bruno_${suffix}` });
});

test.afterAll(async () => {
  await ada?.context.close();
  await bruno?.context.close();
});

const results = (page: Page) => page.getByRole('list', { name: 'Search results' });
const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const wishedBooks = (page: Page) => page.getByRole('list', { name: 'Books on your wishlist' });

/**
 * Searches the add panel's catalogue box and picks the first result titled `title`. The query must
 * find that title itself: while a search runs the box keeps showing the previous results, so a
 * title that only an earlier search found could be clicked there or not, by chance.
 */
async function wishFromCatalogue(page: Page, query: string, title: string) {
  const search = page.getByRole('searchbox', { name: 'Search for a book to wish' });
  await search.fill(query);
  await results(page)
    .getByRole('button', { name: new RegExp(`^${title.replace(/[?']/g, '.')}`) })
    .first()
    .click();
  // The box clears a second after the choice (as on quick add).
  await expect(search).toHaveValue('');
}

/** Quick trade from My books: a catalogue result supplies the book. */
async function listForTrade(page: Page, userId: string, query: string, title: string) {
  await page.goto(`/profile/${userId}/books`);
  await page
    .getByRole('region', { name: 'Quick actions' })
    .getByRole('button', { name: 'Quick trade' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Quick trade' });
  await dialog.getByRole('searchbox', { name: 'Search for a book' }).fill(query);
  await dialog
    .getByRole('list', { name: 'Search results' })
    .getByRole('button', { name: new RegExp(`^${title.replace(/[?']/g, '.')}`) })
    .first()
    .click();
  await expect(dialog.getByLabel('Title')).toHaveValue(title);
  await dialog.getByRole('button', { name: 'List for trade' }).click();
  await expect(dialog).toBeHidden();
}

test('a visitor is sent to sign in by the wishlist', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`/profile/${ada.id}/wishlist`);
  await expect(page).toHaveURL(
    `/login?redirect_to=${encodeURIComponent(`/profile/${ada.id}/wishlist`)}`,
  );
  await context.close();
});

test('a member wishes a book from the catalogue search; the same book twice is refused', async () => {
  const page = ada.page;
  // The page's clock runs as usual; the search's pause is passed on it below.
  await page.clock.install();
  await page.goto(`/profile/${ada.id}/dashboard`);
  await page
    .getByRole('navigation', { name: 'Private area' })
    .getByRole('link', { name: 'Wishlist' })
    .click();
  await expect(page).toHaveURL(`/profile/${ada.id}/wishlist`);
  await expect(page).toHaveTitle('Wishlist | Scaffale');
  await expect(page.getByRole('heading', { level: 1, name: 'My Wishlist' })).toBeVisible();
  await expect(page.getByText('Books I want to read or acquire')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your wishlist is empty' })).toBeVisible();
  await expectAccessible(page);

  // Two characters do not search; the full title does, after the pause.
  const searched: string[] = [];
  const record = (request: { url(): string }) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/catalogue/search') searched.push(url.searchParams.get('q') ?? '');
  };
  page.on('request', record);
  const search = page.getByRole('searchbox', { name: 'Search for a book to wish' });
  await search.fill('Il');
  // Nothing to wait for: the pause (500 ms) passes at once on the page's clock, and no search
  // starts.
  await page.clock.runFor(700);
  await expect(results(page)).toHaveCount(0);
  await wishFromCatalogue(page, ROSA, ROSA);
  page.off('request', record);
  expect(searched).toEqual([ROSA]);
  await expect(
    page.getByRole('status').filter({ hasText: `“${ROSA}” is on your wishlist.` }),
  ).toBeVisible();
  const card = wishedBooks(page).getByRole('article', { name: ROSA });
  await expect(card).toBeVisible();
  await expect(card.getByText('Umberto Eco')).toBeVisible();
  await expect(card.getByText('ISBN 9788845292613')).toBeVisible();
  // Whether someone lists it already depends on the other journeys sharing this database.
  await expect(
    card.getByText(
      /^(Not listed yet: we will tell you when it is\.|\d+ available now: See the listing)$/,
    ),
  ).toBeVisible();
  await expect(page.getByText('1 book', { exact: false })).toBeVisible();

  // The same book again.
  await wishFromCatalogue(page, `${ROSA} `, ROSA);
  await expect(page.getByTestId('wishlist-error')).toHaveText(
    'This book is already on your wishlist.',
  );
  await expect(wishedBooks(page).getByRole('article')).toHaveCount(1);

  // A second book, then removed.
  await wishFromCatalogue(page, ROSA, 'Postille a Il nome della rosa');
  await expect(wishedBooks(page).getByRole('article')).toHaveCount(2);
  await wishedBooks(page)
    .getByRole('button', { name: 'Remove “Postille a Il nome della rosa” from the wishlist' })
    .click();
  await expect(wishedBooks(page).getByRole('article')).toHaveCount(1);
  await expectAccessible(page);
});

test('another member lists the wished book: the first is told, the notification opens it', async () => {
  const page = ada.page;
  // The other journeys share this database and list this book too, each listing an alert for
  // Ada: she starts with everything read, and Bruno's alert is told apart by his name.
  await page.goto(`/profile/${ada.id}/dashboard`);
  const readAll = await page.request.post('/api/notifications/read-all', {
    headers: { origin: new URL(page.url()).origin },
  });
  expect(readAll.status(), await readAll.text()).toBe(200);
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  // Bruno lists the book: Ada's bell counts it live, without a reload.
  await listForTrade(bruno.page, bruno.id, ROSA, ROSA);
  await expect(bell(page)).toHaveAccessibleName(/^Notifications, \d+ unread$/);
  await bell(page).click();
  const popover = page.getByRole('dialog', { name: 'Notifications' });
  await popover
    .getByRole('list', { name: 'Your notifications' })
    .getByRole('button', {
      name: new RegExp(`${bruno.name} listed “${ROSA}”, a book on your wishlist`),
    })
    .click();
  await expect(page).toHaveURL(/\/library\/book\/[0-9a-f-]{36}$/);
  brunosListing = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1, name: ROSA })).toBeVisible();
  // Opened, Bruno's alert is read.
  await expect
    .poll(async () => {
      const mine = await (await page.request.get('/api/notifications')).json();
      return mine.items
        .filter(
          (n: { type: string; actor: { id: string } | null }) =>
            n.type === 'wishlist.listed' && n.actor?.id === bruno.id,
        )
        .map((n: { read: boolean }) => n.read);
    })
    .toEqual([true]);
  // The heart on the listing shows the book is wished; the wishlist shows it is available.
  await expect(page.getByRole('button', { name: 'On your wishlist', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.goto(`/profile/${ada.id}/wishlist`);
  const card = wishedBooks(page).getByRole('article', { name: ROSA });
  // The newest listing of the book: Bruno's, unless another journey has listed it since.
  await card.getByRole('link', { name: /\d+ available now/ }).click();
  await expect(page).toHaveURL(/\/library\/book\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: ROSA })).toBeVisible();

  // The seller is not told about his own listing.
  const his = await (await bruno.page.request.get('/api/notifications')).json();
  expect(his.items.filter((n: { type: string }) => n.type === 'wishlist.listed')).toEqual([]);

  // The alert reaches Ada's inbox with the hourly digest (the server sends due digests every
  // minute, every second under the e2e test clock).
  await expect
    .poll(
      async () => (await outbox(page)).some((m) => m.to === ada.email && m.text.includes(ROSA)),
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(true);
});

test('the heart adds and removes a listed book from the library card', async ({ browser }) => {
  // A visitor's heart leads to sign in, and back to the same search.
  const visitor = await browser.newContext({ locale: 'en-US' });
  const anonymous = await visitor.newPage();
  await anonymous.goto(`/library?q=${encodeURIComponent(ROSA)}`);
  await expect(
    anonymous.getByRole('link', { name: `Sign in to add “${ROSA}” to your wishlist` }).first(),
  ).toHaveAttribute(
    'href',
    `/login?redirect_to=${encodeURIComponent(`/library?q=${encodeURIComponent(ROSA)}`)}`,
  );
  await visitor.close();

  // Other journeys list books titled like the rose (some of them another book, by another
  // author): Ada uses the heart on Bruno's card, so she wishes the book he offers again.
  const page = ada.page;
  const brunosCard = page
    .getByRole('list', { name: 'Books' })
    .getByRole('listitem')
    .filter({ has: page.locator(`a[href="${brunosListing}"]`) });
  await page.goto(`/library?q=${encodeURIComponent(ROSA)}`);
  const heart = brunosCard.getByRole('button', { name: `Remove “${ROSA}” from the wishlist` });
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  await heart.click();
  await expect(
    brunosCard.getByRole('button', { name: `Add “${ROSA}” to the wishlist` }),
  ).toHaveAttribute('aria-pressed', 'false');
  await page.goto(`/profile/${ada.id}/wishlist`);
  await expect(page.getByRole('heading', { name: 'Your wishlist is empty' })).toBeVisible();
  await page.goto(`/library?q=${encodeURIComponent(ROSA)}`);
  await brunosCard.getByRole('button', { name: `Add “${ROSA}” to the wishlist` }).click();
  await page.goto(`/profile/${ada.id}/wishlist`);
  await expect(wishedBooks(page).getByRole('article', { name: ROSA })).toBeVisible();
});

test('two members who each list for trade what the other wishes see each other and chat', async () => {
  // Bruno wishes Harry Potter; Ada lists it for trade (Bruno lists the rose Ada wishes).
  await bruno.page.goto(`/profile/${bruno.id}/wishlist`);
  await wishFromCatalogue(bruno.page, 'harry potter', POTTER);
  await expect(wishedBooks(bruno.page).getByRole('article', { name: POTTER })).toBeVisible();
  await listForTrade(ada.page, ada.id, 'harry potter', POTTER);

  const page = ada.page;
  await page.goto(`/profile/${ada.id}/dashboard`);
  await page
    .getByRole('navigation', { name: 'Private area' })
    .getByRole('link', { name: 'Trade matches' })
    .click();
  await expect(page).toHaveTitle('Trade matches | Scaffale');
  const match = page.getByRole('article', { name: bruno.name });
  await expect(match).toBeVisible();
  await expect(
    match
      .getByRole('region', { name: `${bruno.name} has for you` })
      .getByRole('link', { name: ROSA }),
  ).toBeVisible();
  await expect(
    match
      .getByRole('region', { name: `You have for ${bruno.name}` })
      .getByRole('link', { name: POTTER }),
  ).toBeVisible();
  await expectAccessible(page);

  // Bruno sees Ada, and both were told of the match.
  await bruno.page.goto(`/profile/${bruno.id}/trades`);
  await expect(bruno.page.getByRole('article', { name: ada.name })).toBeVisible();
  const told = await (await bruno.page.request.get('/api/notifications')).json();
  expect(told.items.some((n: { type: string }) => n.type === 'trade.match')).toBe(true);

  // From the match, a chat with Bruno.
  await match.getByRole('button', { name: `Message ${bruno.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${ada.id}/chats\\?room=[0-9a-f-]{36}`));
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
});

test('at 375 px the wishlist and the trade matches fit and work by keyboard', async () => {
  const page = ada.page;
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`/profile/${ada.id}/wishlist`);
  await expect(wishedBooks(page).getByRole('article', { name: ROSA })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole('searchbox', { name: 'Search for a book to wish' }).focus();
  await page.keyboard.type('harry potter');
  await results(page).getByRole('button').first().waitFor();
  await page.keyboard.press('Tab');
  await expect(results(page).getByRole('button').first()).toBeFocused();
  await page.goto(`/profile/${ada.id}/trades`);
  await expect(page.getByRole('article', { name: bruno.name })).toBeVisible();
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 800 });
});
