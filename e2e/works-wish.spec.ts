import { test, expect, expectAccessible, expectFitsWidth, uniqueWord } from './fixtures';
import { apiPost } from './api';
import {
  createConfirmedMember,
  dismissCookieBanner,
  grantAdmin,
  openMember,
  type OpenMember,
} from './members';

/**
 * Works, the rest of issue 35: an admin finds a work on the admin page's Works tab and gives it
 * its English title (the audit log says so); a reader wishes the work from its page; another
 * member lists the English edition, and the reader's bell tells them at once; the wishlist shows
 * the work with its copies and the cheapest, and leads to its page.
 */
test.describe.configure({ mode: 'serial' });

let WORD = '';
let anna: OpenMember;
let ada: OpenMember;
let bruno: OpenMember;
let workId = '';
const italian = () => `Il sentiero ${WORD}`;
const english = () => `The Path ${WORD}`;
const author = () => `Autrice ${WORD}`;
const book = {
  mode: 'full',
  genre: 'fiction',
  listingType: 'sell',
  condition: 'good',
  currency: 'EUR',
  description: 'Una copia letta con cura.',
};

test.beforeAll(async ({ browser }) => {
  WORD = uniqueWord('sentiero');
  // One after the other: the machine the journeys run on is shared.
  anna = await openMember(browser);
  ada = await openMember(browser);
  bruno = await openMember(browser);
  const { id } = await apiPost(anna.page, '/api/listings', {
    ...book,
    title: italian(),
    author: author(),
    language: 'Italiano',
    price: 9,
    shippingCost: 2,
  });
  const related = await (await anna.page.request.get(`/api/listings/${id}/related`)).json();
  workId = related.work.id;
  expect(workId).toMatch(/^[0-9a-f-]{36}$/);
});

test.afterAll(async () => {
  for (const m of [anna, ada, bruno]) await m?.context.close();
});

const bell = (page: OpenMember['page']) => page.getByRole('button', { name: /^Notifications/ });

test('an admin gives a work its English title; a reader wishes it and hears of a new English copy', async ({
  browser,
}) => {
  // The admin: the Works tab finds the work by its author, the editor adds its English title.
  const adminContext = await browser.newContext({ locale: 'en-US' });
  const a = await adminContext.newPage();
  await a.goto('/');
  await dismissCookieBanner(a);
  const admin = await createConfirmedMember(a);
  expect(grantAdmin(admin.email)).toContain('is now an admin');
  await a.goto('/admin');
  await a.getByRole('tab', { name: 'Works' }).click();
  await a.getByLabel('Find a work').fill(author());
  await a.getByRole('button', { name: 'Search', exact: true }).click();
  const found = a.getByTestId('admin-work');
  await expect(found).toHaveCount(1);
  await expect(found).toContainText(italian());
  await expect(found).toContainText('Catalogue books: 1 · copies available: 1');
  await found.getByRole('button', { name: 'Edit' }).click();
  const editor = a.getByTestId('work-editor');
  await expect(editor.getByTestId('work-books')).toContainText(italian());
  await editor.getByRole('button', { name: 'Add a title in another language' }).click();
  await editor.getByLabel('Language').last().fill('en');
  await editor.getByLabel('Title', { exact: true }).last().fill(english());
  await editor.getByRole('button', { name: 'Save the work' }).click();
  await expect(a.getByText('Work saved.')).toBeVisible();
  await expectFitsWidth(a, 1280);
  await expectAccessible(a);
  // The audit log shows the correction with the other admin actions.
  await a.getByRole('tab', { name: 'Audit log' }).click();
  const entry = a.getByTestId('audit-log').getByRole('row').nth(1);
  await expect(entry).toContainText('corrected the work');
  await expect(entry).toContainText(`en: — → «${english()}»`);
  await expect(entry.getByRole('link', { name: 'Open the book’s page' })).toHaveAttribute(
    'href',
    `/books/${workId}`,
  );
  await adminContext.close();

  // The reader wishes the work, in every edition and language, from its page.
  const page = ada.page;
  await page.goto(`/books/${workId}`);
  await expect(page.getByRole('heading', { level: 1, name: english() })).toBeVisible();
  const wish = page.getByTestId('work-wish');
  await expect(wish).toHaveText('Add to wishlist');
  await wish.click();
  await expect(wish).toHaveText('On your wishlist');
  await expect(wish).toHaveAttribute('aria-pressed', 'true');
  await page.goto(`/profile/${ada.id}/dashboard`);
  const readAll = await page.request.post('/api/notifications/read-all', {
    headers: { origin: new URL(page.url()).origin },
  });
  expect(readAll.status()).toBe(200);
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  // Another member lists the English edition: the reader's bell counts it live.
  await apiPost(bruno.page, '/api/listings', {
    ...book,
    title: english(),
    author: author(),
    language: 'English',
    price: 5,
    shippingCost: 1,
  });
  await expect(bell(page)).toHaveAccessibleName(/^Notifications, 1 unread$/);
  await bell(page).click();
  await expect(
    page
      .getByRole('dialog', { name: 'Notifications' })
      .getByRole('button', { name: new RegExp(`${bruno.name} listed “${english()}”`) }),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  // The wishlist: the work, its copies and the cheapest delivered, to its page.
  await page.goto(`/profile/${ada.id}/wishlist`);
  const card = page.getByRole('article', { name: english() });
  await expect(card).toContainText('Any edition and language');
  await card.getByRole('link', { name: '2 copies from €6.00' }).click();
  await expect(page).toHaveURL(new RegExp(`/books/${workId}$`));
  await expect(page.getByTestId('work-copy')).toHaveCount(2);
  await expect(page.getByTestId('work-copy').first()).toContainText('English');
});
