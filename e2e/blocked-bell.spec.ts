import type { Page } from '@playwright/test';
import { test, expect, expectAccessible, listBook, uniqueWord, waitForLive } from './fixtures';
import { openMember, type OpenMember } from './members';
import { apiPost } from './api';

/**
 * A block reaches the bell (issue 32 item 4, docs/notifications.md#who-may-hear-of-whom): a
 * reader wishes a book; a seller who blocked them lists it, and nothing arrives; another member
 * lists it, and the bell counts that one alone, live, and its popover names only the other.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial', timeout: 150_000 });

let seller: OpenMember;
let wisher: OpenMember;
let other: OpenMember;

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

test.beforeAll(async ({ browser }) => {
  seller = await openMember(browser);
  wisher = await openMember(browser);
  other = await openMember(browser);
});

test.afterAll(async () => {
  await Promise.all([seller, wisher, other].map((m) => m?.context.close()));
});

test('a blocked member’s bell gets nothing of the blocker', async () => {
  const TITLE = `La luna e i falò ${uniqueWord('')}`;
  const author = { author: 'Cesare Pavese' };
  // A first listing brings the book into the catalogue; the wisher wishes it.
  const first = await listBook(other.page, TITLE, author);
  const { bookId } = await (await other.page.request.get(`/api/listings/${first}`)).json();
  await apiPost(wisher.page, '/api/me/wishlist/items', { bookId });

  // The seller blocks the wisher.
  const blocked = await seller.page.request.put(`/api/blocks/${wisher.id}`, {
    headers: { origin: new URL(seller.page.url()).origin },
  });
  expect(blocked.status(), await blocked.text()).toBe(200);

  const page = wisher.page;
  await page.goto(`/profile/${wisher.id}/dashboard`);
  await waitForLive(page);
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  // The seller lists the wished book: nothing comes. Another member lists it: the bell counts
  // that one, live.
  await listBook(seller.page, TITLE, author);
  await listBook(other.page, TITLE, author);
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  await bell(page).click();
  const list = page
    .getByRole('dialog', { name: 'Notifications' })
    .getByRole('list', { name: 'Your notifications' });
  await expect(
    list.getByRole('button', {
      name: new RegExp(`${other.name} listed “${TITLE}”, a book on your wishlist`),
    }),
  ).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).not.toContainText(seller.name);
  await expectAccessible(page);

  // Nor does the API hold anything of the seller.
  const mine = await (await page.request.get('/api/notifications')).json();
  expect(
    mine.items.filter((n: { actor: { id: string } | null }) => n.actor?.id === seller.id),
  ).toEqual([]);
});
