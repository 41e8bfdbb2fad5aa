import type { ChatListing, Message, Room } from './types';

/**
 * The book a direct room is about now: the pair's one room may discuss several books over time
 * (issue 33), each contact leaving its card. The latest card held wins, as the server moves the
 * room to the book contacted last; without one (an older page), the room's own listing.
 */
export function currentListing(room: Room, messages: Message[]): ChatListing | null {
  if (room.isGroup) return room.listing ?? null;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    // The same book as the room's: the room's copy (its status is refreshed with the room).
    if (m.type === 'listing' && m.listing && !m.deleted)
      return m.listing.id === room.listing?.id ? room.listing : m.listing;
  }
  return room.listing ?? null;
}

/**
 * The seller of the listing a room is about. The card does not name them, but the contact's
 * card was posted by the buyer, so in a direct room the seller is the other member; an offer
 * already made names both. Unknown (null) means no offer control is shown.
 */
export function sellerOf(room: Room, messages: Message[]): string | null {
  const listing = currentListing(room, messages);
  if (!listing || room.isGroup) return null;
  const offer = messages.find((m) => m.offer?.listingId === listing.id)?.offer;
  if (offer) return offer.sellerId;
  const card = messages.find((m) => m.type === 'listing' && m.listing?.id === listing.id);
  if (!card?.senderId) return null;
  return room.participants.find((p) => p.id !== card.senderId)?.id ?? null;
}

/** The buyer's open offer on this listing, if any is held (one at a time). */
export const pendingOfferOf = (messages: Message[], listingId: string, buyerId: string) =>
  messages.find(
    (m) =>
      m.offer?.listingId === listingId &&
      m.offer.buyerId === buyerId &&
      m.offer.status === 'pending',
  )?.offer ?? null;

/**
 * The room's current book (currentListing) when this member may make an offer of this kind on it
 * now: a direct room about someone else's listing, for sale (`sale`) or for trade (`trade`),
 * available, and no open offer of theirs on it. Null: no offer control is shown (the server refuses the same cases).
 */
export function listingToOfferOn(
  room: Room,
  messages: Message[],
  meId: string,
  kind: 'sale' | 'trade',
): ChatListing | null {
  const listing = currentListing(room, messages);
  const seller = sellerOf(room, messages);
  if (!listing || !seller || seller === meId || listing.status !== 'available') return null;
  if (listing.listingType === (kind === 'sale' ? 'trade' : 'sell')) return null;
  return pendingOfferOf(messages, listing.id, meId) ? null : listing;
}
