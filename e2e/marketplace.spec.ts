import type { Browser, BrowserContext, Page } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth, uniqueWord } from './fixtures';
import { dismissCookieBanner, openMember, type OpenMember } from './members';
import { pngBuffer } from './images';

/**
 * The marketplace journeys: a member lists books three ways (quick sell, quick trade from a
 * catalogue result, the full form with a cover), a visitor finds one in the library by each
 * filter and opens it, the owner manages the listings (toggle, edit, sold to a second member who
 * confirms it, delete), and the shelves and the public profile show the result.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

// A word no other journey uses, so library searches see only this run's listing.
let TOKEN = '';
let FULL_TITLE = '';
const ROSA = 'Il nome della rosa';

type Member = OpenMember & { username: string };

let seller: Member;
let buyer: Member;

async function visitor(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/');
  await dismissCookieBanner(page);
  return { context, page };
}

const myBook = (page: Page, title: string) => page.getByRole('article', { name: title });
const results = (page: Page) => page.getByRole('list', { name: 'Books' });
/** A result's card (its link), not the wishlist heart beside it, which names the book too. */
const resultCard = (page: Page, title: string) =>
  results(page).getByTestId('book-card').filter({ hasText: title });

test.beforeAll(async ({ browser }) => {
  TOKEN = uniqueWord('zephyr');
  FULL_TITLE = `Le città invisibili ${TOKEN}`;
  const suffix = Math.random().toString(36).slice(2, 7);
  seller = await openMember(browser, { username: `seller_${suffix}` });
  buyer = await openMember(browser, { username: `buyer_${suffix}` });
});

test.afterAll(async () => {
  await seller?.context.close();
  await buyer?.context.close();
});

test('a visitor on /sell is asked to sign in, with a return path to /sell', async ({ browser }) => {
  const { context, page } = await visitor(browser);
  await page.goto('/sell');
  await expect(page).toHaveTitle('Sell a book | Scaffale');
  await expect(page.getByText('Sign in to list your books for sale or trade.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in to continue' })).toHaveAttribute(
    'href',
    '/login?redirect_to=/sell',
  );
  await context.close();
});

test('a member lists books by quick sell, quick trade and the full form with a cover', async () => {
  const page = seller.page;
  // The page's clock runs as usual; the catalogue search's pause is passed on it below.
  await page.clock.install();
  await page.goto(`/profile/${seller.id}/books`);
  await expect(page).toHaveTitle('My books | Scaffale');
  await expect(
    page.getByRole('heading', { name: 'You have not listed any books yet' }),
  ).toBeVisible();
  await expectAccessible(page);

  // Quick sell, from the page's Add book button and the chooser.
  await page.getByRole('main').getByRole('button', { name: 'Add book' }).first().click();
  const chooser = page.getByRole('dialog', { name: 'Add book' });
  await chooser.getByRole('button', { name: /^Quick sell/ }).click();
  const quickSell = page.getByRole('dialog', { name: 'Quick sell' });
  await expect(quickSell.getByLabel('Price (EUR)')).toHaveValue('');
  await quickSell.getByLabel('Price (EUR)').fill('0');
  await quickSell.getByRole('button', { name: 'List for sale' }).click();
  await expect(quickSell.getByText('Title is required')).toBeVisible();
  await expect(quickSell.getByText('Author is required')).toBeVisible();
  await expect(quickSell.getByText('Price must be greater than 0')).toBeVisible();
  await quickSell.getByLabel('Title').fill(ROSA);
  await quickSell.getByLabel('Author').fill('Umberto Eco');
  await quickSell.getByLabel('Price (EUR)').fill('9.9');
  await quickSell.getByRole('button', { name: 'List for sale' }).click();
  await expect(quickSell).toBeHidden();
  const sold = myBook(page, ROSA).filter({ hasText: 'For sale' });
  await expect(sold).toBeVisible();
  await expect(sold.getByText('Available')).toBeVisible();
  await expect(sold.getByText('€9.90')).toBeVisible();

  // Quick trade, from the quick actions panel: a catalogue result supplies title and author.
  await page
    .getByRole('region', { name: 'Quick actions' })
    .getByRole('button', { name: 'Quick trade' })
    .click();
  const quickTrade = page.getByRole('dialog', { name: 'Quick trade' });
  const search = quickTrade.getByRole('searchbox', { name: 'Search for a book' });
  await search.fill('Il');
  // Two characters do not search: the pause (500 ms) passes at once on the page's clock.
  await page.clock.runFor(700);
  await expect(quickTrade.getByRole('list', { name: 'Search results' })).toHaveCount(0);
  await search.fill(ROSA);
  const hit = quickTrade
    .getByRole('list', { name: 'Search results' })
    .getByRole('button', { name: new RegExp(`^${ROSA}`) })
    .first();
  await hit.click();
  await expect(quickTrade.getByLabel('Title')).toHaveValue(ROSA);
  await expect(quickTrade.getByLabel('Author')).toHaveValue(/Umberto Eco/);
  // The select-book field clears one second after the choice.
  await expect(search).toHaveValue('');
  await quickTrade.getByRole('button', { name: 'List for trade' }).click();
  await expect(quickTrade).toBeHidden();
  await expect(myBook(page, ROSA).filter({ hasText: 'For trade' })).toBeVisible();

  // The full form on /sell, with a generated PNG cover uploaded with progress.
  await page.goto('/sell');
  const main = page.getByRole('main');
  await expect(page.getByRole('heading', { level: 1, name: 'Sell a book' })).toBeVisible();
  await page.getByRole('button', { name: 'List book' }).click();
  await expect(page.getByText('Title is required')).toBeVisible();
  await expect(page.getByText('Please select a genre')).toBeVisible();
  await expect(page.getByText('Price is required for sale listings')).toBeVisible();
  await expect(page.getByText('Description is required')).toBeVisible();
  await main.getByLabel('Title').fill(FULL_TITLE);
  await main.getByLabel('Author').fill('Italo Calvino');
  await main.getByLabel('Genre').selectOption('fiction');
  await main.getByLabel('Condition').selectOption('likeNew');
  await main.getByLabel('Listing type').selectOption('both');
  await main.getByRole('textbox', { name: 'Price', exact: true }).fill('15');
  await page
    .getByLabel('Description')
    .fill('Fifty-five cities, one traveller. Pencil notes inside.');
  await main.getByLabel('ISBN').fill('978-88-04-66823-7');
  await main.getByLabel('Language').fill('Italian');
  await main.getByLabel('Location').fill('Bologna');
  await page.locator('input[type=file]').setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: await pngBuffer(120, 180),
  });
  await expect(page.getByText('Cover uploaded.')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );
  await page.getByRole('button', { name: 'List book' }).click();

  // It lands on the new listing's page.
  await expect(page).toHaveURL(/\/library\/book\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: FULL_TITLE })).toBeVisible();
  await expect(page.locator('main img[src^="/uploads/"]')).toHaveCount(1);
  await expect(page.getByTestId('detail-price')).toContainText('€15.00');
});

