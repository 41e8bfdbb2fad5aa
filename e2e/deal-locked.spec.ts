import type { Page } from '@playwright/test';
import { test, expect, expectFitsWidth, uniqueWord } from './fixtures';
import { closeMembers, openMember, type OpenMember } from './members';
import { apiPost } from './api';
import { acceptedPostOffer } from './deals';

/**
 * A book in an open deal is locked (issue 32): the seller of a parcel the buyer reported as not
 * arrived tries to put the book back on sale from My books and is refused with the reason; the
 * buyer keeps seeing the deal, its book as agreed and the open case.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ timeout: 180_000 });

const members: OpenMember[] = [];
test.afterAll(() => closeMembers(...members));

const dealCard = (page: Page) => page.getByTestId('deal-card').last();

test('a seller cannot relist a book whose buyer has an open problem case', async ({ browser }) => {
  const seller = await openMember(browser);
  const buyer = await openMember(browser);
  members.push(seller, buyer);
  const title = `First edition, signed ${uniqueWord('')}`;
  const { roomId, dealId, listingId } = await acceptedPostOffer(seller, buyer, title);
  await apiPost(buyer.page, `/api/deals/${dealId}/address`, {
    address: {
      name: 'Bruno Rossi',
      street: 'Via Roma 1',
      postalCode: '00184',
      city: 'Roma',
      country: 'IT',
    },
  });
  await apiPost(seller.page, `/api/deals/${dealId}/ship`, { carrier: 'other', tracking: 'X-42' });
  await apiPost(buyer.page, `/api/deals/${dealId}/problem`, {
    reason: 'not_arrived',
    message: 'It never came.',
  });

  const b = buyer.page;
  await b.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
  const buyerDeal = dealCard(b);
  const buyerCase = buyerDeal.getByTestId('deal-case');
  await expect(buyerCase).toContainText('Open: an admin will decide');
  await expect(buyerDeal.getByTestId('deal-books')).toContainText(title);

  // My books offers the seller nothing to change the book with, and says why; what a request
  // could still try is refused by the server with the same reason.
  const s = seller.page;
  await s.goto(`/profile/${seller.id}/books`);
  const card = s.getByRole('article', { name: title });
  await expect(card.getByText('Reserved')).toBeVisible();
  await expect(card.getByTestId('in-deal-note')).toContainText(
    "This book is in an open deal: it changes only through the deal's steps",
  );
  await expect(card.getByRole('button')).toHaveCount(0);
  await s.setViewportSize({ width: 375, height: 800 });
  await expectFitsWidth(s);
  const origin = { origin: new URL(s.url()).origin, 'accept-language': 'en' };
  const back = await s.request.post(`/api/listings/${listingId}/status`, {
    headers: origin,
    data: { status: 'available' },
  });
  expect(back.status()).toBe(409);
  expect((await back.json()).error.message).toBe(
    "This book is in an open deal: it changes through the deal's steps.",
  );
  const gone = await s.request.delete(`/api/listings/${listingId}`, { headers: origin });
  expect(gone.status()).toBe(409);
  await s.reload();
  await expect(s.getByRole('article', { name: title }).getByText('Reserved')).toBeVisible();

  // The buyer still sees the deal open, the book as agreed and the case waiting for an admin.
  await b.reload();
  // The conversation loads again (slowly on a busy machine).
  await expect(buyerDeal).toContainText('Open', { timeout: 30_000 });
  await expect(buyerDeal.getByTestId('deal-books')).toContainText(title);
  await expect(buyerCase).toContainText('Case: Not arrived');
  await expect(buyerCase).toContainText('Open: an admin will decide');
  await expect(buyerCase).toContainText('It never came.');
});
