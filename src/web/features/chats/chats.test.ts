import { QueryClient } from '@tanstack/react-query';
import type { TFunction } from '@web/lib/translator';
import { describe, expect, it } from 'vitest';
import { chatKeys, flattenPages, upsertMessages, type MessagePages } from './cache';
import { formatRelative, memberName, presenceText, roomName, withDeletedMember } from './format';
import { listingToOfferOn, pendingOfferOf, sellerOf } from './offers';
import type { ChatListing, ChatUser, Message, Room } from './types';

// Echoes the key and its values, so assertions read which text was chosen.
const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as unknown as TFunction;

const user = (id: string, displayName = id): ChatUser => ({
  id,
  displayName,
  username: null,
  avatarUrl: null,
  online: false,
  lastSeenAt: null,
});

const message = (id: string, createdAt: string, extra: Partial<Message> = {}): Message => ({
  id,
  roomId: 'r1',
  senderId: 'ann',
  sender: null,
  content: id,
  type: 'text',
  createdAt,
  editedAt: null,
  deleted: false,
  ...extra,
});

const room = (extra: Partial<Room> = {}): Room => ({
  id: '0a1b2c3d-4e5f-4000-8000-000000000000',
  name: null,
  description: null,
  isGroup: false,
  createdBy: 'ann',
  updatedAt: '2026-03-10T12:00:00.000Z',
  participants: [user('ann', 'Ann'), user('bob', 'Bob')],
  lastMessage: null,
  unreadCount: 0,
  ...extra,
});

describe('room names', () => {
  it('names a direct room after the other member', () => {
    expect(roomName(room(), 'ann', t)).toBe('Bob');
    expect(roomName(room(), 'bob', t)).toBe('Ann');
  });
  it("falls back to 'User {first 8 characters}...' when there is no name", () => {
    const alone = room({ participants: [user('ann', 'Ann')] });
    expect(roomName(alone, 'ann', t)).toBe('chats.unnamed {"id":"0a1b2c3d"}');
    expect(roomName(room({ isGroup: true, name: '  ' }), 'ann', t)).toBe(
      'chats.unnamed {"id":"0a1b2c3d"}',
    );
    expect(roomName(room({ isGroup: true, name: 'Book club' }), 'ann', t)).toBe('Book club');
  });
  it('names a member who deleted their account "Deleted member"; nobody writes to them', () => {
    const gone = { ...user('bob', ''), deleted: true };
    const direct = room({ participants: [user('ann', 'Ann'), gone] });
    expect(roomName(direct, 'ann', t)).toBe('members.deleted');
    expect(memberName(gone, t)).toBe('members.deleted');
    expect(memberName(user('ann', 'Ann'), t)).toBe('Ann');
    expect(withDeletedMember(direct, 'ann')).toBe(true);
    expect(withDeletedMember(room(), 'ann')).toBe(false);
    const group = room({ isGroup: true, name: 'Book club', participants: direct.participants });
    expect(roomName(group, 'ann', t)).toBe('Book club');
    expect(withDeletedMember(group, 'ann')).toBe(false);
  });
});

describe('relative time and presence', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it('words minutes, hours and days in the language, then a date', () => {
    expect(formatRelative('2026-03-10T11:59:30Z', t, 'en', now)).toBe('chats.time.now');
    expect(formatRelative('2026-03-10T11:55:00Z', t, 'en', now)).toBe('5 minutes ago');
    expect(formatRelative('2026-03-10T09:00:00Z', t, 'it', now)).toBe('3 ore fa');
    expect(formatRelative('2026-03-08T12:00:00Z', t, 'en', now)).toBe('2 days ago');
    expect(formatRelative('2026-03-01T12:00:00Z', t, 'it', now)).toBe('01/03/2026');
  });
  it('says online, last seen a while ago, or offline', () => {
    expect(presenceText({ online: true, lastSeenAt: null }, t, 'en', now)).toBe(
      'chats.presence.online',
    );
    expect(presenceText({ online: false, lastSeenAt: '2026-03-10T11:55:00Z' }, t, 'en', now)).toBe(
      'chats.presence.lastSeen {"when":"5 minutes ago"}',
    );
    expect(presenceText({ online: false, lastSeenAt: null }, t, 'en', now)).toBe(
      'chats.presence.offline',
    );
  });
});