test('a visitor finds the book in the library by text, genre, type and price', async ({
  browser,
}) => {
  const { context, page } = await visitor(browser);
  await page.goto('/library');
  await expect(page).toHaveTitle('Library | Scaffale');
  // Other journeys list books in parallel, so the newest page may already hold theirs: this
  // journey's book is looked for by its own word.
  await expect(results(page).getByTestId('book-card').first()).toBeVisible();
  await expectAccessible(page);

  // Text: the URL follows the box after a short pause.
  await page.getByRole('combobox', { name: 'Search', exact: true }).fill(TOKEN);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${TOKEN}`));
  await expect(page.getByTestId('library-count')).toHaveText('Books found: 1');

  // Genre.
  await page.getByLabel('Genre').selectOption('poetry');
  await expect(page.getByRole('heading', { name: 'No results' })).toBeVisible();
  await page.getByLabel('Genre').selectOption('fiction');
  await expect(page).toHaveURL(/genre=fiction/);
  await expect(page.getByTestId('library-count')).toHaveText('Books found: 1');

  // Type: 'both' counts as for sale and as for trade.
  await page.getByLabel('Listing type').selectOption('trade');
  await expect(page.getByTestId('library-count')).toHaveText('Books found: 1');
  await page.getByLabel('Listing type').selectOption('sell');
  await expect(page).toHaveURL(/type=sell/);
  await expect(page.getByTestId('library-count')).toHaveText('Books found: 1');

  // Back and forward walk through the filters.
  await page.goBack();
  await expect(page).toHaveURL(/type=trade/);
  await expect(page.getByLabel('Listing type')).toHaveValue('trade');
  await page.goForward();
  await expect(page.getByLabel('Listing type')).toHaveValue('sell');

  // Price: above its price nothing, a range around it finds it.
  await page.getByRole('textbox', { name: 'Minimum price' }).fill('16');
  await page.getByRole('textbox', { name: 'Minimum price' }).press('Enter');
  await expect(page).toHaveURL(/minPrice=16/);
  await expect(page.getByRole('heading', { name: 'No results' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Minimum price' }).fill('10');
  await page.getByRole('textbox', { name: 'Minimum price' }).press('Enter');
  await expect(page).toHaveURL(/minPrice=10/);
  await expect(page.getByTestId('library-count')).toHaveText('Books found: 1');

  // A filtered URL is shareable: a reload shows the same results and filters.
  const filtered = page.url();
  await page.reload();
  expect(page.url()).toBe(filtered);
  await expect(page.getByRole('combobox', { name: 'Search', exact: true })).toHaveValue(TOKEN);
  await expect(page.getByLabel('Genre')).toHaveValue('fiction');
  await expect(page.getByTestId('library-count')).toHaveText('Books found: 1');

  // The detail page, from the result.
  await resultCard(page, FULL_TITLE).click();
  await expect(page).toHaveURL(/\/library\/book\/[0-9a-f-]{36}$/);
  await expect(page).toHaveTitle(`Library - ${FULL_TITLE} | Scaffale`);
  await expect(page.getByRole('heading', { level: 1, name: FULL_TITLE })).toBeVisible();
  await expect(page.getByText('Like new')).toBeVisible();
  await expect(page.getByText('Sale or trade').first()).toBeVisible();
  await expect(page.getByText('Pencil notes inside.')).toBeVisible();
  const sellerLink = page.getByRole('region', { name: 'Seller' }).getByRole('link').first();
  await expect(sellerLink).toHaveAttribute('href', `/user/${seller.id}`);
  await expect(page.getByRole('link', { name: 'Back to library' })).toHaveAttribute(
    'href',
    '/library',
  );
  await expectAccessible(page);

  // Back returns to the filtered library; clearing resets every filter.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL(filtered);
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page).toHaveURL(/\/library$/);
  await expect(page.getByRole('combobox', { name: 'Search', exact: true })).toHaveValue('');
  await expect(page.getByLabel('Genre')).toHaveValue('');

  // A listing that does not exist.
  await page.goto('/library/book/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('alert')).toContainText('Book not found');
  await expect(page.getByRole('alert')).toContainText(
    "The book you're looking for doesn't exist or has been removed.",
  );
  await expectAccessible(page);
  await context.close();
});

test('the owner toggles, edits, marks as sold to another member and deletes', async () => {
  const page = seller.page;
  await page.goto(`/profile/${seller.id}/books`);
  const forSale = myBook(page, ROSA).filter({ hasText: 'For sale' });
  const forTrade = myBook(page, ROSA).filter({ hasText: 'For trade' });
  const full = myBook(page, FULL_TITLE);
  await expect(full).toBeVisible();
  await expectAccessible(page);

  // Toggle active.
  await forSale.getByRole('button', { name: 'Deactivate' }).click();
  await expect(forSale.getByText('Inactive')).toBeVisible();
  await forSale.getByRole('button', { name: 'Activate' }).click();
  await expect(forSale.getByText('Available')).toBeVisible();

  // Edit: the full form, pre-filled.
  await full.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit book' });
  await expect(edit.getByLabel('Title')).toHaveValue(FULL_TITLE);
  await expect(edit.getByLabel('Genre')).toHaveValue('fiction');
  await expect(edit.getByRole('textbox', { name: 'Price', exact: true })).toHaveValue('15.00');
  await edit.getByRole('textbox', { name: 'Price', exact: true }).fill('18.5');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(full.getByText('€18.50')).toBeVisible();

  // Mark as sold to the second member, chosen by username.
  await forSale.getByRole('button', { name: 'Mark as sold or traded' }).click();
  const complete = page.getByRole('dialog', { name: 'Mark as sold or traded' });
  await complete.getByLabel("Member's username").fill('nobody_at_all_x');
  await complete.getByRole('button', { name: 'Confirm' }).click();
  await expect(complete.getByText('No user found with this username')).toBeVisible();
  await complete.getByLabel("Member's username").fill(buyer.username);
  await complete.getByRole('button', { name: 'Confirm' }).click();
  await expect(complete).toBeHidden();
  await expect(page.getByText(`We asked ${buyer.username} to confirm.`)).toBeVisible();
  // Nothing counts until that member confirms, from the trades page their notification opens.
  await expect(forSale.getByText('Available')).toBeVisible();
  const buyerPage = buyer.page;
  await buyerPage.goto(`/profile/${buyer.id}/notifications`);
  await buyerPage.getByRole('button', { name: new RegExp(`says they sold you “${ROSA}”`) }).click();
  await expect(buyerPage).toHaveURL(new RegExp(`/profile/${buyer.id}/transactions$`));
  const asked = buyerPage.getByTestId('pending-trade').filter({ hasText: ROSA });
  await expect(asked).toContainText(`says they sold you “${ROSA}”. Is that right?`);
  await expectAccessible(buyerPage);
  await asked.getByRole('button', { name: 'Yes, confirm' }).click();
  await expect(
    buyerPage.getByText('Confirmed: the exchange now counts for both of you.'),
  ).toBeVisible();
  await expect(asked).toHaveCount(0);
  await expect(buyerPage.getByTestId('trade').filter({ hasText: ROSA })).toBeVisible();
  await page.reload();
  const soldCard = myBook(page, ROSA).filter({ has: page.getByText('Sold', { exact: true }) });
  await expect(soldCard.getByText('Inactive')).toBeVisible();
  await expect(soldCard.getByRole('button', { name: 'Mark as sold or traded' })).toHaveCount(0);

  // Delete after confirmation.
  await forTrade.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete book' });
  await expect(confirm).toContainText(`Delete "${ROSA}"?`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(forTrade).toBeVisible();
  await forTrade.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete book' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(forTrade).toHaveCount(0);
  await expect(myBook(page, ROSA)).toHaveCount(1);

  // My books at 375 px: nothing overflows sideways.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(full).toBeVisible();
  await expectFitsWidth(page);
  await page.setViewportSize({ width: 1280, height: 720 });
});

test('the buy page shows shelves that scroll', async ({ browser }) => {
  const { context, page } = await visitor(browser);
  await page.goto('/buy');
  await expect(page).toHaveTitle('Buy books | Scaffale');
  // The shelves without a search are shared by every journey and may be up to 30 s old: this
  // journey's book is looked for by its own word below.
  const justListed = page.getByRole('region', { name: 'Just Listed' });
  await expect(justListed.getByRole('link').first()).toBeVisible();
  await expect(
    justListed.getByRole('button', { name: 'Scroll Just Listed forward' }),
  ).toBeVisible();
  await expectAccessible(page);

  // Search narrows every shelf.
  await page.getByRole('searchbox', { name: 'Search' }).fill(TOKEN);
  await expect(page).toHaveURL(new RegExp(`q=${TOKEN}`));
  await expect(justListed.getByRole('link')).toHaveCount(1);
  await expect(justListed.getByRole('link', { name: new RegExp(FULL_TITLE) })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Fiction', exact: true })).toBeVisible();
  await justListed.getByRole('link', { name: new RegExp(FULL_TITLE) }).click();
  await expect(page.getByRole('heading', { level: 1, name: FULL_TITLE })).toBeVisible();
  await context.close();
});

test('the public profile shows the listing and the rating', async ({ browser }) => {
  const { context, page } = await visitor(browser);
  await page.goto(`/user/${seller.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // One completed sale but no review yet: a new member, no stars and no figure (only reviews rate).
  await expect(page.getByText('New member', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Rating/ })).toHaveCount(0);
  await expect(page.getByTestId('profile-totalTrades')).toHaveText('1');
  const recent = page.getByRole('region', { name: 'Recent books' });
  await expect(recent.getByRole('link', { name: new RegExp(FULL_TITLE) })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to dashboard' })).toHaveCount(0);
  await expectAccessible(page);

  // The member's books, in tabs.
  await page.getByRole('link', { name: 'See all books' }).click();
  await expect(page).toHaveURL(new RegExp(`/user/${seller.id}/books$`));
  await page.getByRole('tab', { name: 'For trade' }).click();
  await expect(page).toHaveURL(/type=trade/);
  await expect(page.getByRole('link', { name: new RegExp(FULL_TITLE) })).toBeVisible();

  await page.goto('/user/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('alert')).toContainText(
    "The user profile you're looking for doesn't exist or has been removed.",
  );
  await context.close();

  // The owner sees the way to the dashboard.
  await seller.page.goto(`/user/${seller.id}`);
  await expect(seller.page.getByRole('link', { name: 'Go to dashboard' })).toHaveAttribute(
    'href',
    `/profile/${seller.id}/dashboard`,
  );
});

test('the library works at 375 px with the filters in a drawer', async ({ browser }) => {
  const { context, page } = await visitor(browser);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/trade');
  await expect(page.getByRole('heading', { level: 1, name: 'Trade books' })).toBeVisible();
  // The words above the results; the other filters in the drawer.
  await page.getByRole('combobox', { name: 'Search', exact: true }).fill(TOKEN);
  await expect(page).toHaveURL(new RegExp(`q=${TOKEN}`));
  await page.getByRole('button', { name: 'Filters' }).click();
  const drawer = page.getByRole('dialog', { name: 'Filters' });
  await expect(drawer.getByLabel('Listing type')).toHaveValue('trade');
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(resultCard(page, FULL_TITLE)).toBeVisible();
  await expectFitsWidth(page);
  await expectAccessible(page);
  await context.close();
});
