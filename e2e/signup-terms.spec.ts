import { test, expect, expectAccessible, expectFitsWidth, chooseLanguage } from './fixtures';
import { PASSWORD, dismissCookieBanner, signInWithForm, uniqueEmail } from './members';
import { outbox, linkFromOutbox } from './outbox';

/**
 * Sign-up (issue 33 item 10): the terms are accepted in a required box whose links open in a new
 * tab and keep the form; the password has at least 8 characters; a member who has not confirmed
 * the address is told why it matters, can have the e-mail sent again, and the notice goes once
 * the address is confirmed. In English on a computer and in Italian on a phone.
 */
const WORDS = {
  en: {
    width: 1280,
    displayName: 'Display name',
    username: 'Username',
    confirm: 'Confirm password',
    terms: /^I accept the terms of service/,
    termsLink: /^terms of service/,
    privacyLink: /^privacy policy/,
    termsTitle: 'Terms of service',
    termsRequired: 'Accept the terms of service and the privacy policy to continue',
    tooShort: 'Password must be at least 8 characters',
    create: 'Create account',
    checkEmail: 'Check your email',
    bannerTitle: 'Confirm your e-mail address',
    bannerText: (email: string) =>
      `We sent a link to ${email}: open it to confirm the address is yours.`,
    resend: 'Send the e-mail again',
    resent: 'E-mail sent again: check your inbox.',
    dashboard: 'Dashboard',
  },
  it: {
    width: 375,
    displayName: 'Nome visualizzato',
    username: 'Nome utente',
    confirm: 'Conferma password',
    terms: /^Accetto i termini di servizio/,
    termsLink: /^termini di servizio/,
    privacyLink: /^informativa sulla privacy/,
    termsTitle: 'Termini di servizio',
    termsRequired: "Per continuare, accetta i termini di servizio e l'informativa sulla privacy",
    tooShort: 'La password deve contenere almeno 8 caratteri',
    create: 'Crea account',
    checkEmail: 'Controlla la tua email',
    bannerTitle: 'Conferma il tuo indirizzo email',
    bannerText: (email: string) =>
      `Ti abbiamo mandato un link a ${email}: aprilo per confermare che l'indirizzo è tuo.`,
    resend: "Invia di nuovo l'email",
    resent: 'Email inviata di nuovo: controlla la tua casella di posta.',
    dashboard: 'Dashboard',
  },
} as const;

for (const lang of ['en', 'it'] as const) {
  const w = WORDS[lang];
  test(`${lang} at ${w.width} px: the terms box, 8 characters, then the unconfirmed notice until the address is confirmed`, async ({
    page,
    context,
  }) => {
    await page.goto('/signup');
    await dismissCookieBanner(page);
    // The language switch is in the header at a computer's width (a phone's is in the menu).
    await chooseLanguage(page, lang);
    await page.setViewportSize({ width: w.width, height: 900 });
    const email = uniqueEmail(`terms${lang}`);
    const username = `t${lang}_${Date.now().toString(36)}`.slice(0, 20);
    await page.getByLabel(w.displayName).fill('Teresa Termini');
    await page.getByLabel(w.username).fill(username);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('7-chars');
    await page.getByLabel(w.confirm).fill('7-chars');
    await page.getByRole('button', { name: w.create }).click();
    await expect(page.getByText(w.tooShort)).toBeVisible();
    await expect(page.getByText(w.termsRequired)).toBeVisible();
    const box = page.getByRole('checkbox', { name: w.terms });
    await expect(box).not.toBeChecked();
    await expectAccessible(page);
    if (lang === 'it') await expectFitsWidth(page, 375);

    // The terms open in a new tab; the form keeps what was typed.
    const termsLink = page.getByRole('link', { name: w.termsLink });
    await expect(termsLink).toHaveAttribute('href', '/terms-of-service');
    await expect(page.getByRole('link', { name: w.privacyLink })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    const [tab] = await Promise.all([context.waitForEvent('page'), termsLink.click()]);
    await expect(tab.getByRole('heading', { level: 1, name: w.termsTitle })).toBeVisible();
    await tab.close();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(box).not.toBeChecked();

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByLabel(w.confirm).fill(PASSWORD);
    await box.check();
    await expect(page.getByText(w.termsRequired)).toHaveCount(0);
    await page.getByRole('button', { name: w.create }).click();
    await expect(page.getByRole('heading', { name: w.checkEmail })).toBeVisible();

    // Signed in before confirming: the private area says why confirming matters.
    await page.goto('/login');
    await signInWithForm(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/profile\/[^/]+\/dashboard$/);
    const banner = page.getByTestId('unconfirmed-banner');
    await expect(banner).toContainText(w.bannerTitle);
    await expect(banner).toContainText(w.bannerText(email));
    if (lang === 'it') await expectFitsWidth(page, 375);
    const mails = async () =>
      (await outbox(page)).filter((m) => m.to === email && /verify-email/.test(m.text)).length;
    await expect.poll(mails).toBe(1);
    await banner.getByRole('button', { name: w.resend }).click();
    await expect(banner.getByText(w.resent)).toBeVisible();
    await expect.poll(mails).toBe(2);
    await expectAccessible(page);

    // Confirmed: the notice is gone.
    await page.goto(await linkFromOutbox(page, email, /verify-email/));
    await expect(page).toHaveURL(/\/profile\/[^/]+\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: w.dashboard })).toBeVisible();
    await expect(page.getByTestId('unconfirmed-banner')).toHaveCount(0);
  });
}
