import type { Page } from '@playwright/test';
import { test, expect, expectAccessible, chooseLanguage } from './fixtures';
import {
  PASSWORD,
  createConfirmedMember,
  dismissCookieBanner,
  signInWithForm,
  uniqueEmail,
} from './members';
import { outbox, linkFromOutbox } from './outbox';
import { pngBuffer } from './images';

test.use({ locale: 'en-US' });

test.describe('accounts: forms', () => {
  test('login validates required fields, switches to the reset form and links to sign-up', async ({
    page,
  }) => {
    await page.goto('/login');
    await dismissCookieBanner(page);
    await expect(page).toHaveTitle('Log in | Scaffale');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign up' }).last()).toHaveAttribute(
      'href',
      '/signup',
    );
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByText('This field is required')).toHaveCount(2);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await expect(page.getByText('Please enter your email address')).toBeVisible();
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await page.getByRole('button', { name: 'Back to login' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();

    // In Italian too.
    await chooseLanguage(page, 'it');
    await expect(page.getByRole('heading', { level: 1, name: 'Ciao di nuovo' })).toBeVisible();
    await expect(page).toHaveTitle('Accedi | Scaffale');
  });

  test('sign-up checks the e-mail, the password length and the confirmation', async ({ page }) => {
    await page.goto('/signup');
    await dismissCookieBanner(page);
    await expect(page).toHaveTitle('Sign up | Scaffale');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Create your account' }),
    ).toBeVisible();
    const submit = page.getByRole('button', { name: 'Create account' });
    await submit.click();
    // Display name, username, e-mail, password and its confirmation; the terms' box.
    await expect(page.getByText('This field is required')).toHaveCount(5);
    await expect(
      page.getByText('Accept the terms of service and the privacy policy to continue'),
    ).toBeVisible();
    await page.getByLabel('Username').fill('no spaces here');
    await page.getByLabel('Email').fill('reader@');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('12345');
    await page.getByLabel('Confirm password').fill('123456');
    await submit.click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await expect(
      page.getByText(
        'Username must be 3-20 characters and only contain letters, numbers, and underscores',
      ),
    ).toBeVisible();
    await expectAccessible(page);
    await expect(page.getByRole('link', { name: 'Log in' }).last()).toHaveAttribute(
      'href',
      '/login',
    );
  });
});

/**
 * The day the signed-in member's account was created, in this machine's time zone (the
 * browser's): read from the account, not from the clock, so a journey that runs across midnight
 * expects the day the account was made.
 */
async function createdOn(page: Page) {
  const me = await page.request.get('/api/me');
  expect(me.status(), await me.text()).toBe(200);
  const day = new Date(((await me.json()) as { createdAt: string }).createdAt);
  const two = (n: number) => String(n).padStart(2, '0');
  return { dd: two(day.getDate()), mm: two(day.getMonth() + 1), yyyy: String(day.getFullYear()) };
}

