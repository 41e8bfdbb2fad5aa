import type { Page } from '@playwright/test';
import { test, expect, expectAccessible, uniqueWord } from './fixtures';
import {
  createConfirmedMember,
  dismissCookieBanner,
  grantAdmin,
  openMember,
  type OpenMember,
} from './members';
import { outbox } from './outbox';
import { apiPost } from './api';
import { confirmExchange } from './deals';

/**
 * Trust and safety, as people walk it: a buyer and a seller complete a sale through the offer
 * flow of their conversation and review each other, and both profiles show the review and the
 * new average; a member reports a listing, an admin (granted with `npm run admin -- grant`, run
 * here against the test server's data folder) hides it from the queue, it is gone from the
 * library, its seller has the statement of reasons in the outbox, and the reporter is told the
 * outcome in their notifications.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial', timeout: 150_000 });

let stamp = '';
let SOLD = '';
let SCAM = '';

type Member = OpenMember;

let seller: Member;
let buyer: Member;

async function listBook(page: Page, title: string, price: number): Promise<string> {
  const created = await apiPost(page, '/api/listings', {
    mode: 'quickSell',
    title,
    author: 'Cesare Pavese',
    price,
  });
  return created.id as string;
}

/** Chooses stars by keyboard, as Mantine's rating keeps its radios out of sight. */
async function rate(dialog: ReturnType<Page['getByRole']>, stars: number) {
  const star = dialog.getByRole('radio', { name: `${stars} out of 5 stars` });
  await star.focus();
  await star.press('Space');
  await expect(star).toBeChecked();
}

test.beforeAll(async ({ browser }) => {
  stamp = uniqueWord('');
  SOLD = `La luna e i falò ${stamp}`;
  SCAM = `Harry Potter signed first edition ${stamp}`;
  seller = await openMember(browser);
  buyer = await openMember(browser);
});

test.afterAll(async () => {
  await seller?.context.close();
  await buyer?.context.close();
});

test('a buyer and a seller complete a sale and review each other', async () => {
  const listingId = await listBook(seller.page, SOLD, 11);
  // The buyer writes from the listing and offers; the seller accepts; both confirm the exchange.
  const { roomId } = await apiPost(buyer.page, '/api/chats/contact', {
    listingId,
    content: 'Is it still available?',
  });
  await apiPost(buyer.page, `/api/chats/rooms/${roomId}/offers`, { listingId, amount: 10 });

  const s = seller.page;
  await s.goto(`/profile/${seller.id}/chats?room=${roomId}`);
  const theirOffer = s.getByRole('log', { name: 'Messages' }).getByTestId('chat-offer');
  await theirOffer.getByRole('button', { name: 'Accept offer' }).click();
  // Both confirm the exchange in the deal's card (decision 0083): the seller, then the buyer.
  await confirmExchange(s);
  await buyer.page.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
  await confirmExchange(buyer.page);
  await expect(theirOffer).toContainText('Sold');

  // Before any review the seller is a new member: a trade is not a rating (no stars, no figure).
  await buyer.page.goto(`/user/${seller.id}`);
  await expect(buyer.page.getByTestId('profile-rating')).toHaveText('New member');
  await expect(buyer.page.getByText('No reviews yet.')).toBeVisible();

  // The seller reviews the buyer from the conversation, where the sale was completed.
  await s.getByRole('button', { name: 'Leave a review' }).click();
  const sellerDialog = s.getByRole('dialog', { name: `Review ${buyer.name}` });
  await rate(sellerDialog, 4);
  await sellerDialog.getByLabel('Your review (optional)').fill('Paid at once, friendly buyer.');
  await expectAccessible(s);
  await sellerDialog.getByRole('button', { name: 'Publish review' }).click();
  await expect(sellerDialog).toHaveCount(0);
  await expect(s.getByRole('button', { name: 'Edit your review' })).toBeVisible();

  // The buyer reviews the seller from their trades, in the private area.
  const b = buyer.page;
  await b.goto(`/profile/${buyer.id}/transactions`);
  const trade = b.getByTestId('trade').filter({ hasText: SOLD });
  await expect(trade).toContainText(`You bought “${SOLD}”`);
  await expectAccessible(b);
  await trade.getByRole('button', { name: 'Leave a review' }).click();
  const buyerDialog = b.getByRole('dialog', { name: `Review ${seller.name}` });
  await buyerDialog.getByRole('button', { name: 'Publish review' }).click();
  await expect(buyerDialog.getByText('Choose from 1 to 5 stars')).toBeVisible();
  await rate(buyerDialog, 5);
  await buyerDialog.getByLabel('Your review (optional)').fill('Exactly as described. Thanks!');
  await buyerDialog.getByRole('button', { name: 'Publish review' }).click();
  await expect(buyerDialog).toHaveCount(0);
  // The second review publishes both (double-blind, decision 0073): final, and the other's shows.
  await expect(trade.getByTestId('review-published')).toHaveText('Your review is published');
  await expect(trade.getByTestId('their-review')).toContainText('Paid at once, friendly buyer.');

  // Both profiles show the review and the new average, replacing the formula.
  await b.goto(`/user/${seller.id}`);
  const sellerReviews = b.getByRole('region', { name: 'Reviews' });
  await expect(sellerReviews.getByTestId('reviews-summary')).toHaveText(
    '5.0 out of 5 from 1 review',
  );
  await expect(sellerReviews.getByTestId('review')).toContainText('Exactly as described. Thanks!');
  await expect(sellerReviews.getByTestId('review')).toContainText(`Sale: ${SOLD}`);
  await expect(b.getByTestId('profile-rating')).toHaveText('5.0');
  await expectAccessible(b);

  await s.goto(`/user/${buyer.id}`);
  const buyerReviews = s.getByRole('region', { name: 'Reviews' });
  await expect(buyerReviews.getByTestId('reviews-summary')).toHaveText(
    '4.0 out of 5 from 1 review',
  );
  await expect(buyerReviews.getByTestId('review')).toContainText('Paid at once, friendly buyer.');
  await expect(s.getByTestId('profile-rating')).toHaveText('4.0');

  // Each member's sidebar shows the figure their public profile shows (one rating rule).
  await s.goto(`/profile/${seller.id}/dashboard`);
  await expect(s.getByTestId('private-area-rating')).toHaveText('5.0');
  await b.goto(`/profile/${buyer.id}/dashboard`);
  await expect(b.getByTestId('private-area-rating')).toHaveText('4.0');
});

