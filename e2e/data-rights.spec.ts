import { readFile } from 'node:fs/promises';
import { test, expect, expectAccessible } from './fixtures';
import { createConfirmedMember, dismissCookieBanner, signInWithForm } from './members';

/**
 * Members' data rights: a member lists a book, downloads their data (a JSON file holding their
 * e-mail and listing; a plain GET of the export, as an image would make, exports nothing),
 * deletes their account with their password, lands signed out on the home page, and can no
 * longer sign in.
 */
test.use({ locale: 'en-US' });

test('a member downloads their data, deletes their account and can no longer sign in', async ({
  page,
}) => {
  await page.goto('/');
  await dismissCookieBanner(page);
  const title = `Il sentiero dei nidi di ragno ${Date.now().toString(36)}`;
  const member = await createConfirmedMember(page);

  // Lists a book with the quick sell form.
  await page.goto(`/profile/${member.id}/books`);
  await page.getByRole('main').getByRole('button', { name: 'Add book' }).first().click();
  await page
    .getByRole('dialog', { name: 'Add book' })
    .getByRole('button', { name: /^Quick sell/ })
    .click();
  const quickSell = page.getByRole('dialog', { name: 'Quick sell' });
  await quickSell.getByLabel('Title').fill(title);
  await quickSell.getByLabel('Author').fill('Italo Calvino');
  await quickSell.getByLabel('Price (EUR)').fill('8');
  await quickSell.getByRole('button', { name: 'List for sale' }).click();
  await expect(quickSell).toBeHidden();
  await expect(page.getByRole('article', { name: title })).toBeVisible();

  // Settings → Your data → Download my data.
  await page.goto(`/profile/${member.id}/settings`);
  const section = page.getByRole('region', { name: 'Your data' });
  await expect(section).toBeVisible();
  await expectAccessible(page);
  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  // A notice that closes by itself: looked for before the file is read.
  await expect(page.getByText('The file with your data has been downloaded.')).toBeVisible();
  const archive = JSON.parse(await readFile((await download.path())!, 'utf8'));
  // The file is named for the day the archive was made (UTC), not the day the test reads it.
  const day = (archive.exportedAt as string).slice(0, 10);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^scaffale-.+-${day}\\.json$`));
  expect(archive.profile.email).toBe(member.email);
  expect(archive.listings).toEqual([
    expect.objectContaining({ title, author: 'Italo Calvino', price: 8 }),
  ]);
  // An image or a link pointing at the export (an ad's image address) exports nothing.
  const embedded = await page.request.get('/api/me/export', {
    headers: { 'sec-fetch-dest': 'image' },
  });
  expect(embedded.status()).toBe(405);
  expect(embedded.headers()['content-disposition']).toBeUndefined();

  // Delete my account: the dialog says what goes and what stays, and asks for the password.
  await section.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog.getByText('What is removed')).toBeVisible();
  await expect(dialog.getByText('What is kept')).toBeVisible();
  // The payments' ledger stays, as the law requires, no longer linked to the account (issue 36).
  await expect(
    dialog.getByText(/^the record of payments made in the app .* keep for ten years/),
  ).toBeVisible();
  await expectAccessible(page);
  const password = dialog.getByLabel('Current password');
  await password.fill('not-my-password');
  await dialog.getByRole('button', { name: 'Delete permanently' }).click();
  await expect(dialog.getByText('Incorrect password.')).toBeVisible();
  await password.fill(member.password);
  await dialog.getByRole('button', { name: 'Delete permanently' }).click();

  // Signed out, on the home page, with a notice.
  await expect(page).toHaveURL(/\/$/);
  await expect(
    page.getByText('Your account has been deleted. Thank you for being part of Scaffale.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
  expect((await page.request.get('/api/me')).status()).toBe(401);

  // Signing in again fails, as for an unknown account.
  await page.goto('/login');
  await signInWithForm(page, member.email, member.password);
  await expect(page.getByText('Invalid login credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});
