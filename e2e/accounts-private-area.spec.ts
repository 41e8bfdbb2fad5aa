import { test, expect, expectAccessible, expectFitsWidth } from './fixtures';
import { createConfirmedMember, dismissCookieBanner, signInWithForm } from './members';

test.use({ locale: 'en-US' });

test.describe('accounts: private area and shell', () => {
  test('the guard: visitors go to login and come back; other ids open the own dashboard', async ({
    page,
  }) => {
    await page.goto('/');
    await dismissCookieBanner(page);
    const member = await createConfirmedMember(page);
    // Signed in: /login and /signup go home; /profile and another id go to the own dashboard.
    await page.goto('/login');
    await expect(page).toHaveURL('/');
    await page.goto('/signup');
    await expect(page).toHaveURL('/');
    await page.goto('/profile');
    await expect(page).toHaveURL(`/profile/${member.id}/dashboard`);
    await page.goto('/profile/someone-else/settings');
    await expect(page).toHaveURL(`/profile/${member.id}/dashboard`);
    // While the session is read (slowed down here), the private area says so.
    await page.route('**/api/session', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto(`/profile/${member.id}`);
    await expect(page.getByText('Restoring session...')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.unroute('**/api/session');

    // The not-found page offers the dashboard to a member.
    await page.goto('/no/such/page');
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Go to your dashboard' }),
    ).toHaveAttribute('href', `/profile/${member.id}/dashboard`);

    await page.request.post('/api/auth/sign-out', {
      headers: { origin: new URL(page.url()).origin },
      data: {},
    });
    await page.goto(`/profile/${member.id}/settings`);
    await expect(page).toHaveURL(
      `/login?redirect_to=${encodeURIComponent(`/profile/${member.id}/settings`)}`,
    );
    await signInWithForm(page, member.email, member.password);
    await expect(page).toHaveURL(`/profile/${member.id}/settings`);

    // A return path to another site is ignored.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL('/');
    await page.goto('/login?redirect_to=//evil.example/steal');
    await signInWithForm(page, member.email, member.password);
    await expect(page).toHaveURL(`/profile/${member.id}/dashboard`);
  });

  test('the signed-in header: welcome, avatar menu with the e-mail, links and logout', async ({
    page,
  }) => {
    await page.goto('/');
    await dismissCookieBanner(page);
    const member = await createConfirmedMember(page);
    const local = member.email.split('@')[0];
    await page.goto('/');
    const banner = page.getByRole('banner');
    await expect(banner.getByText(`Welcome, ${local}`)).toBeVisible();
    await expect(banner.getByRole('link', { name: 'Log in' })).toHaveCount(0);
    // The home page offers the member's library.
    await expect(page.getByRole('main').getByRole('link', { name: 'My library' })).toHaveAttribute(
      'href',
      `/profile/${member.id}/dashboard`,
    );
    // By keyboard: Enter opens the menu, the arrows move through its items, Escape closes it.
    const trigger = banner.getByRole('button', { name: 'Account menu' });
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('[role="menuitem"]:focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();

    await trigger.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText(member.email)).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      `/profile/${member.id}/dashboard`,
    );
    await expect(menu.getByRole('menuitem', { name: 'My profile' })).toHaveAttribute(
      'href',
      `/user/${member.id}`,
    );
    await expectAccessible(page);
    await menu.getByRole('menuitem', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(`/profile/${member.id}/dashboard`);

    // Logging out inside the private area goes home.
    await banner.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL('/');
    await expect(banner.getByRole('link', { name: 'Log in' })).toBeVisible();
    const me = await page.request.get('/api/me');
    expect(me.status()).toBe(401);
  });

  test('signing out in one tab signs out the others; an expired session says so', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    await dismissCookieBanner(page);
    const member = await createConfirmedMember(page);
    const second = await context.newPage();
    await second.goto(`/profile/${member.id}/settings`);
    await expect(second.getByRole('heading', { name: 'Account settings' })).toBeVisible();
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    // The other tab leaves the private area without a reload.
    await expect(second).toHaveURL('/');
    await expect(second.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
    await second.close();

    // Session ends on the server (cookie gone): the next request answers 401 → notice.
    await page.goto('/login');
    await signInWithForm(page, member.email, member.password);
    await expect(page).toHaveURL(`/profile/${member.id}/dashboard`);
    await page
      .getByRole('navigation', { name: 'Private area' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await context.clearCookies();
    // Whichever request notices first says so: this save, or a background one (the bell's
    // count, a refetch after the live connection drops) that may already have left the page.
    const save = async () => {
      await page.getByLabel('Username').fill('expired_one', { timeout: 3000 });
      await page.getByRole('button', { name: 'Save profile' }).click({ timeout: 3000 });
    };
    await save().catch(() => undefined);
    await expect(page.getByText('Session Expired').first()).toBeVisible();
    await expect(page.getByText('Authentication required. Please log in again.')).toBeVisible();
    await expect(page).toHaveURL(
      `/login?redirect_to=${encodeURIComponent(`/profile/${member.id}/settings`)}`,
    );
  });

  test('at 375 px the private area has one menu button: its sections are a strip of links', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    await dismissCookieBanner(page);
    const member = await createConfirmedMember(page);
    // One menu button on the page (the site's), no second one stacked under it.
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Open the private area menu' })).toHaveCount(0);
    const nav = page.getByRole('navigation', { name: 'Private area' });
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // A new member: no stars, no figure.
    await expect(page.getByTestId('private-area-rating')).toHaveText('New member');
    await nav.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(`/profile/${member.id}/settings`);
    await expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expectFitsWidth(page, 375);
    await expectAccessible(page);

    // The site menu shows the member's links too.
    await page.getByRole('button', { name: 'Open menu' }).click();
    const siteMenu = page.getByRole('dialog', { name: 'Menu' });
    await expect(siteMenu.getByText(member.email)).toBeVisible();
    await expect(siteMenu.getByRole('link', { name: 'My profile' })).toHaveAttribute(
      'href',
      `/user/${member.id}`,
    );
  });

  test("the dashboard tiles count the member's own listings", async ({ page }) => {
    await page.goto('/');
    await dismissCookieBanner(page);
    const member = await createConfirmedMember(page);
    const origin = new URL(page.url()).origin;
    for (const [title, price] of [
      ['Il nome della rosa', 12.6],
      ['Se questo è un uomo', 7.2],
    ] as const) {
      const res = await page.request.post('/api/listings', {
        headers: { origin },
        data: { mode: 'quickSell', title, author: 'Autore', price },
      });
      expect(res.status(), await res.text()).toBeLessThan(300);
    }
    await page.goto(`/profile/${member.id}/dashboard`);
    await expect(page.getByTestId('dashboard-total')).toHaveText('2');
    await expect(page.getByTestId('dashboard-available')).toHaveText('2');
    await expect(page.getByTestId('dashboard-totalValue')).toHaveText(/^€\s?20$/);
  });

  test('the callback page reports provider errors and missing sessions', async ({ page }) => {
    await page.goto('/auth/callback?error=access_denied&error_description=The%20user%20cancelled');
    await dismissCookieBanner(page);
    await expect(page.getByText('Authentication error: The user cancelled')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try Again' })).toHaveAttribute('href', '/login');
    await page.goto('/auth/callback');
    await expect(page.getByText('Completing sign-in...')).toBeVisible();
    await expect(
      page.getByText('No authentication session found. Please try logging in again.'),
    ).toBeVisible();
  });
});
