import { useMemo, useSyncExternalStore } from 'react';
import { SIGNED_OUT_EVENT } from '../../lib/session';
import { CHAT_MESSAGE_MAX } from './limits';

/**
 * A message this tab sent that the server has not stored yet: 'sending' (on its way), 'waiting'
 * (no connection: it goes when the connection is back) or 'failed' (the server refused it once it
 * was back; `error` says why, in the member's language).
 */
export interface PendingMessage {
  clientId: string;
  roomId: string;
  content: string;
  /** Whose message: another member signing in on this tab never sees it, nor sends it. */
  userId: string;
  state: 'sending' | 'waiting' | 'failed';
  error?: string;
}

/**
 * The tab's outbox, beside the query cache, not in it (the cached pages hold only stored messages,
 * whose ids the catch-up after a reconnect pages from), and in the tab's sessionStorage: a message
 * typed offline survives leaving the conversation, and a reload, until it is sent.
 */
const KEY = 'scaffale.chat.outbox';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
let pending: readonly PendingMessage[] | null = null;
const listeners = new Set<() => void>();

const valid = (m: Partial<PendingMessage> | null): m is PendingMessage =>
  !!m &&
  typeof m.clientId === 'string' &&
  UUID.test(m.clientId) &&
  typeof m.roomId === 'string' &&
  typeof m.userId === 'string' &&
  typeof m.content === 'string' &&
  m.content.length > 0 &&
  m.content.length <= CHAT_MESSAGE_MAX &&
  (m.state === 'sending' || m.state === 'waiting' || m.state === 'failed');

function read(): readonly PendingMessage[] {
  if (pending) return pending;
  let stored: unknown;
  try {
    stored = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
  } catch {
    stored = [];
  }
  pending = (Array.isArray(stored) ? (stored as Partial<PendingMessage>[]) : [])
    .filter(valid)
    // Whatever was on its way when the page went is sent again (the server stores it once).
    .map((m) => (m.state === 'sending' ? { ...m, state: 'waiting' as const } : m));
  return pending;
}

function write(next: readonly PendingMessage[]) {
  pending = next;
  try {
    if (next.length) sessionStorage.setItem(KEY, JSON.stringify(next));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage full or refused: the outbox lives as long as the page.
  }
  listeners.forEach((listener) => listener());
}

export function addPending(message: PendingMessage): void {
  write([...read(), message]);
}

export function updatePending(clientId: string, change: Partial<PendingMessage>): void {
  if (!read().some((m) => m.clientId === clientId)) return;
  write(read().map((m) => (m.clientId === clientId ? { ...m, ...change } : m)));
}

export function removePending(clientId: string): void {
  if (!read().some((m) => m.clientId === clientId)) return;
  write(read().filter((m) => m.clientId !== clientId));
}

/** A member's messages in the outbox, oldest first. */
export const pendingOf = (userId: string): PendingMessage[] =>
  read().filter((m) => m.userId === userId);

export const isPending = (clientId: string) => read().some((m) => m.clientId === clientId);

/**
 * Keeps only `userId`'s messages (another member signed in on this tab); null keeps none (signed
 * out): nothing typed by someone else stays behind in the tab.
 */
export function keepOnly(userId: string | null): void {
  if (read().some((m) => m.userId !== userId)) write(read().filter((m) => m.userId === userId));
}

// Signing out empties the tab's outbox: nothing typed by the member stays behind in it. (This
// module is loaded with the signed-in header: the chats entry's badge holds the outbox.)
if (typeof window !== 'undefined') window.addEventListener(SIGNED_OUT_EVENT, () => keepOnly(null));

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The member's messages in the room still waiting for the server, oldest first. */
export function usePendingMessages(roomId: string, userId: string): PendingMessage[] {
  const all = useSyncExternalStore(subscribe, read, read);
  return useMemo(
    () => all.filter((m) => m.roomId === roomId && m.userId === userId),
    [all, roomId, userId],
  );
}
