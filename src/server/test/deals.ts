// Deals made as members make them, through the API: an offer, a hand-over confirmed, a sale.
import { expect } from 'vitest';
import type { TestApp } from './app';
import { requester, type Member } from './members';
import { createListing } from './listings';

/** A member's offer on a listing, made as a buyer would: contact the seller, then offer. */
export async function offerFrom(
  t: TestApp,
  who: Member,
  listingId: string,
  amount = 5,
): Promise<string> {
  const req = requester(t);
  const contact = await req('POST', '/api/chats/contact', who, { listingId, content: 'Ciao' });
  expect(contact.statusCode, contact.body).toBe(201);
  const res = await req('POST', `/api/chats/rooms/${contact.json().roomId}/offers`, who, {
    listingId,
    amount,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().message.offer.id;
}

/**
 * A deal by hand completed: both sides confirm the exchange, the seller first (decision 0083:
 * nobody marks a book sold alone).
 */
export async function bothConfirm(t: TestApp, seller: Member, buyer: Member, dealId: string) {
  const req = requester(t);
  for (const who of [seller, buyer]) {
    const res = await req('POST', `/api/deals/${dealId}/meeting/confirm`, who);
    expect(res.statusCode, res.body).toBe(200);
  }
}

/**
 * A sale completed through the chat's offer flow: the buyer contacts the seller about a new
 * listing with `content`, offers 10, the seller accepts, both confirm the exchange.
 */
export async function saleThroughChat(
  t: TestApp,
  seller: Member,
  buyer: Member,
  { title, content }: { title: string; content: string },
) {
  const req = requester(t);
  const listing = await createListing(t, seller, { title, price: 12 });
  const contact = await req('POST', '/api/chats/contact', buyer, {
    listingId: listing.id,
    content,
  });
  expect(contact.statusCode, contact.body).toBe(201);
  const { roomId } = contact.json();
  const offer = await req('POST', `/api/chats/rooms/${roomId}/offers`, buyer, {
    listingId: listing.id,
    amount: 10,
  });
  expect(offer.statusCode, offer.body).toBe(201);
  const offerId = offer.json().message.offer.id;
  const accepted = await req('POST', `/api/chats/offers/${offerId}/accept`, seller);
  expect(accepted.statusCode, accepted.body).toBe(200);
  await bothConfirm(t, seller, buyer, accepted.json().message.offer.dealId);
  const [tx] = await t.database.query<{ id: string }>(
    `select id from transactions where listing_id = $1 and status = 'completed'`,
    [listing.id],
  );
  return { listingId: listing.id as string, roomId: roomId as string, transactionId: tx.id };
}

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
