import type { Locator, Page } from '@playwright/test';
import {
  test,
  expect,
  expectAccessible,
  expectFitsWidth,
  uniqueWord,
  waitForLive,
} from './fixtures';
import { openMember, type OpenMember } from './members';
import { acceptedOffer, bothConfirmExchange } from './deals';

/**
 * Reviews that cannot retaliate (issue 22 item 7, decision 0073), as two members walk it: after a
 * completed sale the buyer reviews; the seller learns only that a review waits for theirs (no
 * stars, no words, and nothing on the buyer's profile yet); the seller writes theirs, and both
 * reviews are published together: each member reads the other's, live, and both profiles show it.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ timeout: 150_000 });

let seller: OpenMember;
let buyer: OpenMember;

test.afterAll(async () => {
  await seller?.context.close();
  await buyer?.context.close();
});

/** Chooses stars by keyboard, as Mantine's rating keeps its radios out of sight. */
async function rate(dialog: Locator, stars: number) {
  const star = dialog.getByRole('radio', { name: `${stars} out of 5 stars` });
  await star.focus();
  await star.press('Space');
  await expect(star).toBeChecked();
}

/** A sale between the two, completed through the API: offer, accept, both confirm the exchange. */
async function completedSale(title: string) {
  const { dealId } = await acceptedOffer(seller, buyer, {
    mode: 'quickSell',
    title,
    author: 'Natalia Ginzburg',
    price: 9,
  });
  await bothConfirmExchange(seller, buyer, dealId);
}

async function writeReview(page: Page, trade: Locator, name: string, stars: number, text: string) {
  await trade.getByRole('button', { name: 'Leave a review' }).click();
  const dialog = page.getByRole('dialog', { name: `Review ${name}` });
  await rate(dialog, stars);
  await dialog.getByLabel('Your review (optional)').fill(text);
  await dialog.getByRole('button', { name: 'Publish review' }).click();
  await expect(dialog).toHaveCount(0);
}

test('a review stays hidden until both have written, then both are published together', async ({
  browser,
}) => {
  seller = await openMember(browser);
  buyer = await openMember(browser);
  const title = `Lessico famigliare ${uniqueWord('')}`;
  const BY_BUYER = 'Well wrapped and exactly as described.';
  const BY_SELLER = 'Paid at once, a pleasure.';
  await completedSale(title);

  // The seller keeps their trades open: what happens next shows there live.
  const s = seller.page;
  await s.goto(`/profile/${seller.id}/transactions`);
  const sellerTrade = s.getByTestId('trade').filter({ hasText: title });
  await expect(sellerTrade).toContainText(`You sold “${title}”`);
  await waitForLive(s);

  // The buyer reviews first: theirs waits, and says until when.
  const b = buyer.page;
  await b.goto(`/profile/${buyer.id}/transactions`);
  const buyerTrade = b.getByTestId('trade').filter({ hasText: title });
  await writeReview(b, buyerTrade, seller.name, 5, BY_BUYER);
  await expect(b.getByText(`Review sent. It will be published when ${seller.name}`)).toBeVisible();
  await expect(buyerTrade.getByTestId('review-pending')).toContainText(
    `Your review: published when ${seller.name} writes theirs, or on`,
  );
  await expect(buyerTrade.getByRole('button', { name: 'Edit your review' })).toBeVisible();

  // The seller learns only that a review waits for theirs: no stars, no words.
  await expect(sellerTrade.getByTestId('review-waiting')).toHaveText(
    `${buyer.name} has reviewed you: write yours to see it`,
  );
  await expect(s.getByText(BY_BUYER)).toHaveCount(0);
  await expect(sellerTrade.getByTestId('their-review')).toHaveCount(0);
  await expectAccessible(s);
  await s.setViewportSize({ width: 375, height: 800 });
  await expectFitsWidth(s);
  await s.setViewportSize({ width: 1280, height: 800 });
  // Nor does anyone else see it: the seller's profile has no review and no figure yet.
  await b.goto(`/user/${seller.id}`);
  await expect(b.getByText('No reviews yet.')).toBeVisible();
  await expect(b.getByTestId('profile-rating')).toHaveText('New member');
  await b.goto(`/profile/${buyer.id}/transactions`);
  await waitForLive(b);

  // The seller writes theirs: both are published at once.
  await writeReview(s, sellerTrade, buyer.name, 4, BY_SELLER);
  await expect(s.getByText('Review published.')).toBeVisible();
  await expect(sellerTrade.getByTestId('review-published')).toHaveText('Your review is published');
  await expect(sellerTrade.getByTestId('their-review')).toContainText(BY_BUYER);
  await expect(sellerTrade.getByRole('button', { name: 'Edit your review' })).toHaveCount(0);

  // The buyer, on the same page, sees it live: theirs published, the seller's to read.
  await expect(buyerTrade.getByTestId('review-published')).toHaveText('Your review is published');
  await expect(buyerTrade.getByTestId('their-review')).toContainText(BY_SELLER);
  await expect(buyerTrade.getByTestId('their-review')).toContainText(
    `${seller.name}'s review of you`,
  );
  await expectAccessible(b);

  // Both profiles show the review and its figure.
  await b.goto(`/user/${seller.id}`);
  const sellerReviews = b.getByRole('region', { name: 'Reviews' });
  await expect(sellerReviews.getByTestId('review')).toContainText(BY_BUYER);
  await expect(b.getByTestId('profile-rating')).toHaveText('5.0');
  await s.goto(`/user/${buyer.id}`);
  await expect(s.getByRole('region', { name: 'Reviews' }).getByTestId('review')).toContainText(
    BY_SELLER,
  );
  await expect(s.getByTestId('profile-rating')).toHaveText('4.0');
});
