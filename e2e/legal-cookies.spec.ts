import type { Locator, Page } from '@playwright/test';
import { test, expect, expectAccessible, chooseLanguage, expectFitsWidth } from './fixtures';

const banner = (page: Page) =>
  page.getByRole('dialog', { name: /^(Consenso ai cookie|Cookie consent)$/ });
const preferencesDialog = (page: Page) =>
  page.getByRole('dialog', { name: /^(Preferenze sui cookie|Cookie preferences)$/ });

const storedMirror = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('scaffale.cookiePreferences') ?? 'null'));

/**
 * Answers the banner and waits until the choice is saved. The first banner is the one the server
 * wrote into the page: a click on it hides it at once, while the consent tool (a lazy chunk) has
 * yet to load, show its own banner for an instant and record the choice. Until then a reload or a
 * navigation would lose the answer, and axe could meet the tool's banner fading in.
 */
async function answerBanner(page: Page, button: 'Solo essenziali' | 'Accetta tutti') {
  await banner(page).getByRole('button', { name: button }).click();
  await expect.poll(() => storedMirror(page)).not.toBeNull();
  await expect(banner(page)).toBeHidden();
}

/** The first visit shows the banner; Essential Only closes it. */
const dismissBanner = (page: Page) => answerBanner(page, 'Solo essenziali');

/** The consent tool's dialogs fade in: axe, like a reader, needs them fully drawn. */
async function expectShown(dialog: Locator) {
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveCSS('opacity', '1');
}

async function expectTexts(scope: Locator, texts: (string | RegExp)[]) {
  for (const text of texts) await expect(scope.getByText(text).first()).toBeVisible();
}

/** The cookie policy's switches, in the page (not in the consent tool's dialog). */
async function expectSwitches(
  page: Page,
  state: { functional: boolean; analytics: boolean; marketing: boolean },
) {
  const main = page.getByRole('main');
  await expect(main.getByRole('switch', { name: 'Essenziali' })).toBeChecked();
  await expect(main.getByRole('switch', { name: 'Essenziali' })).toBeDisabled();
  const check = async (name: string, on: boolean) =>
    on
      ? await expect(main.getByRole('switch', { name })).toBeChecked()
      : await expect(main.getByRole('switch', { name })).not.toBeChecked();
  await check('Funzionali', state.functional);
  await check('Analitici', state.analytics);
  await check('Marketing', state.marketing);
}

/** Reopens the consent tool from the footer: proves it loaded, and shows what it stored. */
async function openSettingsFromFooter(page: Page) {
  await page
    .getByRole('contentinfo')
    .getByRole('button', { name: /^(Impostazioni cookie|Cookie settings)$/ })
    .click();
  await expect(preferencesDialog(page)).toBeVisible();
}

