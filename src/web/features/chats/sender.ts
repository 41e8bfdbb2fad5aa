import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, ApiError } from '../../lib/api';
import { RealtimeUnavailable, sendChatFrame, useRealtimeReconnect } from '../../lib/realtime';
import { useSession } from '../../lib/session';
import { chatKeys, upsertMessages } from './cache';
import {
  addPending,
  isPending,
  keepOnly,
  pendingOf,
  removePending,
  updatePending,
} from './pending';
import type { Message } from './types';

/**
 * Sending a message (issue 23, issue 33 item 6). Every message goes through the tab's outbox
 * (pending.ts), oldest first, with a client-made id: over the tab's socket (chat.send), or by HTTP
 * with the same id when the socket is closed or does not answer within 5 s. The server stores an
 * id once (chat_client_ids, migration 0033), so a late ack, the POST and a send again after a
 * reload make one message. Without a connection (the browser offline, the request failing, the
 * server down) the message stays in the outbox as waiting, on screen, and goes when the connection
 * is back: the 'online' event, the socket reconnecting, a page of the app opening. A refusal
 * (4xx, chat.nack) is the member's to see: the composer gets the text back with the reason, or a
 * message sent later from the outbox shows "Not sent" with it.
 */
const waiters = new Map<
  string,
  { resolve: (message: Message | null) => void; reject: (err: unknown) => void }
>();
let running: Promise<void> | null = null;
let again = false;

const roomPath = (id: string) => `/api/chats/rooms/${encodeURIComponent(id)}`;

/** No connection, or a server that cannot answer now: try again later. */
const unreachable = (err: unknown) =>
  err instanceof ApiError && (err.status === 0 || err.status >= 500);

const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

function settle(
  clientId: string,
  outcome: (w: NonNullable<ReturnType<typeof waiters.get>>) => void,
) {
  const waiter = waiters.get(clientId);
  if (!waiter) return;
  waiters.delete(clientId);
  outcome(waiter);
}

async function sendOnce(roomId: string, content: string, clientId: string): Promise<Message> {
  let answer;
  try {
    answer = await sendChatFrame({ clientId, roomId, content });
  } catch (err) {
    if (!(err instanceof RealtimeUnavailable)) throw err;
    const { message } = await api<{ message: Message }>(`${roomPath(roomId)}/messages`, {
      method: 'POST',
      body: { content, clientId },
    });
    return message;
  }
  if (answer.type === 'chat.nack') throw new ApiError(answer.status, answer.code, answer.message);
  return answer.message;
}

/** Everything not sent now waits for the connection; whoever waits for one hears 'queued'. */
function holdTheRest(userId: string) {
  for (const m of pendingOf(userId)) {
    if (m.state !== 'sending') continue;
    updatePending(m.clientId, { state: 'waiting' });
    settle(m.clientId, (w) => w.resolve(null));
  }
}

/** One pass over the outbox, oldest first; false when the connection is missing. */
async function flushOnce(client: QueryClient, userId: string): Promise<boolean> {
  for (const entry of pendingOf(userId)) {
    if (entry.state === 'failed' || !isPending(entry.clientId)) continue;
    if (offline()) return false;
    updatePending(entry.clientId, { state: 'sending' });
    try {
      const message = await sendOnce(entry.roomId, entry.content, entry.clientId);
      // In the cache before the pending copy goes (same render): it never flickers away.
      upsertMessages(client, entry.roomId, [message]);
      removePending(entry.clientId);
      settle(entry.clientId, (w) => w.resolve(message));
      void client.invalidateQueries({ queryKey: chatKeys.rooms });
    } catch (err) {
      if (unreachable(err)) return false;
      if (waiters.has(entry.clientId)) {
        // The composer is waiting: it puts the text back with the reason.
        removePending(entry.clientId);
        settle(entry.clientId, (w) => w.reject(err));
      } else {
        const error = err instanceof Error ? err.message : String(err);
        updatePending(entry.clientId, { state: 'failed', error });
      }
    }
  }
  return true;
}

/** Sends what the member's outbox holds, in order; one pass at a time per tab. */
export function flushOutbox(client: QueryClient, userId: string): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      if (!(await flushOnce(client, userId))) {
        holdTheRest(userId);
        return;
      }
    } while (again);
  })()
    .catch(() => holdTheRest(userId))
    .finally(() => {
      running = null;
    });
  return running;
}

/**
 * Sends a message: resolves with the stored message, or null when it waits in the outbox for the
 * connection; rejects with the server's refusal (the message is then out of the outbox).
 */
export function sendMessage(
  client: QueryClient,
  roomId: string,
  content: string,
  userId: string,
): Promise<Message | null> {
  const clientId = crypto.randomUUID();
  addPending({ clientId, roomId, content, userId, state: 'sending' });
  const result = new Promise<Message | null>((resolve, reject) =>
    waiters.set(clientId, { resolve, reject }),
  );
  void flushOutbox(client, userId);
  return result;
}

export function useSendMessage(roomId: string, userId: string) {
  const client = useQueryClient();
  return useMutation({
    // Offline too: the outbox keeps it on screen (a paused mutation showed a spinner alone, and
    // lost the message when the member left the page).
    networkMode: 'always',
    mutationFn: async (content: string) => ({
      message: await sendMessage(client, roomId, content, userId),
    }),
  });
}

/**
 * The tab's outbox while the app runs (the shell's chats entry holds it on every page): a
 * signed-in member's waiting messages go on start, when the browser is back online and when the
 * socket reconnects. Another member signing in on the tab never sees the previous one's (signing
 * out empties it: pending.ts).
 */
export function useChatOutbox(): void {
  const client = useQueryClient();
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : null;

  useEffect(() => {
    if (!userId) return;
    keepOnly(userId);
    const flush = () => void flushOutbox(client, userId);
    flush();
    window.addEventListener('online', flush);
    return () => window.removeEventListener('online', flush);
  }, [client, userId]);

  useRealtimeReconnect(() => {
    if (userId) void flushOutbox(client, userId);
  });
}
