import type { Browser, Page } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth } from './fixtures';
import { PASSWORD, dismissCookieBanner, signInWithForm, uniqueEmail } from './members';
import { outbox, linkFromOutbox } from './outbox';

// Who I am (#20 §1): a new member signs up with a display name and a username, is welcomed (not
// "welcomed back"), edits name, username, bio, city, country and language, changes the password
// (their other session is signed out), and others see a new member without stars.

type Lang = 'it' | 'en';

/** What a person reads, in each language. */
const TEXT = {
  en: {
    locale: 'en-US',
    displayName: 'Display name',
    username: 'Username',
    confirmPassword: 'Confirm password',
    createAccount: 'Create account',
    acceptTerms: /^I accept the terms of service/,
    checkEmail: 'Check your email',
    welcome: (name: string) => `Welcome to Scaffale, ${name}!`,
    settings: 'Settings',
    settingsTitle: 'Account settings',
    bio: 'About you',
    bioCount: (n: number) => `${n} / 500 characters`,
    city: 'City',
    country: 'Country',
    language: 'Preferred language',
    languageName: 'English',
    saveProfile: 'Save profile',
    saved: 'Your profile has been saved.',
    currentPassword: 'Current password',
    newPassword: 'New password',
    confirmNewPassword: 'Confirm new password',
    changePassword: 'Change password',
    wrongCurrent: 'The current password is not correct.',
    changed: 'Your password has been changed. 1 other session has been signed out.',
    passwordMail: 'Your Scaffale password has been changed',
    newMember: 'New member',
    livesIn: (place: string) => `Lives in ${place}`,
    logIn: 'Log in',
    usernameTaken: 'Username is already taken',
  },
  it: {
    locale: 'it-IT',
    displayName: 'Nome visualizzato',
    username: 'Nome utente',
    confirmPassword: 'Conferma password',
    createAccount: 'Crea account',
    acceptTerms: /^Accetto i termini di servizio/,
    checkEmail: 'Controlla la tua email',
    welcome: (name: string) => `Ti diamo il benvenuto su Scaffale, ${name}!`,
    settings: 'Impostazioni',
    settingsTitle: "Impostazioni dell'account",
    bio: 'Su di te',
    bioCount: (n: number) => `${n} / 500 caratteri`,
    city: 'Città',
    country: 'Paese',
    language: 'Lingua preferita',
    languageName: 'Italiano',
    saveProfile: 'Salva il profilo',
    saved: 'Il tuo profilo è stato salvato.',
    currentPassword: 'Password attuale',
    newPassword: 'Nuova password',
    confirmNewPassword: 'Conferma la nuova password',
    changePassword: 'Cambia password',
    wrongCurrent: 'La password attuale non è corretta.',
    changed: 'La tua password è stata cambiata. 1 altra sessione è stata disconnessa.',
    passwordMail: 'La password di Scaffale è stata cambiata',
    newMember: 'Nuovo membro',
    livesIn: (place: string) => `Vive a ${place}`,
    logIn: 'Accedi',
    usernameTaken: 'Nome utente già in uso',
  },
} as const;

const other = (lang: Lang): Lang => (lang === 'it' ? 'en' : 'it');

const fresh = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.slice(0, 20);

async function newPage(browser: Browser, lang: Lang, width: number) {
  const context = await browser.newContext({
    locale: TEXT[lang].locale,
    viewport: { width, height: width < 500 ? 800 : 900 },
  });
  return { context, page: await context.newPage() };
}