test.describe('legal pages', () => {
  test('privacy policy in Italian and English with its figures, links and date', async ({
    page,
  }) => {
    await page.goto('/privacy-policy');
    await expect(page).toHaveTitle('Informativa sulla privacy | Scaffale');
    const main = page.getByRole('main');
    await expect(
      main.getByRole('heading', { level: 1, name: 'Informativa sulla privacy' }),
    ).toBeVisible();
    // Axe with the consent banner open: both must pass.
    await expectShown(banner(page));
    await expectAccessible(page);
    await dismissBanner(page);

    await expect(main.getByText('Ultimo aggiornamento:')).toContainText('28/09/2025');
    for (const h of [
      'Titolare del trattamento',
      'Dati che raccogliamo',
      'Base giuridica',
      'Come usiamo i tuoi dati',
      'Condivisione dei dati',
      'Conservazione dei dati',
      'I tuoi diritti',
      'Cookie',
      'Sicurezza',
      'Trasferimenti internazionali',
      'Minori',
      'Modifiche a questa informativa',
      'Autorità di controllo',
      'Contatti',
    ])
      await expect(
        main.getByRole('heading', { level: 2, name: new RegExp(`^\\d+\\. ${h}$`) }),
      ).toBeVisible();
    await expectTexts(main, [
      'Non vendiamo mai i tuoi dati personali',
      "fino alla cancellazione dell'account, più 30 giorni",
      'Registrazioni delle transazioni: 7 anni',
      'dopo 2 anni di inattività',
      'Dati analitici: 24 mesi',
      'entro 30 giorni',
      'entro 72 ore',
      'almeno 16 anni',
      'almeno 30 giorni prima',
      'Garante per la protezione dei dati personali',
      'entro 3 giorni lavorativi',
    ]);
    await expect(main.getByRole('link', { name: 'privacy@scaffale.it' })).toHaveAttribute(
      'href',
      'mailto:privacy@scaffale.it',
    );
    await expect(main.getByRole('link', { name: 'modulo di contatto' })).toHaveAttribute(
      'href',
      '/contact',
    );
    // The table of contents jumps to its section.
    await main
      .getByRole('navigation', { name: 'Indice' })
      .getByRole('link', { name: 'Minori' })
      .click();
    await expect(page).toHaveURL(/\/privacy-policy#children$/);
    await expect(main.getByRole('heading', { name: '11. Minori' })).toBeInViewport();

    await chooseLanguage(page, 'en');
    await expect(main.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
    await expect(page).toHaveTitle('Privacy policy | Scaffale');
    await expect(main.getByText('Last updated:')).toContainText('09/28/2025');
    await expectTexts(main, [
      'We never sell your personal data',
      'until you delete your account, plus 30 days',
      'Transaction records: 7 years',
      'after 2 years of inactivity',
      'Analytics data: 24 months',
      'We answer rights requests within 30 days',
      'within 72 hours',
      'at least 16 years old',
      'at least 30 days before',
      'Garante per la protezione dei dati personali',
      'within 3 business days',
    ]);
    await expect(main.getByRole('link', { name: 'contact form' })).toHaveAttribute(
      'href',
      '/contact',
    );
    await expectAccessible(page);

    await main.getByRole('link', { name: 'Back to home' }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page).toHaveTitle('Home | Scaffale');
  });

  test('/privacy_policy shows the same privacy policy', async ({ page }) => {
    await page.goto('/privacy_policy');
    await expect(
      page.getByRole('main').getByRole('heading', { level: 1, name: 'Informativa sulla privacy' }),
    ).toBeVisible();
    await expect(page).toHaveTitle('Informativa sulla privacy | Scaffale');
    await expect(page.getByRole('main').getByText('Dati analitici: 24 mesi')).toBeVisible();
  });

  test('terms of service in Italian and English', async ({ page }) => {
    await page.goto('/terms-of-service');
    await dismissBanner(page);
    const main = page.getByRole('main');
    await expect(
      main.getByRole('heading', { level: 1, name: 'Termini di servizio' }),
    ).toBeVisible();
    await expect(page).toHaveTitle('Termini di servizio | Scaffale');
    await expect(main.getByText('Ultimo aggiornamento:')).toContainText('28/09/2025');
    await expectTexts(main, [
      'devi avere almeno 16 anni',
      'informazioni accurate, complete e aggiornate',
      'Un solo account per persona',
      'Comportamenti vietati',
      'legge italiana',
      'almeno 30 giorni prima',
    ]);
    await expect(main.getByRole('heading', { level: 2 })).toHaveCount(20); // contents + 19 sections
    await expect(main.getByRole('link', { name: 'legal@scaffale.it' })).toHaveAttribute(
      'href',
      'mailto:legal@scaffale.it',
    );
    await expect(main.getByRole('link', { name: 'modulo di contatto' })).toHaveAttribute(
      'href',
      '/contact',
    );
    await expectAccessible(page);

    await chooseLanguage(page, 'en');
    await expect(main.getByRole('heading', { level: 1, name: 'Terms of service' })).toBeVisible();
    await expect(main.getByText('Last updated:')).toContainText('09/28/2025');
    await expectTexts(main, [
      'You must be at least 16 years old',
      'accurate, complete and current information',
      'One account per person',
      'governed by Italian law',
    ]);
    await main.getByRole('link', { name: 'contact form' }).click();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test('cookie policy in Italian and English with the retention table and third parties', async ({
    page,
  }) => {
    await page.goto('/cookie-policy');
    await dismissBanner(page);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: 'Cookie policy' })).toBeVisible();
    await expect(main.getByText('Ultimo aggiornamento:')).toContainText('28/09/2025');
    const retention = main.getByRole('table', {
      name: 'Per quanto tempo sono conservati i cookie',
    });
    await expect(retention.getByRole('row', { name: /Cookie di sessione/ })).toContainText(
      'Fino alla chiusura del browser',
    );
    await expect(retention.getByRole('row', { name: /Cookie persistenti/ })).toContainText(
      'Fino a 1 anno',
    );
    await expect(retention.getByRole('row', { name: /Cookie analitici/ })).toContainText(
      'Fino a 2 anni',
    );
    await expectTexts(main, [
      /database PostgreSQL e il servizio di autenticazione/,
      /Fornitore di hosting/,
    ]);
    await expect(main.getByRole('button', { name: 'Salva preferenze' })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Gestisci preferenze' })).toBeVisible();
    await expect(main.getByRole('link', { name: 'privacy@scaffale.it' })).toHaveAttribute(
      'href',
      'mailto:privacy@scaffale.it',
    );
    await expectAccessible(page);

    await chooseLanguage(page, 'en');
    const retentionEn = main.getByRole('table', { name: 'How long cookies are kept' });
    await expect(retentionEn.getByRole('row', { name: /Session cookies/ })).toContainText(
      'Until the browser closes',
    );
    await expect(retentionEn.getByRole('row', { name: /Persistent cookies/ })).toContainText(
      'Up to 1 year',
    );
    await expect(retentionEn.getByRole('row', { name: /Analytics cookies/ })).toContainText(
      'Up to 2 years',
    );
    await expect(main.getByText('Last updated:')).toContainText('09/28/2025');
    await expect(main.getByRole('switch', { name: 'Analytics' })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Manage preferences' })).toBeVisible();
    await expectAccessible(page);
  });

  test('legal pages fit a 375 px screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of ['/privacy-policy', '/terms-of-service', '/cookie-policy']) {
      await page.goto(path);
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
      await expectFitsWidth(page, 375, path);
    }
  });
});

test.describe('cookie consent', () => {
  test('a first visit shows the banner; Essential Only is remembered after a reload', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(banner(page)).toBeVisible();
    await expect(banner(page).getByRole('button', { name: 'Accetta tutti' })).toBeVisible();
    await expect(banner(page).getByRole('button', { name: 'Personalizza' })).toBeVisible();
    await dismissBanner(page);
    expect(await storedMirror(page)).toEqual({
      essential: true,
      functional: false,
      analytics: false,
      marketing: false,
    });

    await page.reload();
    await openSettingsFromFooter(page);
    await expect(banner(page)).toBeHidden();
    const dialog = preferencesDialog(page);
    await expect(dialog.getByRole('checkbox', { name: 'Funzionali' })).not.toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Analitici' })).not.toBeChecked();
    await dialog.getByRole('button', { name: 'Chiudi' }).click();

    await page.goto('/cookie-policy');
    await expectSwitches(page, { functional: false, analytics: false, marketing: false });
    await expect(banner(page)).toBeHidden();
  });

  test('Accept All turns every category on, also after a reload', async ({ page }) => {
    await page.goto('/');
    await answerBanner(page, 'Accetta tutti');
    await page.goto('/cookie-policy');
    await page.reload();
    await expectSwitches(page, { functional: true, analytics: true, marketing: true });
    await openSettingsFromFooter(page);
    await expect(
      preferencesDialog(page).getByRole('checkbox', { name: 'Marketing' }),
    ).toBeChecked();
    await expect(banner(page)).toBeHidden();
  });

  test('Customize: enabling only analytics is saved and persists', async ({ page }) => {
    await page.goto('/');
    await banner(page).getByRole('button', { name: 'Personalizza' }).click();
    const dialog = preferencesDialog(page);
    await expectShown(dialog);
    // Defaults: essential (locked) and functional on, analytics and marketing off.
    await expect(dialog.getByRole('checkbox', { name: 'Essenziali' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Essenziali' })).toBeDisabled();
    await expect(dialog.getByRole('checkbox', { name: 'Funzionali' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Analitici' })).not.toBeChecked();
    await expectAccessible(page);
    await dialog.getByRole('checkbox', { name: 'Analitici' }).check();
    await dialog.getByRole('checkbox', { name: 'Funzionali' }).uncheck();
    await dialog.getByRole('button', { name: 'Salva preferenze' }).click();
    await expect(dialog).toBeHidden();
    await expect(banner(page)).toBeHidden();

    await page.reload();
    await page.goto('/cookie-policy');
    await expectSwitches(page, { functional: false, analytics: true, marketing: false });
    expect(await storedMirror(page)).toEqual({
      essential: true,
      functional: false,
      analytics: true,
      marketing: false,
    });
  });

  test('switches on the cookie page + Save preferences persist and the banner respects them', async ({
    page,
  }) => {
    await page.goto('/cookie-policy');
    await expect(banner(page)).toBeVisible();
    // Before any choice the page shows the defaults.
    await expectSwitches(page, { functional: true, analytics: false, marketing: false });
    const main = page.getByRole('main');
    await main.getByRole('switch', { name: 'Funzionali' }).click();
    await main.getByRole('switch', { name: 'Marketing' }).click();
    await main.getByRole('button', { name: 'Salva preferenze' }).click();
    await expect(page.getByText('Preferenze salvate')).toBeVisible();
    await expect(banner(page)).toBeHidden();

    await page.reload();
    await expectSwitches(page, { functional: false, analytics: false, marketing: true });
    await openSettingsFromFooter(page);
    await expect(banner(page)).toBeHidden();
    const dialog = preferencesDialog(page);
    await expect(dialog.getByRole('checkbox', { name: 'Marketing' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Funzionali' })).not.toBeChecked();
    await dialog.getByRole('button', { name: 'Chiudi' }).click();

    // Manage preferences opens the same dialog; a choice there shows on the page at once.
    await main.getByRole('button', { name: 'Gestisci preferenze' }).click();
    await preferencesDialog(page).getByRole('button', { name: 'Accetta tutti' }).click();
    await expectSwitches(page, { functional: true, analytics: true, marketing: true });
  });

  test('the banner follows the language and works by keyboard at 375 px', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    await expect(banner(page)).toBeVisible();
    await expect(banner(page).getByRole('heading', { name: 'Usiamo i cookie' })).toBeVisible();
    await expectShown(banner(page));
    // The server's banner hands over to the consent tool's own: measure whichever is on screen.
    await expect
      .poll(async () => {
        const box = await banner(page).boundingBox();
        return !!box && box.x >= 0 && box.x + box.width <= 375;
      })
      .toBe(true);
    await expectShown(banner(page));
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Apri il menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu', exact: true });
    await expect(menu).toBeVisible();
    await chooseLanguage(page, 'en');
    await page.keyboard.press('Escape');
    // Closed, so its focus trap no longer holds the Tab key (it hands the focus back at the end).
    await expect(menu).toBeHidden();
    await expect(banner(page).getByRole('heading', { name: 'We use cookies' })).toBeVisible();
    const essentialOnly = banner(page).getByRole('button', { name: 'Essential Only' });
    await expect(essentialOnly).toBeVisible();

    // Tab reaches the banner's buttons (after the page's links: the home page's shelves hold a
    // few dozen); Enter chooses.
    let focused = false;
    for (let i = 0; i < 300 && !focused; i++) {
      await page.keyboard.press('Tab');
      focused = await essentialOnly.evaluate((el) => el === document.activeElement);
    }
    expect(focused).toBe(true);
    await page.keyboard.press('Enter');
    await expect(banner(page)).toBeHidden();
    await expect.poll(async () => (await storedMirror(page))?.functional).toBe(false);
  });
});
