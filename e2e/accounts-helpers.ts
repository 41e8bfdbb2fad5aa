import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, outbox } from './fixtures';

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

/** State-changing API calls from the test need the site's Origin (CSRF protection). */
function originOf(page: Page): string {
  return new URL(page.url()).origin;
}

/** A member's API call from their page, with the site's Origin (CSRF protection); must succeed. */
export async function apiPost(page: Page, url: string, data: object) {
  const res = await page.request.post(url, { headers: { origin: originOf(page) }, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

/** The newest e-mail to an address whose text holds a link matching `pattern`, and that link. */
export async function linkFromOutbox(page: Page, to: string, pattern: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const mail = (await outbox(page)).find((m) => m.to === to && pattern.test(m.text));
      link = mail?.text.match(/https?:\/\/\S+/g)?.find((l) => pattern.test(l));
      return link;
    })
    .toBeTruthy();
  return link!;
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

/** Signs in through the login form with an e-mail address or a username. */
export async function signInWithForm(page: Page, identifier: string, password: string) {
  await page.getByLabel(/^(Email or username|Email o nome utente)/).fill(identifier);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: /^(Log in|Accedi)$/ }).click();
}

/** A small real PNG drawn with sharp (a server dependency), as the browser would upload it. */
export async function pngBuffer(width = 64, height = 64): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width, height, channels: 3, background: '#8b5a2b' } })
    .png()
    .toBuffer();
}

/** `npm run admin -- grant EMAIL`, against the data folder the test server runs on. */
export function grantAdmin(email: string): string {
  return execFileSync('node_modules/.bin/tsx', ['scripts/admin.ts', 'grant', email], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    encoding: 'utf8',
  });
}

/**
 * A deal's start through the API, as members make it: `seller` lists a book (`listing`: the
 * listing's fields), `buyer` contacts them and offers `amount`, the seller accepts.
 */
export async function acceptedOffer(
  seller: { page: Page },
  buyer: { page: Page },
  listing: object,
  { content = 'Is it still available?', amount = 8 } = {},
) {
  const { id: listingId } = await apiPost(seller.page, '/api/listings', listing);
  const { roomId } = await apiPost(buyer.page, '/api/chats/contact', { listingId, content });
  const offer = await apiPost(buyer.page, `/api/chats/rooms/${roomId}/offers`, {
    listingId,
    amount,
  });
  const offerId = offer.message.offer.id as string;
  const accepted = await apiPost(seller.page, `/api/chats/offers/${offerId}/accept`, {});
  const dealId = accepted.message.offer.dealId as string;
  return { listingId: listingId as string, roomId: roomId as string, offerId, dealId };
}

/**
 * Completes a deal by hand through the API: both sides confirm the exchange (decision 0083: nobody
 * marks a book sold alone), the seller first.
 */
export async function bothConfirmExchange(
  seller: { page: Page },
  buyer: { page: Page },
  dealId: string,
) {
  await apiPost(seller.page, `/api/deals/${dealId}/meeting/confirm`, {});
  await apiPost(buyer.page, `/api/deals/${dealId}/meeting/confirm`, {});
}

/** In the open conversation, confirms the exchange in the deal's card (decision 0083). */
export async function confirmExchange(page: Page) {
  const button = page
    .getByRole('log', { name: 'Messages' })
    .getByRole('group', { name: 'Meeting' })
    .getByRole('button', { name: 'Confirm the exchange happened' });
  await button.click();
  await expect(button).toHaveCount(0);
}

/**
 * Sets how far ahead the server's clock runs (TEST_CLOCK; 0: the real time again). The clock is
 * the whole server's, and journeys run side by side: moving it takes a lock (a directory beside
 * the e2e data) that setting it back to 0 releases, so two journeys never move it at once. A lock
 * left by a crashed run is taken over after two minutes.
 */
export async function serverClock(page: Page, offsetMs: number) {
  const lock = join(process.env.E2E_DATA_DIR ?? tmpdir(), 'server-clock.lock');
  if (offsetMs !== 0 && !heldClockLocks.has(lock)) {
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        const since = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
        if (since > 120_000) rmSync(lock, { recursive: true, force: true });
        else await page.waitForTimeout(200);
      }
    }
    heldClockLocks.add(lock);
  }
  const res = await page.request.post('/api/dev/clock', {
    headers: { origin: originOf(page) },
    data: { offsetMs },
  });
  expect(res.status(), await res.text()).toBe(200);
  if (offsetMs === 0 && heldClockLocks.delete(lock)) rmSync(lock, { recursive: true, force: true });
}
const heldClockLocks = new Set<string>();
