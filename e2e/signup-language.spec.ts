import { test, expect, chooseLanguage } from './fixtures';
import { PASSWORD, createConfirmedMember, dismissCookieBanner, uniqueEmail } from './members';
import { linkFromOutbox } from './outbox';

test.use({ locale: 'en-US' });

/** Issue 33, item 10: sign-up's check-your-e-mail view, the header's language, /profile/settings. */
test.describe('sign-up and the member language', () => {
  test('the check-your-e-mail view stays, and sends the link again', async ({ page }) => {
    const email = uniqueEmail('stay');
    await page.goto('/signup');
    await dismissCookieBanner(page);
    await page.getByLabel('Display name').fill('Stella Stays');
    await page.getByLabel('Username').fill(`st_${Date.now().toString(36)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('checkbox', { name: /^I accept the terms of service/ }).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    const heading = page.getByRole('heading', { name: 'Check your email' });
    await expect(heading).toBeVisible();
    // It used to move on to "Welcome back" after 2 s.
    await page.waitForTimeout(3_500);
    await expect(heading).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toHaveCount(0);
    await linkFromOutbox(page, email, /verify-email/);
    await page.getByRole('button', { name: 'Send the e-mail again' }).click();
    await expect(page.getByText('E-mail sent again: check your inbox.')).toBeVisible();
  });

  test("the header's language switch becomes a member's preferred language", async ({ page }) => {
    await page.goto('/');
    await dismissCookieBanner(page);
    const member = await createConfirmedMember(page);
    const me = async () =>
      ((await (await page.request.get('/api/me')).json()) as { preferredLanguage: string })
        .preferredLanguage;
    await chooseLanguage(page, 'en');
    await expect.poll(me).toBe('en');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/me') && r.request().method() === 'PATCH',
    );
    await chooseLanguage(page, 'it');
    expect((await saved).status()).toBe(200);
    await expect.poll(me).toBe('it');
    await expect(page.getByRole('combobox', { name: 'Lingua' }).first()).toHaveValue('it');
    // /profile/settings opens their settings, not the dashboard.
    await page.goto('/profile/settings');
    await expect(page).toHaveURL(new RegExp(`/profile/${member.id}/settings$`));
  });
});
