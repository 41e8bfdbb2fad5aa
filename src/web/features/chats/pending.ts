import { useSyncExternalStore } from 'react';

/** A message this tab sent that the server has not acknowledged yet (shown as "Sending…"). */
export interface PendingMessage {
  clientId: string;
  roomId: string;
  content: string;
}

/**
 * Pending messages live beside the query cache, not in it: the cached pages hold only stored
 * messages, whose ids the catch-up after a reconnect pages from.
 */
let pending: readonly PendingMessage[] = [];
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function addPending(message: PendingMessage): void {
  pending = [...pending, message];
  notify();
}

export function removePending(clientId: string): void {
  if (!pending.some((m) => m.clientId === clientId)) return;
  pending = pending.filter((m) => m.clientId !== clientId);
  notify();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** This tab's messages in the room still waiting for the server, oldest first. */
export function usePendingMessages(roomId: string): PendingMessage[] {
  const all = useSyncExternalStore(
    subscribe,
    () => pending,
    () => pending,
  );
  return all.filter((m) => m.roomId === roomId);
}
