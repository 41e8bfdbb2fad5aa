import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { dismissCookieBanner } from './members';

// playwright.config.ts starts scripts/oidc-provider.ts (a real OpenID Connect provider) and gives
// the app GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET / GOOGLE_ISSUER, so 'Continue with Google'
// walks the real authorization code flow with PKCE.
const GOOGLE_EMAIL = 'google-user@example.com';

test.use({ locale: 'en-US' });

/** Approves at the provider's page; a provider that remembers the browser skips it. */
async function approveAtProvider(page: Page, appOrigin: string) {
  const approve = page.getByRole('button', { name: `Continue as ${GOOGLE_EMAIL}` });
  await Promise.race([
    approve.waitFor(),
    page.waitForURL((url) => url.origin === appOrigin && url.pathname !== '/login'),
  ]);
  if (await approve.isVisible()) await approve.click();
}

test('Google sign-in: through the provider to the dashboard, then back to a return path', async ({
  page,
}) => {
  await page.goto('/login');
  await dismissCookieBanner(page);
  const appOrigin = new URL(page.url()).origin;
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  // At the provider (another origin), then back through /auth/callback.
  await expect(page).not.toHaveURL(new RegExp(`^${appOrigin}`));
  await approveAtProvider(page, appOrigin);
  // A new member from Google has no username yet: before anything else, they choose one (the
  // name Google gave is offered, never the e-mail's local part).
  await expect(
    page.getByRole('heading', { level: 1, name: 'Who are you on Scaffale?' }),
  ).toBeVisible();
  await expect(page.getByLabel('Display name')).toHaveValue('Gianni Google');
  await page.getByLabel('Username').fill(`gianni_${Date.now().toString(36)}`);
  // Google asked nothing of the terms: the same page asks for them (issue 33 item 10).
  const terms = page.getByRole('checkbox', { name: /^I accept the terms of service/ });
  await expect(terms).not.toBeChecked();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByText('Accept the terms of service and the privacy policy to continue'),
  ).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Who are you on Scaffale?' }),
  ).toBeVisible();
  // Its links open the terms in a new tab: the page and what was typed stay.
  await expect(page.getByRole('link', { name: /^terms of service/ })).toHaveAttribute(
    'target',
    '_blank',
  );
  await terms.check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/profile\/[^/]+\/dashboard$/);
  const id = new URL(page.url()).pathname.split('/')[2];
  await expect(page.getByText('Welcome to Scaffale, Gianni Google!')).toBeVisible();
  await expect(page.getByRole('banner').getByText('Welcome, Gianni Google')).toBeVisible();

  // The provider vouched for the address: the account is verified.
  await page.goto(`/profile/${id}/settings`);
  await expect(page.getByTestId('settings-email')).toHaveText(GOOGLE_EMAIL);
  await expect(page.getByTestId('settings-status')).toHaveText('Verified');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/');

  // A visitor sent to log in from a private page comes back to it after Google.
  await page.goto(`/profile/${id}/settings`);
  await expect(page).toHaveURL(/\/login\?redirect_to=/);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await approveAtProvider(page, appOrigin);
  await expect(page).toHaveURL(`/profile/${id}/settings`);
  await expect(page.getByRole('heading', { name: 'Account settings' })).toBeVisible();
});
