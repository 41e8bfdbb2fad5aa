import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Message, MessagePage } from './types';

export const chatKeys = {
  all: ['chats'] as const,
  rooms: ['chats', 'rooms'] as const,
  room: (id: string) => ['chats', 'room', id] as const,
  messages: (id: string) => ['chats', 'messages', id] as const,
  unread: ['chats', 'unread'] as const,
  friends: ['chats', 'friends'] as const,
};

/** Newest page first; each further page holds the 50 before the oldest message held. */
export type MessagePages = InfiniteData<MessagePage, unknown>;

/**
 * Puts messages into a room's cached pages: an id already held is replaced (edit, delete, offer
 * status), a new one joins the newest page. Order is restored when the pages are read. A room
 * whose first page is still on its way gets them once it is in (that answer may have been read
 * before they were stored: a message sent, or told live, while the room opened); a room never
 * loaded is left alone.
 */
export function upsertMessages(client: QueryClient, roomId: string, messages: Message[]): void {
  if (!messages.length) return;
  const key = chatKeys.messages(roomId);
  if (client.getQueryData(key) === undefined) {
    const loading = client.getQueryCache().find({ queryKey: key, exact: true })?.promise;
    void loading?.then(
      () => upsertMessages(client, roomId, messages),
      () => undefined,
    );
    return;
  }
  client.setQueryData<MessagePages>(key, (data) => {
    if (!data) return data;
    const byId = new Map(messages.map((m) => [m.id, m]));
    const pages = data.pages.map((page) => ({
      ...page,
      items: page.items.map((m) => {
        const fresh = byId.get(m.id);
        if (!fresh) return m;
        byId.delete(m.id);
        return fresh;
      }),
    }));
    if (byId.size && pages[0])
      pages[0] = { ...pages[0], items: [...pages[0].items, ...byId.values()] };
    return { ...data, pages };
  });
}

/** Every message held for a room, once each, oldest first (ties broken by id). */
export function flattenPages(data: MessagePages | undefined): Message[] {
  if (!data) return [];
  const byId = new Map<string, Message>();
  for (const page of data.pages) for (const m of page.items) byId.set(m.id, m);
  return [...byId.values()].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
}

/**
 * A listing's status changed (chat.listing): every held card of it takes the new status at once.
 * Returns the rooms holding one, which refetch when the listing is gone (its card goes with it).
 */
export function setListingStatus(
  client: QueryClient,
  listingId: string,
  status: NonNullable<Message['listing']>['status'] | null,
): string[] {
  const rooms: string[] = [];
  for (const [key, data] of client.getQueriesData<MessagePages>({ queryKey: chatKeys.all })) {
    if (key[1] !== 'messages' || !data) continue;
    let found = false;
    const pages = data.pages.map((page) => ({
      ...page,
      items: page.items.map((m) => {
        if (m.listing?.id !== listingId) return m;
        found = true;
        return status ? { ...m, listing: { ...m.listing, status } } : m;
      }),
    }));
    if (!found) continue;
    rooms.push(String(key[2]));
    if (status) client.setQueryData<MessagePages>(key, { ...data, pages });
  }
  return rooms;
}
