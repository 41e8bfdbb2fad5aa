import type { Page } from '@playwright/test';
import {
  testWithTwoMembers as test,
  expect,
  expectAccessible,
  expectFitsWidth,
  listBook,
  uniqueWord,
  waitForLive,
} from './fixtures';

/**
 * Watched listings (issue 22 item 4): a member watches a listing from its book page; the seller
 * lowers the price and the watcher's bell says so live, without a reload; the watched page lists
 * it (from the account menu, at 375 px too); the seller sees how many watch it, never who.
 */
const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

test('a price drop of a watched listing is told live', async ({ seller, member: watcher }) => {
  const title = `${uniqueWord('Lezioni')} americane`;
  const id = await listBook(seller.page, title, { description: 'A watched listing.' });

  // The watcher watches it from the book page: a named, pressed toggle.
  await watcher.page.goto(`/library/book/${id}`);
  const watch = watcher.page.getByRole('button', {
    name: `Watch “${title}”: be told when its price drops or it becomes available`,
  });
  await expect(watch).toHaveAttribute('aria-pressed', 'false');
  await watch.click();
  await expect(watch).toHaveAttribute('aria-pressed', 'true');
  await expect(watch).toHaveText('Watching');
  await waitForLive(watcher.page);
  await expect(bell(watcher.page)).toHaveAccessibleName('Notifications');

  // The seller sees one member watching, not who; then lowers the price.
  await seller.page.goto(`/library/book/${id}`);
  await expect(seller.page.getByTestId('watcher-count')).toHaveText(
    '1 member watches this listing',
  );
  await expect(seller.page.getByRole('button', { name: new RegExp(`^Watch “`) })).toHaveCount(0);
  const lower = await seller.page.request.patch(`/api/listings/${id}`, {
    headers: { origin: new URL(seller.page.url()).origin },
    data: { price: 15 },
  });
  expect(lower.status(), await lower.text()).toBe(200);

  // Live: the bell counts it and names the new price, no reload.
  await expect(bell(watcher.page)).toHaveAccessibleName('Notifications, 1 unread');
  await bell(watcher.page).click();
  const popover = watcher.page.getByRole('dialog', { name: 'Notifications' });
  await expect(popover.getByRole('listitem').first()).toContainText(
    `“${title}”, which you watch, now costs €15.00`,
  );
  await watcher.page.keyboard.press('Escape');

  // The account menu leads to the watched page, which lists it; at 375 px it fits.
  await watcher.page.getByRole('banner').getByRole('button', { name: 'Account menu' }).click();
  await watcher.page.getByRole('menuitem', { name: 'Watched listings' }).click();
  await expect(watcher.page).toHaveURL(`/profile/${watcher.id}/watching`);
  await expect(
    watcher.page.getByRole('heading', { level: 1, name: 'Listings I watch' }),
  ).toBeVisible();
  const list = watcher.page.getByRole('list', { name: 'Listings I watch' });
  await expect(list.getByRole('link', { name: new RegExp(title) })).toBeVisible();
  await expectAccessible(watcher.page);
  await watcher.page.setViewportSize({ width: 375, height: 800 });
  await expectFitsWidth(watcher.page);

  // Unwatching from the card empties the list after a reload.
  await list.getByRole('button', { name: new RegExp(`^Watch “`) }).click();
  await watcher.page.reload();
  await expect(watcher.page.getByText('You watch no listing yet')).toBeVisible();
});

test('a visitor is sent to sign in to watch', async ({ browser, seller }) => {
  const title = `${uniqueWord('Palomar')} visto`;
  const id = await listBook(seller.page, title);
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`/library/book/${id}`);
  await page.getByRole('link', { name: `Sign in to watch “${title}”` }).click();
  await expect(page).toHaveURL(/\/login\?redirect_to=/);
  await context.close();
});
