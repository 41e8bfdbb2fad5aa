import type { Page } from '@playwright/test';
import {
  test,
  expect,
  expectAccessible,
  expectFitsWidth,
  uniqueWord,
  waitForLive,
} from './fixtures';
import { openMember, type OpenMember } from './members';
import { apiPost } from './api';

/**
 * Saved searches (issue 22, item 5): Ada saves a library search; Bruno lists a matching book;
 * Ada is told live, and the notification opens the library with her search, which shows the book.
 * Then she renames it and deletes it on her saved-searches page, on a phone-wide screen too.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

let ada: OpenMember;
let bruno: OpenMember;
const word = uniqueWord('dragonfly');
const TITLE = `The ${word} Chronicles`;
const NAME = `Cheap ${word}`;

test.beforeAll(async ({ browser }) => {
  ada = await openMember(browser);
  bruno = await openMember(browser);
});

test.afterAll(async () => {
  await ada?.context.close();
  await bruno?.context.close();
});

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const savedList = (page: Page) => page.getByRole('list', { name: 'Your saved searches' });

test('a member saves the library search she made', async () => {
  const page = ada.page;
  await page.setViewportSize({ width: 1280, height: 900 });
  // Typed on /library as a person does: the minimum she never set is not part of her search.
  await page.goto('/library');
  await page.getByRole('combobox', { name: 'Search' }).fill(word);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word}`));
  const maxPrice = page.getByRole('textbox', { name: 'Maximum price' });
  await maxPrice.fill('15');
  await maxPrice.blur();
  await expect(page).toHaveURL(new RegExp(`/library\\?q=${word}&maxPrice=15$`));

  await page.getByRole('button', { name: 'Save this search' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save this search' });
  const name = dialog.getByRole('textbox', { name: 'Name' });
  await expect(name).toHaveValue(word);
  await name.fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Give the search a name')).toBeVisible();
  await name.fill(NAME);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(
    dialog.getByText('Search saved: we will tell you when a matching book is listed.'),
  ).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('link', { name: 'See my saved searches' }).click();

  await expect(page).toHaveURL(`/profile/${ada.id}/saved-searches`);
  await expect(page).toHaveTitle('Saved searches | Scaffale');
  const card = savedList(page).getByRole('article', { name: NAME });
  await expect(card).toBeVisible();
  await expect(card.getByText(`Words: ${word} · Price: up to €15.00`)).toBeVisible();
  await expect(
    card.getByRole('switch', { name: `Tell me about new books for “${NAME}”` }),
  ).toBeChecked();
  await expectAccessible(page);
});

test('another member lists a matching book: she is told live and opens the library with her search', async () => {
  const page = ada.page;
  await page.goto(`/profile/${ada.id}/saved-searches`);
  await waitForLive(page);
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  await bruno.page.goto('/');
  await apiPost(bruno.page, '/api/listings', {
    mode: 'full',
    title: TITLE,
    author: 'Anna Verdi',
    genre: 'fantasy',
    listingType: 'sell',
    price: 9.5,
    description: 'Come nuovo',
  });
  // No reload: the bell counts it live.
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  await bell(page).click();
  await page
    .getByRole('dialog', { name: 'Notifications' })
    .getByRole('list', { name: 'Your notifications' })
    .getByRole('button', {
      name: new RegExp(`${bruno.name} listed “${TITLE}”, a match for your saved search “${NAME}”`),
    })
    .click();
  await expect(page).toHaveURL(new RegExp(`/library\\?q=${word}&maxPrice=15$`));
  await expect(page.getByRole('combobox', { name: 'Search' })).toHaveValue(word);
  const results = page.getByRole('list', { name: 'Books' });
  await expect(results.getByRole('link', { name: new RegExp(TITLE) }).first()).toBeVisible();
  await expect(page.getByTestId('library-count')).toHaveText('Books found: 1');

  // The seller's own search would not have told him, and he was not told of Ada's.
  const his = await (await bruno.page.request.get('/api/notifications')).json();
  expect(his.items.filter((n: { type: string }) => n.type === 'savedSearch.match')).toEqual([]);
});

test('she runs, renames and deletes it on a phone-wide screen', async () => {
  const page = ada.page;
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/profile/${ada.id}/saved-searches`);
  const card = savedList(page).getByRole('article', { name: NAME });
  await expectFitsWidth(page);
  await card.getByRole('link', { name: `Open “${NAME}” in the library` }).click();
  await expect(page).toHaveURL(`/library?q=${word}&maxPrice=15`);
  await page.goBack();

  await savedList(page)
    .getByRole('button', { name: `Rename “${NAME}”` })
    .click();
  const rename = page.getByRole('dialog', { name: `Rename “${NAME}”` });
  await rename.getByRole('textbox', { name: 'Name' }).fill(`${NAME} 2`);
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toBeHidden();
  const renamed = savedList(page).getByRole('article', { name: `${NAME} 2` });
  await expect(renamed).toBeVisible();
  await expectFitsWidth(page);

  await renamed.getByRole('switch').click({ force: true });
  await expect(renamed.getByRole('switch')).not.toBeChecked();
  await expect
    .poll(
      async () => (await (await page.request.get('/api/me/saved-searches')).json()).items[0].notify,
    )
    .toBe(false);

  await renamed.getByRole('button', { name: `Delete “${NAME} 2”` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete “${NAME} 2”` });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { name: 'No saved searches yet' })).toBeVisible();
  await expectAccessible(page);
});
