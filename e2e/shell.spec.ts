import { test, expect, expectAccessible, chooseLanguage, expectFitsWidth } from './fixtures';

test.describe('shell', () => {
  test('home shows counters, buttons and features in Italian by default', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Home | Scaffale');
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('stat-booksAvailable')).toHaveText(/^\d/);
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Inizia a scambiare' }),
    ).toHaveAttribute('href', '/signup');
    await expect(page.getByRole('main').getByRole('link', { name: 'Accedi' })).toHaveAttribute(
      'href',
      '/login',
    );
    await expect(page.getByRole('heading', { name: 'Una biblioteca che cresce' })).toBeVisible();
    await expectAccessible(page);
  });

  test('the language choice switches the texts and survives a reload', async ({ page }) => {
    await page.goto('/');
    await chooseLanguage(page, 'en');
    await expect(page.getByRole('heading', { name: 'A growing library' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'A growing library' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(await page.evaluate(() => localStorage.getItem('scaffale.language'))).toBe('en');
  });

  test('an English browser gets English on the first visit', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Start trading' })).toBeVisible();
    await context.close();
  });

  test('unknown paths show Page not found with links home and to login', async ({ page }) => {
    await page.goto('/no/such/page');
    await chooseLanguage(page, 'en');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page).toHaveTitle('Page not found | Scaffale');
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute(
      'href',
      '/',
    );
    await expect(main.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    await expectAccessible(page);
  });

  test('footer links to quick, account and legal pages', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Chi siamo' })).toHaveAttribute('href', '/about');
    await expect(footer.getByRole('link', { name: 'Contatti' })).toHaveAttribute(
      'href',
      '/contact',
    );
    await expect(footer.getByRole('link', { name: 'Registrati' })).toHaveAttribute(
      'href',
      '/signup',
    );
    await expect(footer.getByRole('link', { name: 'Informativa sulla privacy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    await expect(footer.getByRole('link', { name: 'Termini di servizio' })).toHaveAttribute(
      'href',
      '/terms-of-service',
    );
    await expect(footer.getByRole('link', { name: 'Cookie policy' })).toHaveAttribute(
      'href',
      '/cookie-policy',
    );
  });

  test('a new page starts at the top; back, forward and reload return to where the page was left', async ({
    page,
    context,
  }) => {
    await page.goto('/privacy-policy');
    await page.getByRole('button', { name: 'Solo essenziali' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const scrollY = () => page.evaluate(() => Math.round(window.scrollY));
    // Left from the footer, well down the long page.
    const footerLink = page
      .getByRole('contentinfo')
      .getByRole('link', { name: 'Termini di servizio' });
    await footerLink.scrollIntoViewIfNeeded();
    const left = await scrollY();
    expect(left).toBeGreaterThan(500);

    // A link: a new entry (history.state.idx 1, which the book page's back button reads), at the top.
    await footerLink.click();
    await expect(page).toHaveURL('/terms-of-service');
    await expect.poll(scrollY).toBe(0);
    expect(await page.evaluate(() => (window.history.state as { idx: number }).idx)).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(scrollY).toBe(600);

    await page.goBack();
    await expect(page).toHaveURL('/privacy-policy');
    // Where it was left, or as far down as the page now reaches (a browser clamps the position
    // when the page is a little shorter than when it was left).
    const restored = () =>
      page.evaluate(
        (wanted) =>
          Math.round(window.scrollY) ===
          Math.min(wanted, document.documentElement.scrollHeight - window.innerHeight),
        left,
      );
    await expect.poll(restored).toBe(true);
    expect(await scrollY()).toBeGreaterThan(500);
    await page.goForward();
    await expect(page).toHaveURL('/terms-of-service');
    await expect.poll(scrollY).toBe(600);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(scrollY).toBe(600);

    // A modified click is the browser's: a new tab, this page stays.
    const opened = context.waitForEvent('page');
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: 'Chi siamo' })
      .click({ modifiers: ['ControlOrMeta'] });
    const tab = await opened;
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe('/about');
    await tab.close();
    await expect(page).toHaveURL('/terms-of-service');
  });

  test('mobile menu at 375 px opens, navigates and closes', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Chi siamo' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Apri il menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('link', { name: 'Registrati' })).toBeVisible();
    await drawer.getByRole('link', { name: 'Chi siamo' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(drawer).toBeHidden();
    await expectFitsWidth(page, 375);
  });

  test('on mobile, focusing an input fixes the viewport scale at 1 and blurring restores 5', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Apri il menu' }).click();
    const select = page.getByRole('dialog').getByRole('combobox', { name: 'Lingua' });
    // The drawer's focus trap may still move focus once its opening transition ends: focus the
    // input again until it holds it, as a person tapping it would.
    await expect(async () => {
      await select.focus();
      await expect(select).toBeFocused({ timeout: 500 });
      await expect(page.locator('meta[name="viewport"]')).toHaveAttribute(
        'content',
        /maximum-scale=1$/,
        { timeout: 500 },
      );
    }).toPass({ timeout: 10_000 });
    await select.blur();
    await expect(page.locator('meta[name="viewport"]')).toHaveAttribute(
      'content',
      /maximum-scale=5$/,
    );
  });
});
