import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useRealtimeEvent, useRealtimeReconnect, type RealtimeEvent } from '../../lib/realtime';
import {
  chatKeys,
  fetchMessagesAfter,
  fetchMessagesAround,
  flattenPages,
  invalidateRoomLists,
  markRoomRead,
  setListingStatus,
  upsertMessages,
  type MessagePages,
} from './api';
import type { Message } from './types';
import { dealKeys } from '../deals';

const CATCH_UP_ROUNDS = 5;

/**
 * Keeps the chats page live: messages into the open room's pages (duplicates by id fall away),
 * edits and offer changes refetched, the room list and unread counts refreshed, the open room
 * marked read when someone else writes, and after a reconnect whatever was missed.
 */
export function useChatEvents(meId: string, openRoomId: string | null) {
  const client = useQueryClient();
  const openRef = useRef(openRoomId);
  openRef.current = openRoomId;

  const held = useCallback(
    (roomId: string) => flattenPages(client.getQueryData<MessagePages>(chatKeys.messages(roomId))),
    [client],
  );

  /** Fetches every message after the newest one held (the server answers up to 200 a time). */
  const catchUp = useCallback(
    async (roomId: string) => {
      for (let round = 0; round < CATCH_UP_ROUNDS; round += 1) {
        const last = held(roomId).at(-1);
        if (!last) return client.invalidateQueries({ queryKey: chatKeys.messages(roomId) });
        const page = await fetchMessagesAfter(roomId, last.id);
        upsertMessages(client, roomId, page.items);
        if (!page.hasMore || !page.items.length) return;
      }
    },
    [client, held],
  );

  const readIfOpen = useCallback(
    async (roomId: string, message: Message | undefined) => {
      if (roomId !== openRef.current || message?.senderId === meId) return;
      await markRoomRead(roomId).catch(() => undefined);
      await invalidateRoomLists(client);
    },
    [client, meId],
  );

  useRealtimeEvent(
    'chat.message',
    useCallback(
      ({ roomId, message }: RealtimeEvent<'chat.message'>) => {
        // A deal's step: its card shows the new state.
        if (message?.deal)
          void client.invalidateQueries({ queryKey: dealKeys.one(message.deal.id) });
        // A room still loading gets the message once its first page is in (upsertMessages).
        if (message) upsertMessages(client, roomId, [message]);
        else if (client.getQueryData(chatKeys.messages(roomId)))
          void catchUp(roomId).catch(() => undefined);
        void invalidateRoomLists(client);
        void readIfOpen(roomId, message);
      },
      [client, catchUp, readIfOpen],
    ),
  );

  useRealtimeEvent(
    'chat.message.updated',
    useCallback(
      ({ roomId, messageId }: RealtimeEvent<'chat.message.updated'>) => {
        void client.invalidateQueries({ queryKey: chatKeys.rooms });
        void client.invalidateQueries({ queryKey: chatKeys.room(roomId) });
        const list = held(roomId);
        const at = list.findIndex((m) => m.id === messageId);
        if (at < 0) return;
        // No route reads one message: ask for the one right after its neighbour.
        const request =
          at > 0
            ? fetchMessagesAround(roomId, 'after', list[at - 1].id)
            : list[at + 1]
              ? fetchMessagesAround(roomId, 'before', list[at + 1].id)
              : null;
        if (!request) return void client.invalidateQueries({ queryKey: chatKeys.messages(roomId) });
        request.then(
          (page) => upsertMessages(client, roomId, page.items),
          () => undefined,
        );
      },
      [client, held],
    ),
  );

  const refreshLists = useCallback(
    ({ roomId }: RealtimeEvent<'chat.room' | 'chat.read'>) => {
      void client.invalidateQueries({ queryKey: chatKeys.room(roomId) });
      void invalidateRoomLists(client);
    },
    [client],
  );
  useRealtimeEvent('chat.room', refreshLists);
  // A listing was sold, reserved, made available again or removed: its cards follow at once.
  useRealtimeEvent(
    'chat.listing',
    useCallback(
      ({ listingId, status }: RealtimeEvent<'chat.listing'>) => {
        const rooms = setListingStatus(client, listingId, status);
        if (!status)
          for (const roomId of rooms)
            void client.invalidateQueries({ queryKey: chatKeys.messages(roomId) });
        void client.invalidateQueries({ queryKey: ['chats', 'room'] });
        void invalidateRoomLists(client);
      },
      [client],
    ),
  );
  useRealtimeEvent('chat.read', refreshLists);

  useRealtimeReconnect(
    useCallback(() => {
      void invalidateRoomLists(client);
      const open = openRef.current;
      // Rooms not on screen may have missed messages: drop them, they reload when opened.
      client.removeQueries({
        queryKey: ['chats', 'messages'],
        predicate: (query) => query.queryKey[2] !== open,
      });
      if (open) {
        void client.invalidateQueries({ queryKey: chatKeys.room(open) });
        void catchUp(open)
          .then(() => readIfOpen(open, undefined))
          .catch(() => undefined);
      }
    }, [client, catchUp, readIfOpen]),
  );
}
