import { test, expect, expectAccessible, chooseLanguage, expectFitsWidth } from './fixtures';
import { dismissCookieBanner } from './members';
import { outbox } from './outbox';

/**
 * Each test is a visitor with an address of its own (the e2e server trusts X-Forwarded-For): the
 * contact form allows 5 messages in 10 minutes per address, and no test spends another's.
 */
test.beforeEach(async ({ page }) => {
  const part = () => Math.floor(Math.random() * 0x10000).toString(16);
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `2001:db8::${part()}:${part()}:${part()}` });
});

test.describe('about', () => {
  test('shows mission, four values and the team, in Italian and English', async ({ page }) => {
    await page.goto('/about');
    // Answered first: the banner, fixed at the bottom, could cover the link clicked at the end
    // (its own accessibility is checked in legal-cookies.spec.ts).
    await dismissCookieBanner(page);
    await expect(page).toHaveTitle('Chi siamo | Scaffale');
    await expect(page.getByRole('heading', { level: 1, name: 'Chi siamo' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'La nostra missione' })).toBeVisible();
    for (const name of ['Fiducia e qualità', 'Comunità di lettori', 'Sostenibilità', 'Prezzi equi'])
      await expect(page.getByRole('heading', { level: 3, name })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Il team' })).toBeVisible();
    await expect(page.getByText('Libri di seconda mano, storie di prima mano.')).toBeVisible();
    await expectAccessible(page);

    await chooseLanguage(page, 'en');
    await expect(page).toHaveTitle('About | Scaffale');
    await expect(page.getByRole('heading', { level: 1, name: 'About Scaffale' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Our mission' })).toBeVisible();
    for (const name of ['Trust and quality', 'Reading community', 'Sustainability', 'Fair pricing'])
      await expect(page.getByRole('heading', { level: 3, name })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'The team' })).toBeVisible();
    await expect(page.getByText('Second-hand books, first-hand stories.').first()).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('main').getByRole('link', { name: 'Write to us' }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page).toHaveTitle('Contact | Scaffale');
  });
});

test.describe('contact', () => {
  test('the side panel shows how to reach the team', async ({ page }) => {
    await page.goto('/contact');
    await expect(page).toHaveTitle('Contatti | Scaffale');
    const aside = page.getByRole('complementary', { name: 'Altri modi per contattarci' });
    await expect(aside.getByRole('link', { name: 'support@scaffale.it' })).toHaveAttribute(
      'href',
      'mailto:support@scaffale.it',
    );
    await expect(aside.getByText('Entro 24 ore, 7 giorni su 7')).toBeVisible();
    await expect(aside.getByText('Rispondiamo in italiano e in inglese.')).toBeVisible();
    await expect(aside.getByText('Team remote-first, con base in Italia')).toBeVisible();
    await expect(aside.getByRole('link', { name: 'Scaffale su Instagram' })).toBeVisible();
    await expectAccessible(page);
  });

  test('empty and malformed input show field messages in Italian and English', async ({ page }) => {
    await page.goto('/contact');
    await dismissCookieBanner(page);
    await page.getByRole('button', { name: 'Invia messaggio' }).click();
    const required = page.getByText('Questo campo è obbligatorio');
    await expect(required).toHaveCount(4);
    await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toBeFocused();
    await expectAccessible(page);

    await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('Lucia');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('lucia-at-example');
    await page.getByRole('combobox', { name: 'Oggetto', exact: true }).selectOption('support');
    await page
      .getByRole('textbox', { name: 'Messaggio', exact: true })
      .fill('Non riesco a caricare la copertina.');
    await page.getByRole('button', { name: 'Invia messaggio' }).click();
    await expect(page.getByText('Indirizzo email non valido')).toBeVisible();
    await expect(required).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toBeFocused();

    // The messages follow a language switch, and the typed text stays.
    await chooseLanguage(page, 'en');
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Lucia');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('This field is required')).toHaveCount(1);
    await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toHaveValue(
      'Non riesco a caricare la copertina.',
    );

    // Nothing reached the server.
    const mails = await outbox(page);
    expect(mails.filter((m) => m.text.includes('Non riesco a caricare'))).toHaveLength(0);
  });

  test('a valid message is sent, reaches support, and send-another gives a blank form', async ({
    page,
  }) => {
    await page.goto('/contact');
    await dismissCookieBanner(page);
    const text = `Vorrei proporre una collaborazione con la nostra libreria. (${Date.now()})`;
    await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('Libreria Il Gabbiano');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('gabbiano@example.org');
    await page
      .getByRole('combobox', { name: 'Oggetto', exact: true })
      .selectOption({ label: 'Collaborazioni' });
    await page.getByRole('textbox', { name: 'Messaggio', exact: true }).fill(text);

    const started = Date.now();
    await page.getByRole('button', { name: 'Invia messaggio' }).click();
    const sending = page.getByRole('button', { name: 'Invio...' });
    await expect(sending).toBeVisible();
    await expect(sending).toBeDisabled();

    const thanks = page.getByRole('heading', { name: 'Grazie per il tuo messaggio!' });
    await expect(thanks).toBeVisible();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await expect(thanks).toBeFocused();
    await expect(page.getByText('risponderemo a gabbiano@example.org entro 24 ore')).toBeVisible();
    await expectAccessible(page);

    const mail = (await outbox(page)).find((m) => m.text.includes(text));
    expect(mail).toBeDefined();
    expect(mail!.to).toBe('support@scaffale.test');
    expect(mail!.subject).toMatch(/^\[Scaffale contact #\d+\] Partnership: Libreria Il Gabbiano$/);
    expect(mail!.text).toContain('From: Libreria Il Gabbiano <gabbiano@example.org>');

    await page.getByRole('button', { name: 'Invia un altro messaggio' }).click();
    await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue('');
    await expect(page.getByRole('combobox', { name: 'Oggetto', exact: true })).toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Messaggio', exact: true })).toHaveValue('');
    await expect(page.getByText('Questo campo è obbligatorio')).toHaveCount(0);
  });

  test('works at 375 px wide', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    await dismissCookieBanner(page);
    for (const path of ['/about', '/contact']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectFitsWidth(page, 375);
    }
    await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('Sara');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('sara@example.org');
    await page.getByRole('combobox', { name: 'Oggetto', exact: true }).selectOption('feedback');
    await page
      .getByRole('textbox', { name: 'Messaggio', exact: true })
      .fill('Bellissima app, la uso dal telefono.');
    await page.getByRole('button', { name: 'Invia messaggio' }).click();
    await expect(page.getByRole('heading', { name: 'Grazie per il tuo messaggio!' })).toBeVisible();
    await expectAccessible(page);
  });
  // This test's own address: using up its allowance leaves the other tests theirs.
  test('the rate limit is shown in an alert and the typed text is kept', async ({ page }) => {
    await page.goto('/contact');
    await dismissCookieBanner(page);
    // Use up the allowance from this browser, as an impatient visitor would.
    const statuses = await page.evaluate(async () => {
      const seen: number[] = [];
      for (let i = 0; i < 6 && !seen.includes(429); i++) {
        const res = await fetch('/api/contact', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Lettore frettoloso',
            email: 'fretta@example.org',
            subject: 'other',
            message: `Messaggio ${i}`,
          }),
        });
        seen.push(res.status);
      }
      return seen;
    });
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('Paolo');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('paolo@example.org');
    await page.getByRole('combobox', { name: 'Oggetto', exact: true }).selectOption('general');
    await page
      .getByRole('textbox', { name: 'Messaggio', exact: true })
      .fill('Un messaggio da non perdere.');
    await page.getByRole('button', { name: 'Invia messaggio' }).click();
    await expect(page.getByRole('button', { name: 'Invio...' })).toBeDisabled();

    const alert = page.getByRole('alert').filter({ hasText: 'Il messaggio non è stato inviato' });
    await expect(alert).toContainText(/Troppe richieste\. Attendi \d+ secondi e riprova\./);
    await expect(alert).toContainText('Quello che hai scritto è ancora qui');
    await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toHaveValue('Paolo');
    await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue(
      'paolo@example.org',
    );
    await expect(page.getByRole('combobox', { name: 'Oggetto', exact: true })).toHaveValue(
      'general',
    );
    await expect(page.getByRole('textbox', { name: 'Messaggio', exact: true })).toHaveValue(
      'Un messaggio da non perdere.',
    );
    await expect(page.getByRole('button', { name: 'Invia messaggio' })).toBeEnabled();
    await expect(page.getByRole('heading', { name: 'Grazie per il tuo messaggio!' })).toHaveCount(
      0,
    );
    await expectAccessible(page);
  });
});