/** A username nobody has: 3-20 letters, digits, underscores. */
const freshUsername = (prefix = 'r') =>
  `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.slice(0, 20);

/** Fills and sends the sign-up form; the view that follows is the same for any address. */
async function submitSignUp(
  page: Page,
  email: string,
  name = 'Rita Reader',
  username = freshUsername(),
) {
  await page.getByLabel('Display name').fill(name);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('checkbox', { name: /^I accept the terms of service/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(
    page.getByText('We have written to the address you gave. If it is new,'),
  ).toBeVisible();
}

test.describe('accounts: journeys', () => {
  test('signing up with an address that has an account looks the same; its owner is told by e-mail', async ({
    page,
  }) => {
    const email = uniqueEmail('twice');
    await page.goto('/signup');
    await dismissCookieBanner(page);
    await submitSignUp(page, email);
    await page.goto('/signup');
    await submitSignUp(page, email);
    await expect
      .poll(async () => (await outbox(page)).find((m) => m.to === email)?.subject)
      .toBe('Someone tried to sign up to Scaffale with your address');
  });

  test('sign up, confirm by e-mail, sign in by e-mail and by username, change username, sign out', async ({
    page,
  }) => {
    const email = uniqueEmail('journey');
    const local = email.split('@')[0];
    await page.goto('/signup');
    await dismissCookieBanner(page);
    await submitSignUp(page, email, 'Jo Journey', freshUsername('jo'));

    // The confirmation e-mail is in the language of the sign-up (English here).
    const mail = (await outbox(page)).find((m) => m.to === email);
    expect(mail?.subject).toBe('Confirm your Scaffale account');

    // Before confirming, the account is pending; signing in by e-mail works.
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await signInWithForm(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/profile\/[^/]+\/dashboard$/);
    const id = new URL(page.url()).pathname.split('/')[2];
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    // A sign-in before confirming: not the confirmation link, so the usual greeting, by the
    // chosen name, never the e-mail's local part.
    await expect(page.getByText('Welcome back, Jo Journey!')).toBeVisible();
    // (The address itself shows only in the notice asking to confirm it.)
    await expect(page.getByTestId('unconfirmed-banner')).toContainText(email);
    await expect(page.getByText(local, { exact: true })).toHaveCount(0);
    await expect(page.getByTestId('dashboard-total')).toHaveText('0');
    await expect(page.getByTestId('dashboard-available')).toHaveText('0');
    await expect(page.getByTestId('dashboard-totalValue')).toHaveText(/^€\s?0$/);
    await expect(page.getByText('No recent activity yet')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add book' })).toHaveAttribute('href', '/sell');
    await expect(page.getByRole('link', { name: 'Browse books' })).toHaveAttribute(
      'href',
      '/library',
    );
    await expectAccessible(page);

    await page
      .getByRole('navigation', { name: 'Private area' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await expect(page).toHaveURL(`/profile/${id}/settings`);
    await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
    await expect(page.getByTestId('settings-email')).toHaveText(email);
    await expect(page.getByTestId('settings-status')).toHaveText('Pending verification');
    const since = await createdOn(page);
    await expect(page.getByTestId('settings-member-since')).toHaveText(
      `${since.mm}/${since.dd}/${since.yyyy}`,
    );

    // Following the e-mailed link confirms the address and welcomes the new member.
    const link = await linkFromOutbox(page, email, /verify-email/);
    await page.goto(link);
    await expect(page).toHaveURL(`/profile/${id}/dashboard`);
    await expect(page.getByText('Welcome to Scaffale, Jo Journey!')).toBeVisible();
    await page.goto(`/profile/${id}/settings`);
    await expect(page.getByTestId('settings-status')).toHaveText('Verified');
    await expectAccessible(page);

    // Username: invalid and taken names are refused, each with its own message.
    const other = `taken_${Date.now().toString(36)}`;
    const otherEmail = uniqueEmail('other');
    const signUp = await page.request.post('/api/auth/sign-up/email', {
      headers: { origin: new URL(page.url()).origin },
      data: {
        acceptTerms: true,
        email: otherEmail,
        password: PASSWORD,
        name: 'other',
        username: freshUsername('o'),
      },
    });
    expect(signUp.ok()).toBeTruthy();
    const username = page.getByLabel('Username');
    await username.fill('ab');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(
      page.getByText(
        'Username must be 3-20 characters and only contain letters, numbers, and underscores',
      ),
    ).toBeVisible();
    await username.fill('has space');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(
      page.getByText(
        'Username must be 3-20 characters and only contain letters, numbers, and underscores',
      ),
    ).toBeVisible();
    // Give the name to someone else first, through a second browser session.
    const browser = page.context().browser()!;
    const otherContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const otherPage = await otherContext.newPage();
    await otherPage.goto('/');
    const otherLink = await linkFromOutbox(otherPage, otherEmail, /verify-email/);
    await otherPage.goto(otherLink);
    await expect(otherPage).toHaveURL(/\/dashboard$/);
    const claimed = await otherPage.request.patch('/api/me', {
      headers: { origin: new URL(otherPage.url()).origin },
      data: { username: other },
    });
    expect(claimed.status()).toBe(200);
    await otherContext.close();

    await username.fill(other.toUpperCase());
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Username is already taken')).toBeVisible();
    const mine = `me_${Date.now().toString(36)}`;
    await username.fill(mine);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Your profile has been saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Username')).toHaveValue(mine);

    // Sign out from the settings page: back home, signed out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();

    // Sign in by username; a wrong password and an unknown username are refused.
    await page.goto('/login');
    await signInWithForm(page, mine, 'wrong-password');
    await expect(page.getByRole('alert')).toContainText('Invalid login credentials');
    // An unknown username answers as a wrong password (nothing tells which names exist).
    await signInWithForm(page, `nobody_${Date.now().toString(36)}`, PASSWORD);
    await expect(page.getByRole('alert')).toContainText('Invalid login credentials');
    await signInWithForm(page, mine, PASSWORD);
    await expect(page).toHaveURL(`/profile/${id}/dashboard`);
  });

  test('avatar: a PNG is uploaded; a non-image and a 6 MB file are refused', async ({ page }) => {
    await page.goto('/');
    await dismissCookieBanner(page);
    const member = await createConfirmedMember(page);
    await page.goto(`/profile/${member.id}/settings`);
    const avatar = page.getByRole('img', { name: /^Profile picture of/ });
    // Before any upload: the identicon drawn from the e-mail's hash.
    await expect(avatar).toHaveAttribute('src', /^data:image\/svg\+xml/);

    const choose = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Upload a new picture' }).click();
      await (await chooser).setFiles(file);
    };

    await choose({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByText('Please upload an image file')).toBeVisible();

    // Named like an image, but not one: the server reads the content and refuses it.
    await choose({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is not really a picture'),
    });
    await expect(page.getByText('Please upload an image file')).toBeVisible();

    await choose({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(6 * 1024 * 1024, 1),
    });
    await expect(page.getByText('File size must be less than 5MB')).toBeVisible();

    const uploaded = page.waitForResponse(
      (r) => r.url().endsWith('/api/me/avatar') && r.request().method() === 'POST',
    );
    await choose({ name: 'me.png', mimeType: 'image/png', buffer: await pngBuffer() });
    expect((await uploaded).status()).toBe(200);
    await expect(page.getByText('Your profile picture has been updated.')).toBeVisible();
    await expect(avatar).toHaveAttribute('src', /^\/uploads\//);
    const src = (await avatar.getAttribute('src'))!;
    const served = await page.request.get(src);
    expect(served.status()).toBe(200);
    expect(served.headers()['cache-control']).toContain('max-age=3600');
    // The header's avatar follows, and so does the private area's sidebar (the photo, not an initial).
    await expect(page.getByRole('banner').locator(`img[src="${src}"]`)).toHaveCount(1);
    await expect(page.getByTestId('private-area-avatar').locator('img')).toHaveAttribute(
      'src',
      src,
    );
  });

  test('password reset through the e-mailed link: the new password works, the old one fails', async ({
    page,
  }) => {
    await page.goto('/');
    await dismissCookieBanner(page);
    const member = await createConfirmedMember(page);
    await page.request.post('/api/auth/sign-out', {
      headers: { origin: new URL(page.url()).origin },
      data: {},
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    // The same answer for an unknown address...
    await page.getByLabel('Email').fill(uniqueEmail('unknown'));
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    const sent =
      'If an account exists for this address, we have sent it an email with a link to choose a new password.';
    await expect(page.getByText(sent)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    // ...and for a member's.
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(member.email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await expect(page.getByText(sent)).toBeVisible();

    const link = await linkFromOutbox(page, member.email, /reset-password/);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('different');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    const fresh = 'nuova-password-42';
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(fresh);
    await page.getByLabel('Confirm new password').fill(fresh);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(
      page.getByText('Your password has been changed. You can now log in with your new password.'),
    ).toBeVisible();

    // The link works once.
    await page.goto(link);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('another-one-1');
    await page.getByLabel('Confirm new password').fill('another-one-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('heading', { name: 'Link not valid' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/login?forgot=1',
    );

    await page.goto('/login');
    await signInWithForm(page, member.email, member.password);
    await expect(page.getByRole('alert')).toContainText('Invalid login credentials');
    await signInWithForm(page, member.email, fresh);
    await expect(page).toHaveURL(`/profile/${member.id}/dashboard`);
  });

  test('a reset link that is not valid says so and offers a new one', async ({ page }) => {
    await page.goto('/reset-password?error=INVALID_TOKEN');
    await dismissCookieBanner(page);
    await expect(
      page.getByText('This password reset link is not valid or has expired.'),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  });
});

test.describe('accounts: in Italian', () => {
  test.use({ locale: 'it-IT' });

  test('signing up from the Italian interface sends the confirmation e-mail in Italian', async ({
    page,
  }) => {
    const email = uniqueEmail('lettore');
    await page.goto('/signup');
    await dismissCookieBanner(page);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Crea il tuo account' }),
    ).toBeVisible();
    await page.getByLabel('Nome visualizzato').fill('Lia Lettrice');
    await page.getByLabel('Nome utente').fill(freshUsername('lia'));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByLabel('Conferma password').fill('diversa-123');
    await page.getByRole('button', { name: 'Crea account' }).click();
    await expect(page.getByText('Le password non coincidono')).toBeVisible();
    await page.getByLabel('Conferma password').fill(PASSWORD);
    await page.getByRole('checkbox', { name: /^Accetto i termini di servizio/ }).check();
    await page.getByRole('button', { name: 'Crea account' }).click();
    await expect(
      page.getByText(
        "Ti abbiamo scritto all'indirizzo indicato. Se è nuovo, troverai un link per confermare l'account",
        { exact: false },
      ),
    ).toBeVisible();
    const link = await linkFromOutbox(page, email, /verify-email/);
    const mail = (await outbox(page)).find((m) => m.to === email)!;
    expect(mail.subject).toBe('Conferma il tuo account Scaffale');
    await page.goto(link);
    // The notice is a toast that closes by itself after a few seconds: looked for first, while
    // the dashboard loads behind it.
    await expect(
      page.getByText('Il tuo indirizzo email è confermato. Ora puoi accedere.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/profile\/[^/]+\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByText('Ti diamo il benvenuto su Scaffale, Lia Lettrice!')).toBeVisible();
    const id = new URL(page.url()).pathname.split('/')[2];
    await page.goto(`/profile/${id}/settings`);
    const since = await createdOn(page);
    await expect(page.getByTestId('settings-member-since')).toHaveText(
      `${since.dd}/${since.mm}/${since.yyyy}`,
    );
    await expect(page.getByTestId('settings-status')).toHaveText('Verificato');
  });
});
