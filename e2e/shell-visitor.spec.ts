import type { Page } from '@playwright/test';
import { test, expect, uniqueWord } from './fixtures';
import { createConfirmedMember, dismissCookieBanner, grantAdmin, openMember } from './members';

/**
 * A visitor's pages make no failing request (the session is asked with GET /api/session, which
 * answers a visitor 200, not GET /api/me's 401 nor GET /api/admin/me's 404), and an admin's
 * account menu links to the moderation page, on a desktop and on a phone (#20, sections 4 and 5).
 */

/** Every answer of 400 or more and every console error the page sees, as text. */
function recordFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console: ${message.text()}`);
  });
  return failures;
}

test('a visitor loads the home page, the library and a book page with no failed request', async ({
  browser,
  page,
}) => {
  const seller = await openMember(browser);
  const title = `Le città invisibili ${uniqueWord('visita')}`;
  const created = await seller.page.request.post('/api/listings', {
    headers: { origin: new URL(seller.page.url()).origin },
    data: { mode: 'quickSell', title, author: 'Italo Calvino', price: 8 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const listing = (await created.json()) as { id: string };
  await seller.context.close();

  const failures = recordFailures(page);
  await page.goto('/');
  await dismissCookieBanner(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.goto('/library');
  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.goto(`/library/book/${listing.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(failures).toEqual([]);
});

const cases = [
  { width: 1280, locale: 'en-US', menu: 'Account menu', moderation: 'Moderation' },
  { width: 375, locale: 'it-IT', menu: 'Apri il menu', moderation: 'Moderazione' },
];

for (const { width, locale, menu, moderation } of cases) {
  test(`an admin's account menu links to moderation (${locale}, ${width} px)`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale, viewport: { width, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto('/');
      await dismissCookieBanner(page);
      const member = await createConfirmedMember(page);
      const failures = recordFailures(page);
      const openMenu = async () => {
        await page.goto('/');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.getByRole('button', { name: menu }).click();
      };
      // A member who is not an admin has no such link, and no failed request says so.
      await openMenu();
      await expect(page.getByRole(width < 768 ? 'dialog' : 'menu')).toBeVisible();
      await expect(page.getByText(moderation, { exact: true })).toHaveCount(0);
      await page.keyboard.press('Escape');

      expect(grantAdmin(member.email)).toContain(`${member.email} is now an admin.`);
      await openMenu();
      const link =
        width < 768
          ? page.getByRole('dialog').getByRole('link', { name: moderation })
          : page.getByRole('menuitem', { name: moderation });
      await expect(link).toBeVisible();
      await link.click();
      await expect(page).toHaveURL('/admin');
      await expect(page.getByRole('heading', { level: 1, name: moderation })).toBeVisible();
      await expect(page.getByRole('main')).toHaveCount(1);
      expect(failures).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
