// Deals as members make them: an offer accepted through the API, the exchange confirmed.
import { expect, type Page } from '@playwright/test';
import { apiPost } from './api';

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

/**
 * In the open conversation, confirms the exchange in the deal's card (decision 0083), and says
 * yes to the question that follows (it cannot be undone).
 */
export async function confirmExchange(page: Page) {
  const button = page
    .getByRole('log', { name: 'Messages' })
    .getByRole('group', { name: 'Meeting' })
    .getByRole('button', { name: 'Confirm the exchange happened' });
  await button.click();
  await page
    .getByRole('dialog', { name: 'Confirm the exchange?' })
    .getByRole('button', { name: 'Yes, the exchange happened' })
    .click();
  await expect(button).toHaveCount(0);
}

/** A listing that ships, an offer by post and the seller's acceptance, through the API. */
export function acceptedPostOffer(seller: { page: Page }, buyer: { page: Page }, title: string) {
  return acceptedOffer(
    seller,
    buyer,
    {
      mode: 'full',
      title,
      author: 'Italo Calvino',
      genre: 'fiction',
      condition: 'good',
      listingType: 'sell',
      price: 9,
      currency: 'EUR',
      shippingCost: 3.5,
      description: 'Edizione Einaudi.',
    },
    { content: 'Can you post it?' },
  );
}

/** The fields of a book listed for trade (POST /api/listings). */
export const tradeListing = (title: string, author: string, description: string) => ({
  mode: 'full',
  title,
  author,
  genre: 'fiction',
  condition: 'good',
  listingType: 'trade',
  currency: 'EUR',
  description,
});
