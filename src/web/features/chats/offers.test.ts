import { describe, expect, it } from 'vitest';
import { currentListing, listingToOfferOn } from './offers';
import type { ChatListing, ChatUser, Message, Offer, Room } from './types';

// Issue 33 item 2: the pair's one direct room may be about several books over time. A buyer who
// bought Giulia's first book contacts her about another: the offer controls follow that book.

const user = (id: string): ChatUser => ({
  id,
  displayName: id,
  username: null,
  avatarUrl: null,
  online: false,
  lastSeenAt: null,
});

const book = (id: string, extra: Partial<ChatListing> = {}): ChatListing => ({
  id,
  title: id,
  author: 'Italo Calvino',
  price: 10,
  currency: 'EUR',
  coverUrl: null,
  listingType: 'sell',
  status: 'available',
  ...extra,
});

const message = (id: string, minute: number, extra: Partial<Message>): Message => ({
  id,
  roomId: 'r1',
  senderId: 'bruno',
  sender: null,
  content: '',
  type: 'text',
  createdAt: `2026-03-10T10:${String(minute).padStart(2, '0')}:00.000Z`,
  editedAt: null,
  deleted: false,
  ...extra,
});

const room = (listing: ChatListing | null, extra: Partial<Room> = {}): Room => ({
  id: 'r1',
  name: null,
  description: null,
  isGroup: false,
  createdBy: 'bruno',
  updatedAt: '2026-03-10T12:00:00.000Z',
  participants: [user('giulia'), user('bruno')],
  lastMessage: null,
  unreadCount: 0,
  listing,
  ...extra,
});

const sold = book('first', { status: 'sold' });
const second = book('second');
const acceptedOffer: Offer = {
  id: 'o1',
  listingId: 'first',
  buyerId: 'bruno',
  sellerId: 'giulia',
  kind: 'sale',
  amount: 8,
  currency: 'EUR',
  status: 'accepted',
  createdAt: '2026-03-10T10:01:00.000Z',
  answeredAt: '2026-03-10T10:02:00.000Z',
  shippingAmount: null,
  dealId: 'd1',
};
/** The first deal's messages, then Bruno's contact about the second book. */
const history = [
  message('c1', 0, { type: 'listing', listing: sold }),
  message('o1', 1, { type: 'offer', offer: acceptedOffer, listing: sold }),
  message('c2', 5, { type: 'listing', listing: second }),
  message('t2', 5, { content: 'E questo?' }),
];

describe('a second book in the same conversation', () => {
  it('offers on the book contacted about last, even while the room still names the sold one', () => {
    // The room as held before the live refresh: still about the first, sold, book.
    expect(listingToOfferOn(room(sold), history, 'bruno', 'sale')).toEqual(second);
    expect(listingToOfferOn(room(second), history, 'bruno', 'sale')).toEqual(second);
    expect(currentListing(room(sold), history)).toEqual(second);
    // Never to the seller, and not for trade on a book for sale only.
    expect(listingToOfferOn(room(second), history, 'giulia', 'sale')).toBeNull();
    expect(listingToOfferOn(room(second), history, 'bruno', 'trade')).toBeNull();
  });

  it('shows no control while an offer on it is open, nor on the sold book alone', () => {
    const pending = message('o2', 6, {
      type: 'offer',
      listing: second,
      offer: { ...acceptedOffer, id: 'o2', listingId: 'second', status: 'pending', dealId: null },
    });
    expect(listingToOfferOn(room(second), [...history, pending], 'bruno', 'sale')).toBeNull();
    expect(listingToOfferOn(room(sold), history.slice(0, 2), 'bruno', 'sale')).toBeNull();
  });

  it('falls back on the room’s listing when no card is held (an older page)', () => {
    expect(currentListing(room(second), [])).toEqual(second);
    expect(currentListing(room(null), [])).toBeNull();
  });
});