describe('message pages', () => {
  const seed = (client: QueryClient, pages: Message[][]) =>
    client.setQueryData<MessagePages>(chatKeys.messages('r1'), {
      pages: pages.map((items) => ({ items, hasMore: false })),
      pageParams: pages.map((_, i) => (i ? `p${i}` : null)),
    });
  const held = (client: QueryClient) =>
    flattenPages(client.getQueryData<MessagePages>(chatKeys.messages('r1'))).map((m) => m.id);

  it('reads pages oldest first, each message once', () => {
    const client = new QueryClient();
    seed(client, [
      [message('c', '2026-03-10T10:02:00Z'), message('d', '2026-03-10T10:03:00Z')],
      [message('a', '2026-03-10T10:00:00Z'), message('b', '2026-03-10T10:01:00Z')],
    ]);
    expect(held(client)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('ignores a live duplicate, replaces an edit in place and orders by creation time', () => {
    const client = new QueryClient();
    seed(client, [[message('a', '2026-03-10T10:00:00Z'), message('c', '2026-03-10T10:02:00Z')]]);
    upsertMessages(client, 'r1', [
      message('c', '2026-03-10T10:02:00Z'),
      message('b', '2026-03-10T10:01:00Z'),
    ]);
    upsertMessages(client, 'r1', [message('c', '2026-03-10T10:02:00Z')]);
    upsertMessages(client, 'r1', [message('a', '2026-03-10T10:00:00Z', { content: 'edited' })]);
    expect(held(client)).toEqual(['a', 'b', 'c']);
    const pages = client.getQueryData<MessagePages>(chatKeys.messages('r1'))!;
    expect(pages.pages[0].items).toHaveLength(3);
    expect(flattenPages(pages)[0].content).toBe('edited');
  });

  it('puts a message told while the first page was on its way into the page that came', async () => {
    const client = new QueryClient();
    let answer!: (page: { items: Message[]; hasMore: boolean }) => void;
    const loading = client.fetchInfiniteQuery({
      queryKey: chatKeys.messages('r1'),
      initialPageParam: null as string | null,
      // Read before 'b' was stored: the answer holds 'a' only.
      queryFn: () => new Promise<{ items: Message[]; hasMore: boolean }>((r) => (answer = r)),
    });
    upsertMessages(client, 'r1', [message('b', '2026-03-10T10:01:00Z')]);
    answer({ items: [message('a', '2026-03-10T10:00:00Z')], hasMore: false });
    await loading;
    await Promise.resolve();
    expect(held(client)).toEqual(['a', 'b']);
  });

  it('leaves a room that was never loaded alone', () => {
    const client = new QueryClient();
    upsertMessages(client, 'r1', [message('a', '2026-03-10T10:00:00Z')]);
    expect(client.getQueryData(chatKeys.messages('r1'))).toBeUndefined();
  });
});

describe('offers', () => {
  const listing = {
    id: 'l1',
    title: 'T',
    author: 'A',
    price: 10,
    currency: 'EUR',
    coverUrl: null,
    listingType: 'sell' as const,
    status: 'available' as const,
  };
  const card = message('m1', '2026-03-10T10:00:00Z', { type: 'listing', senderId: 'bob', listing });

  it('knows the seller as the member who did not post the listing card', () => {
    expect(sellerOf(room({ listing }), [card])).toBe('ann');
    expect(sellerOf(room({ listing }), [])).toBeNull();
    // The card alone tells the book (the room follows the latest one, issue 33); not in a group.
    expect(sellerOf(room(), [card])).toBe('ann');
    expect(sellerOf(room({ isGroup: true }), [card])).toBeNull();
  });

  it("finds the buyer's pending offer", () => {
    const offer = {
      id: 'o1',
      listingId: 'l1',
      buyerId: 'bob',
      sellerId: 'ann',
      kind: 'sale' as const,
      amount: 8,
      currency: 'EUR' as const,
      status: 'pending' as const,
      createdAt: '2026-03-10T10:00:00Z',
      answeredAt: null,
      shippingAmount: null,
      dealId: null,
    };
    const made = message('m2', '2026-03-10T10:01:00Z', { type: 'offer', offer });
    expect(pendingOfferOf([card, made], 'l1', 'bob')).toEqual(offer);
    expect(sellerOf(room({ listing }), [made])).toBe('ann');
    const declined = { ...made, offer: { ...offer, status: 'declined' as const } };
    expect(pendingOfferOf([declined], 'l1', 'bob')).toBeNull();
    // Offer controls: the buyer only, the kinds the listing is listed for, none while one is open.
    const r = (l: ChatListing) => room({ listing: l });
    expect(listingToOfferOn(r(listing), [card], 'bob', 'sale')).toEqual(listing);
    expect(listingToOfferOn(r(listing), [card], 'bob', 'trade')).toBeNull();
    expect(listingToOfferOn(r(listing), [card], 'ann', 'sale')).toBeNull();
    expect(listingToOfferOn(r(listing), [card, made], 'bob', 'sale')).toBeNull();
    expect(listingToOfferOn(r(listing), [card, declined], 'bob', 'sale')).toEqual(listing);
    const both = { ...listing, listingType: 'both' as const };
    expect(listingToOfferOn(r(both), [card], 'bob', 'trade')).toEqual(both);
    const trade = { ...listing, listingType: 'trade' as const };
    expect(listingToOfferOn(r(trade), [card], 'bob', 'sale')).toBeNull();
    const reserved = { ...both, status: 'reserved' as const };
    expect(listingToOfferOn(r(reserved), [card], 'bob', 'trade')).toBeNull();
  });
});