/** The sign-up form, filled as a person does, then the confirmation link from the outbox. */
async function signUpAndConfirm(
  page: Page,
  lang: Lang,
  who: { name: string; username: string; email: string },
) {
  const tx = TEXT[lang];
  await page.goto('/signup');
  await dismissCookieBanner(page);
  await page.getByLabel(tx.displayName).fill(who.name);
  await page.getByLabel(tx.username).fill(who.username);
  await page.getByLabel('Email').fill(who.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByLabel(tx.confirmPassword).fill(PASSWORD);
  await page.getByRole('checkbox', { name: tx.acceptTerms }).check();
  await page.getByRole('button', { name: tx.createAccount }).click();
  await expect(page.getByRole('heading', { name: tx.checkEmail })).toBeVisible();
  await page.goto(await linkFromOutbox(page, who.email, /verify-email/));
  await expect(page).toHaveURL(/\/profile\/[^/]+\/dashboard$/);
  await expect(page.getByText(tx.welcome(who.name))).toBeVisible();
  return new URL(page.url()).pathname.split('/')[2];
}

// Each language at one width and each width in one language (the two other pairs cost CI two
// and a half minutes and repeated these).
for (const [lang, width] of [
  ['en', 1280],
  ['it', 375],
] as const) {
  test(`${lang} at ${width} px: sign up with a name, edit who I am, change the password`, async ({
    browser,
  }) => {
    const tx = TEXT[lang];
    const { context, page } = await newPage(browser, lang, width);
    const email = uniqueEmail('whoami');
    const local = email.split('@')[0];
    const id = await signUpAndConfirm(page, lang, {
      name: 'Matilde Margini',
      username: fresh('matilde'),
      email,
    });

    // A second device of the same member: signed in, it will be signed out by the change.
    const laptop = await newPage(browser, lang, 1280);
    await laptop.page.goto('/login');
    await dismissCookieBanner(laptop.page);
    await signInWithForm(laptop.page, email, PASSWORD);
    await expect(laptop.page).toHaveURL(`/profile/${id}/dashboard`);

    // The private area shows the member's name and, with no review yet, "new member".
    await expect(page.getByTestId('private-area-name')).toHaveText('Matilde Margini');
    await expect(page.getByTestId('private-area-rating')).toHaveText(tx.newMember);
    await page
      .getByRole('navigation', { name: /^(Private area|Area personale)$/ })
      .getByRole('link', { name: tx.settings })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: tx.settingsTitle })).toBeVisible();

    // Another member's username, in another letter case, is refused beside the field.
    const taken = fresh('taken');
    const res = await page.request.post('/api/auth/sign-up/email', {
      headers: { origin: new URL(page.url()).origin },
      data: {
        acceptTerms: true,
        email: uniqueEmail('taken'),
        password: PASSWORD,
        name: 'Taken',
        username: taken,
      },
    });
    expect(res.status()).toBe(200);
    await page.getByLabel(tx.username).fill(taken.toUpperCase());
    await page.getByRole('button', { name: tx.saveProfile }).click();
    await expect(page.getByText(tx.usernameTaken)).toBeVisible();

    // Name, username, bio (with its counter), city, country and language: saved together.
    const username = fresh('mati');
    const bio = 'Leggo gialli nordici e raccolgo prime edizioni.';
    await page.getByLabel(tx.displayName).fill('Matilde M.');
    await page.getByLabel(tx.username).fill(username);
    await page.getByLabel(tx.bio).fill(bio);
    await expect(page.getByTestId('settings-bio-count')).toHaveText(tx.bioCount(bio.length));
    await page.getByLabel(tx.city).fill('Trieste');
    await page.getByLabel(tx.country).fill('Italia');
    const next = other(lang);
    await page.getByLabel(tx.language).selectOption(next);
    await expectFitsWidth(page, width);
    await page.getByRole('button', { name: tx.saveProfile }).click();
    // The site now speaks the member's preferred language.
    const nx = TEXT[next];
    await expect(page.getByText(nx.saved)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: nx.settingsTitle })).toBeVisible();
    await expect(page.getByTestId('private-area-name')).toHaveText('Matilde M.');
    await page.reload();
    await expect(page.getByLabel(nx.username)).toHaveValue(username);
    await expect(page.getByLabel(nx.bio)).toHaveValue(bio);
    await expect(page.getByLabel(nx.language)).toHaveValue(next);
    await expectAccessible(page);

    // The password: a wrong current one is refused; the right one changes it.
    await page
      .getByRole('textbox', { name: nx.currentPassword, exact: true })
      .fill('not-my-password');
    await page.getByRole('textbox', { name: nx.newPassword, exact: true }).fill('nuova-chiave-42');
    await page
      .getByRole('textbox', { name: nx.confirmNewPassword, exact: true })
      .fill('nuova-chiave-42');
    await page.getByRole('button', { name: nx.changePassword }).click();
    await expect(page.getByText(nx.wrongCurrent)).toBeVisible();
    await page.getByRole('textbox', { name: nx.currentPassword, exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: nx.changePassword }).click();
    await expect(page.getByText(nx.changed)).toBeVisible();
    // The e-mail about it is in the preferred language.
    await expect
      .poll(async () => (await outbox(page)).find((m) => m.to === email)?.subject)
      .toBe(nx.passwordMail);

    // This device stays signed in; the other one is signed out.
    await page.reload();
    await expect(page.getByLabel(nx.username)).toHaveValue(username);
    await laptop.page.reload();
    await expect(laptop.page).toHaveURL(/\/login/);
    await expect(
      laptop.page.getByRole('banner').getByRole('link', { name: tx.logIn }).first(),
    ).toBeVisible();

    // Others see the new name, the @username, the bio and the place, and a new member: no stars.
    await laptop.page.goto(`/user/${id}`);
    await expect(laptop.page.getByRole('heading', { level: 1, name: 'Matilde M.' })).toBeVisible();
    await expect(laptop.page.getByText(`@${username}`)).toBeVisible();
    await expect(laptop.page.getByTestId('profile-bio')).toHaveText(bio);
    await expect(laptop.page.getByText(tx.livesIn('Trieste, Italia'))).toBeVisible();
    await expect(laptop.page.getByTestId('profile-rating')).toHaveText(tx.newMember);
    await expect(laptop.page.getByRole('img', { name: /out of 5|su 5/ })).toHaveCount(0);
    await expect(laptop.page.getByText('5.0')).toHaveCount(0);
    await expect(laptop.page.getByText(local)).toHaveCount(0);

    // The new password signs in there; the old one no longer does.
    await laptop.page.goto('/login');
    await signInWithForm(laptop.page, username, PASSWORD);
    await expect(laptop.page.getByRole('alert')).toBeVisible();
    await signInWithForm(laptop.page, username, 'nuova-chiave-42');
    await expect(laptop.page).toHaveURL(`/profile/${id}/dashboard`);
    await expect(
      laptop.page.getByText(/^(Welcome back|Ciao di nuovo), Matilde M\.!$/),
    ).toBeVisible();
    await laptop.context.close();
    await context.close();
  });
}