test('a member reports a listing; an admin hides it and its seller gets the reasons', async ({
  browser,
}) => {
  const listingId = await listBook(seller.page, SCAM, 900);

  const b = buyer.page;
  const search = `/library?q=${encodeURIComponent(`signed first edition ${stamp}`)}`;
  const results = b.getByText(/^(Books found: \d+|No results)$/).first();
  await b.goto(search);
  await expect(results).toBeVisible();
  await expect(b.getByRole('link', { name: new RegExp(SCAM) }).first()).toBeVisible();

  // The buyer reports it from the listing's page.
  await b.goto(`/library/book/${listingId}`);
  await expect(b.getByRole('heading', { name: SCAM })).toBeVisible();
  await b.getByRole('button', { name: 'Report this listing' }).click();
  const dialog = b.getByRole('dialog', { name: 'Report this listing' });
  await dialog.getByRole('radio', { name: 'Scam or fraud' }).check();
  await dialog.getByLabel('Details (optional)').fill('Asks to be paid by wire outside the site.');
  await expectAccessible(b);
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(b.getByText('Thank you: your report was sent to the moderators.')).toBeVisible();
  // A second report of the same listing is refused with a clear message.
  await b.getByRole('button', { name: 'Report this listing' }).click();
  await dialog.getByRole('radio', { name: 'Spam' }).check();
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'You have already reported this; the moderators have not decided yet.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // /admin does not exist for a member who is not an admin.
  const adminContext = await browser.newContext({ locale: 'en-US' });
  const a = await adminContext.newPage();
  await a.goto('/');
  await dismissCookieBanner(a);
  const admin = await createConfirmedMember(a);
  await a.goto('/admin');
  await expect(a.getByRole('heading', { name: 'Page not found' })).toBeVisible();

  // Granted from the command line, the same member moderates.
  expect(grantAdmin(admin.email)).toContain(`${admin.email} is now an admin.`);
  await a.goto('/admin');
  await expect(a.getByRole('heading', { name: 'Moderation', level: 1 })).toBeVisible();
  const entry = a.getByTestId('queue-entry').filter({ hasText: SCAM });
  await expect(entry).toContainText('1 report');
  await expect(entry).toContainText('Scam or fraud');
  await expect(entry).toContainText('Asks to be paid by wire outside the site.');
  await expectAccessible(a);
  await entry.getByRole('button', { name: 'Hide' }).click();
  const hide = a.getByRole('dialog', { name: 'Hide this item' });
  await hide.getByRole('button', { name: 'Confirm' }).click();
  await expect(hide.getByText('This field is required').or(hide.getByRole('alert'))).toBeVisible();
  await hide.getByLabel('Reason').fill('Selling counterfeit signed editions is a scam.');
  await hide.getByRole('button', { name: 'Confirm' }).click();
  await expect(hide).toHaveCount(0);
  await expect(a.getByTestId('queue-entry').filter({ hasText: SCAM })).toHaveCount(0);

  // The audit log lists the action with its reason.
  await a.getByRole('tab', { name: 'Audit log' }).click();
  const log = a.getByTestId('audit-log');
  await expect(log).toContainText('Selling counterfeit signed editions is a scam.');
  await expect(log).toContainText('hid');
  await expectAccessible(a);

  // It is gone from the library and from its own page.
  await b.goto(search);
  await expect(results).toBeVisible();
  await expect(b.getByText(SCAM)).toHaveCount(0);
  const detail = await b.request.get(`/api/listings/${listingId}`);
  expect(detail.status()).toBe(404);

  // Its seller has the statement of reasons, in their language.
  await expect
    .poll(async () => (await outbox(b)).find((m) => m.to === seller.email)?.subject)
    .toBe('Your listing was removed');
  const mail = (await outbox(b)).find((m) => m.to === seller.email)!;
  expect(mail.text).toContain(SCAM);
  expect(mail.text).toContain('Selling counterfeit signed editions is a scam.');

  // The reporter hears the outcome in their notifications, without the moderator's name.
  await b.goto(`/profile/${buyer.id}/notifications`);
  const told = b
    .getByRole('list', { name: 'Your notifications' })
    .getByRole('listitem')
    .filter({ hasText: 'The moderators reviewed your report' });
  await expect(told).toContainText(`“${SCAM} — Cesare Pavese” and removed it.`);
  await expect(told).not.toContainText(admin.email.split('@')[0]);
  await adminContext.close();
});
