// The people of a journey: unique addresses, confirmed members with browsers of their own,
// signing in through the form, the cookie banner answered, an admin granted.
import { execFileSync } from 'node:child_process';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { originOf } from './api';
import { linkFromOutbox } from './outbox';

export const PASSWORD = 'lettore-2024';

let counter = 0;
/** A unique address per call, so runs and tests never collide. */
export function uniqueEmail(prefix = 'reader'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** Answers the cookie banner as a visitor would, so that it does not cover the page. */
export async function dismissCookieBanner(page: Page) {
  const button = page.getByRole('button', { name: /^(Solo essenziali|Essential Only)$/ });
  // A click that lands in the instant the consent tool takes the server's banner's place can be
  // lost (seen once in CI, on a loaded machine; never reproduced in 120 tries here): a person would
  // click again, and so does this helper. The banner's own journeys (e2e/legal-cookies.spec.ts) click once.
  await expect(async () => {
    if ((await button.count()) > 0) await button.first().click({ timeout: 5_000 });
    await expect(button).toHaveCount(0, { timeout: 5_000 });
  }).toPass({ timeout: 20_000 });
  // The server's banner goes at once, but the choice is stored once the consent tool has loaded:
  // a page loaded before that would show the banner again.
  await expect
    .poll(async () => (await page.context().cookies()).some((c) => c.name === 'scaffale_consent'))
    .toBe(true);
}

/**
 * A confirmed member signed in in this page's browser context: signs up through the API (as the
 * sign-up form does), then follows the confirmation link from the outbox, which signs in and
 * lands on the dashboard. No sign-in request is spent (they are rate-limited per address).
 */
export async function createConfirmedMember(
  page: Page,
  opts: { email?: string; password?: string; username?: string } = {},
): Promise<{ id: string; email: string; password: string }> {
  if (page.url() === 'about:blank') await page.goto('/');
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? PASSWORD;
  // As the sign-up form does: a display name (the local part keeps journeys readable) and a
  // username, so the member is not stopped by the first-visit name page.
  const username =
    opts.username ?? `r_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const res = await page.request.post('/api/auth/sign-up/email', {
    headers: { origin: originOf(page), 'accept-language': 'en' },
    data: {
      acceptTerms: true,
      email,
      password,
      name: email.split('@')[0],
      username,
      callbackURL: '/login?verified=1',
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const link = await linkFromOutbox(page, email, /verify-email/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/profile\/[^/]+\/dashboard$/);
  const id = new URL(page.url()).pathname.split('/')[2];
  return { id, email, password };
}

/** A member of a multi-member journey: their own browser context and page. */
export interface OpenMember {
  id: string;
  email: string;
  /** The display name the helper signs up with: the e-mail's local part. */
  name: string;
  context: BrowserContext;
  page: Page;
}

export interface OpenMemberOptions {
  /** Defaults to a unique address starting with the username, if any. */
  email?: string;
  username?: string;
  userAgent?: string;
}

/**
 * A new confirmed member, signed in, in a browser context of their own (English, the cookie
 * banner answered): each member of a journey is a separate person with a separate browser, and
 * their own account, so journeys running in parallel never share one.
 */
export async function openMember(
  browser: Browser,
  opts: OpenMemberOptions & { username: string },
): Promise<OpenMember & { username: string }>;
export async function openMember(browser: Browser, opts?: OpenMemberOptions): Promise<OpenMember>;
export async function openMember(
  browser: Browser,
  opts: OpenMemberOptions = {},
): Promise<OpenMember & { username?: string }> {
  const context = await browser.newContext({
    locale: 'en-US',
    ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
  });
  const page = await context.newPage();
  await page.goto('/');
  await dismissCookieBanner(page);
  const { id, email } = await createConfirmedMember(page, {
    email: opts.email ?? (opts.username ? uniqueEmail(opts.username) : undefined),
    username: opts.username,
  });
  return { id, email, name: email.split('@')[0], username: opts.username, context, page };
}

/** Closes the browsers of a journey's members (a test.afterAll: those not opened are passed over). */
export async function closeMembers(...members: (OpenMember | undefined)[]) {
  for (const m of members) await m?.context.close();
}

/** Signs in through the login form with an e-mail address or a username. */
export async function signInWithForm(page: Page, identifier: string, password: string) {
  await page.getByLabel(/^(Email or username|Email o nome utente)/).fill(identifier);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: /^(Log in|Accedi)$/ }).click();
}

/** `npm run admin -- grant EMAIL`, against the data folder the test server runs on. */
export function grantAdmin(email: string): string {
  return execFileSync('node_modules/.bin/tsx', ['scripts/admin.ts', 'grant', email], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    encoding: 'utf8',
  });
}
