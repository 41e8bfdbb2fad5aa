import { expect } from 'vitest';
import type { TestApp } from '../../test/helpers';
import type { Member } from '../../test/members';
import { createListing, requester } from '../chats/test-support';

export interface OpenDeal {
  listingId: string;
  roomId: string;
  offerId: string;
  dealId: string;
}

/**
 * An open deal, made as members would: `seller` lists a book (with `listing` overrides, e.g.
 * `{ shippingCost: 4 }` for one that ships), `buyer` contacts them and offers `amount` (with
 * `delivery` when given), the seller accepts.
 */
export async function openDealBetween(
  t: TestApp,
  seller: Member,
  buyer: Member,
  opts: { listing?: object; amount?: number; delivery?: 'post' | 'hand' } = {},
): Promise<OpenDeal> {
  const req = requester(t);
  const listing = await createListing(t, seller, { price: 12, ...opts.listing });
  const contact = await req('POST', '/api/chats/contact', buyer, {
    listingId: listing.id,
    content: 'Lo prendo',
  });
  expect(contact.statusCode, contact.body).toBe(201);
  const { roomId } = contact.json() as { roomId: string };
  const offer = await req('POST', `/api/chats/rooms/${roomId}/offers`, buyer, {
    listingId: listing.id,
    amount: opts.amount ?? 10,
    ...(opts.delivery ? { delivery: opts.delivery } : {}),
  });
  expect(offer.statusCode, offer.body).toBe(201);
  const offerId = offer.json().message.offer.id as string;
  const accepted = await req('POST', `/api/chats/offers/${offerId}/accept`, seller);
  expect(accepted.statusCode, accepted.body).toBe(200);
  const dealId = accepted.json().message.offer.dealId as string;
  expect(dealId).toBeTruthy();
  return { listingId: listing.id, roomId, offerId, dealId };
}
