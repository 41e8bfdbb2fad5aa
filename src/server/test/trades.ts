import { expect } from 'vitest';
import type { TestApp } from './app';
import { createListing } from './listings';
import { requester, type Member } from './members';

export interface TradeDeal {
  /** The owner's book asked for (the room's listing). */
  wanted: string;
  /** The proposer's books offered. */
  offered: string[];
  roomId: string;
  offerId: string;
  dealId: string;
}

export const address = (name: string) => ({
  name,
  street: 'Via dei Mille 3',
  postalCode: '40121',
  city: 'Bologna',
  country: 'IT',
});

let n = 0;
/**
 * A trade deal opened as members would: `owner` lists a book for trade, `proposer` lists `count`
 * of theirs, contacts the owner and proposes them (by `delivery`), the owner accepts.
 */
export async function openTradeDeal(
  t: TestApp,
  owner: Member,
  proposer: Member,
  opts: { delivery?: 'post' | 'hand'; count?: number } = {},
): Promise<TradeDeal> {
  const req = requester(t);
  const book = (who: Member, title: string) =>
    createListing(t, who, { title, listingType: 'trade', price: undefined });
  const wanted = (await book(owner, `Il giorno della civetta ${++n}`)).id;
  const offered: string[] = [];
  for (let i = 0; i < (opts.count ?? 1); i++)
    offered.push((await book(proposer, `Todo modo ${n}.${i}`)).id);
  const contact = await req('POST', '/api/chats/contact', proposer, {
    listingId: wanted,
    content: 'Scambiamo per posta?',
  });
  expect(contact.statusCode, contact.body).toBe(201);
  const roomId = contact.json().roomId as string;
  const made = await req('POST', `/api/chats/rooms/${roomId}/trade-offers`, proposer, {
    listingId: wanted,
    offeredListingIds: offered,
    ...(opts.delivery ? { delivery: opts.delivery } : {}),
  });
  expect(made.statusCode, made.body).toBe(201);
  const offerId = made.json().message.offer.id as string;
  const accepted = await req('POST', `/api/chats/offers/${offerId}/accept`, owner);
  expect(accepted.statusCode, accepted.body).toBe(200);
  return { wanted, offered, roomId, offerId, dealId: accepted.json().message.offer.dealId };
}