test('a member without a name or username is asked for both before anything else', async ({
  browser,
}) => {
  const { context, page } = await newPage(browser, 'en', 375);
  await page.goto('/');
  await dismissCookieBanner(page);
  const email = uniqueEmail('nameless');
  // An account made without a name (as Google sign-ins and old accounts are).
  const res = await page.request.post('/api/auth/sign-up/email', {
    headers: { origin: new URL(page.url()).origin },
    data: {
      acceptTerms: true,
      email,
      password: PASSWORD,
      callbackURL: '/login?verified=1',
    },
  });
  expect(res.status()).toBe(200);
  await page.goto(await linkFromOutbox(page, email, /verify-email/));
  await expect(
    page.getByRole('heading', { level: 1, name: 'Who are you on Scaffale?' }),
  ).toBeVisible();
  // Whatever page the member opens, the question stays.
  await page.goto('/library');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Who are you on Scaffale?' }),
  ).toBeVisible();
  await expect(page.getByLabel('Display name')).toHaveValue('');
  await expectFitsWidth(page, 375);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('This field is required')).toHaveCount(2);
  await page.getByLabel('Display name').fill('Nora Nomade');
  await page.getByLabel('Username').fill(fresh('nora'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Who are you on Scaffale?' }),
  ).toHaveCount(0);
  await expect(page).toHaveURL(/\/library/);
  await context.close();
});
