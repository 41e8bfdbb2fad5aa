// Test support for the chats tests (not a test file itself).
import { expect } from 'vitest';
import type { ClientFrame, Realtime, RealtimeEvent, WireEvent } from '../../platform/realtime';
import type { TestApp } from '../../test/helpers';
import type { Member } from '../../test/members';

/**
 * A Realtime that records what the chats module publishes, and lets a test play the service's
 * side: online members, client frames and presence changes. A double of our own interface: the
 * real socket delivery is tested in platform/realtime.
 */
export function createRecordingRealtime() {
  // Recorded as they travel, so that tests read any field.
  const toUsers: Array<{ userIds: string[]; event: WireEvent }> = [];
  const toTopic: Array<{
    topic: string;
    event: WireEvent;
    options?: { exceptUserIds?: readonly string[] };
  }> = [];
  const leftTopics: Array<{ userIds: string[]; topic: string }> = [];
  const topics = new Map<string, (userId: string, id: string) => Promise<boolean>>();
  const frames = new Map<string, (frame: ClientFrame) => void | Promise<void>>();
  const presence: Array<(userId: string, online: boolean) => void | Promise<void>> = [];
  const online = new Set<string>();
  const realtime: Realtime & { leaveTopic: NonNullable<Realtime['leaveTopic']> } = {
    async toUsers(userIds, event) {
      // The notification centre's own pushes are tested in offer-notifications.test.ts.
      if (event.type.startsWith('notification.')) return;
      toUsers.push({ userIds: [...userIds].sort(), event });
    },
    async toTopic(topic, event, options?: { exceptUserIds?: readonly string[] }) {
      toTopic.push({ topic, event, ...(options ? { options } : {}) });
    },
    async leaveTopic(userIds, topic) {
      leftTopics.push({ userIds: [...userIds], topic });
    },
    topic(kind, authorize) {
      topics.set(kind, authorize);
    },
    onFrame(type, handler) {
      frames.set(type, handler);
    },
    async isOnline(userId) {
      return online.has(userId);
    },
    async onlineAmong(userIds) {
      return new Set(userIds.filter((id) => online.has(id)));
    },
    onPresence(handler) {
      presence.push(handler);
    },
    async close() {},
  };
  return {
    realtime,
    toUsers,
    toTopic,
    leftTopics,
    topics,
    online,
    /** A client frame as the service hands it over; answers what was replied on the socket. */
    async frame(userId: string, data: Record<string, unknown>) {
      const replies: RealtimeEvent[] = [];
      await frames.get(String(data.type))?.({
        userId,
        socketId: `socket-${userId}`,
        data,
        reply: (event) => replies.push(event),
      });
      return replies;
    },
    async presenceChanged(userId: string, isOnline: boolean) {
      for (const handler of presence) await handler(userId, isOnline);
    },
    clear() {
      toUsers.length = 0;
      toTopic.length = 0;
      leftTopics.length = 0;
    },
  };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export function requester(t: TestApp) {
  return (method: Method, url: string, who?: Member, payload?: unknown, lang = 'en') =>
    t.inject({
      method,
      url,
      headers: { 'accept-language': lang, ...(who ? { cookie: who.cookie } : {}) },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

export const saleListing = {
  mode: 'full',
  title: 'Il barone rampante',
  author: 'Italo Calvino',
  genre: 'fiction',
  condition: 'good',
  listingType: 'sell',
  price: 20,
  currency: 'EUR',
  description: 'Edizione Einaudi, come nuovo.',
};

export async function createListing(t: TestApp, who: Member, overrides: object = {}) {
  const res = await requester(t)('POST', '/api/listings', who, { ...saleListing, ...overrides });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; title: string };
}

/** Polls until `check` passes (background work such as e-mails after a commit). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() - start > timeoutMs) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export { befriend } from '../../test/members';

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
 * Sends one request in English and in Italian: both are refused with `status`, each with its
 * language's message.
 */
export async function expectRefusal(
  t: TestApp,
  [method, url, who, payload]: [Method, string, Member | undefined, unknown],
  expected: { status: number; en: string; it: string },
) {
  for (const lang of ['en', 'it'] as const) {
    const res = await requester(t)(method, url, who, payload, lang);
    expect(res.statusCode, res.body).toBe(expected.status);
    expect(res.json().error.message).toBe(expected[lang]);
  }
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
