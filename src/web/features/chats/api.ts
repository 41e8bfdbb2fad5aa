import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { MakeTradeOfferInput } from '@shared/schemas/chats';
import { CHAT_PAGE_SIZE, ROOMS_PAGE_SIZE } from '@shared/chatLimits';
import { api } from '../../lib/api';
import { listingKeys } from '../listings';
import { chatKeys, upsertMessages } from './cache';
import type { Message, MessagePage, Offer, Room, RoomPage } from './types';

export { useSendMessage } from './sender';

export {
  chatKeys,
  flattenPages,
  setListingStatus,
  upsertMessages,
  type MessagePages,
} from './cache';

const roomPath = (id: string) => `/api/chats/rooms/${encodeURIComponent(id)}`;

export function useRooms() {
  return useInfiniteQuery({
    queryKey: chatKeys.rooms,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api<RoomPage>(`/api/chats/rooms?page=${pageParam}&pageSize=${ROOMS_PAGE_SIZE}`, { signal }),
    getNextPageParam: (last) =>
      last.page * last.pageSize < last.total ? last.page + 1 : undefined,
  });
}

export function useRoom(id: string | null) {
  return useQuery({
    queryKey: chatKeys.room(id ?? ''),
    queryFn: ({ signal }) => api<Room>(roomPath(id!), { signal }),
    enabled: !!id,
    // 403 (not a participant, or no such room) will not change on a retry.
    retry: (count, err) => count < 1 && ![403, 404].includes((err as { status?: number }).status!),
  });
}

export function useUnreadTotal(enabled: boolean) {
  return useQuery({
    queryKey: chatKeys.unread,
    queryFn: ({ signal }) => api<{ total: number }>('/api/chats/unread', { signal }),
    enabled,
    staleTime: 60_000,
  });
}

export function useMessagePages(roomId: string) {
  return useInfiniteQuery({
    queryKey: chatKeys.messages(roomId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api<MessagePage>(
        `${roomPath(roomId)}/messages?limit=${CHAT_PAGE_SIZE}${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ''}`,
        { signal },
      ),
    getNextPageParam: (last) => (last.hasMore && last.items[0] ? last.items[0].id : undefined),
    // Live events keep the pages fresh; a refetch would drop older pages' scroll position.
    staleTime: Infinity,
  });
}

export const fetchMessagesAfter = (roomId: string, afterId: string) =>
  api<MessagePage>(`${roomPath(roomId)}/messages?after=${encodeURIComponent(afterId)}`);

export const fetchMessagesAround = (roomId: string, param: 'after' | 'before', id: string) =>
  api<MessagePage>(`${roomPath(roomId)}/messages?${param}=${encodeURIComponent(id)}&limit=1`);

export function invalidateRoomLists(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: chatKeys.rooms }),
    client.invalidateQueries({ queryKey: chatKeys.unread }),
  ]);
}

export function useEditMessage(roomId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, content }: { id: string; content: string }) =>
      api<{ message: Message }>(`${roomPath(roomId)}/messages/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: { content },
      }),
    onSuccess: ({ message }) => upsertMessages(client, roomId, [message]),
  });
}

export function useDeleteMessage(roomId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (message: Message) =>
      api<void>(`${roomPath(roomId)}/messages/${encodeURIComponent(message.id)}`, {
        method: 'DELETE',
      }),
    onSuccess: (_void, message) => {
      upsertMessages(client, roomId, [{ ...message, content: '', deleted: true }]);
      void client.invalidateQueries({ queryKey: chatKeys.rooms });
    },
  });
}

export const markRoomRead = (roomId: string) =>
  api<void>(`${roomPath(roomId)}/read`, { method: 'POST' });

export function useCreateDirect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api<{ room: Room }>('/api/chats/direct', { method: 'POST', body: { userId } }),
    onSuccess: ({ room }) => {
      client.setQueryData(chatKeys.room(room.id), room);
      void client.invalidateQueries({ queryKey: chatKeys.rooms });
    },
  });
}

export function useCreateGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; participantIds: string[] }) =>
      api<{ room: Room }>('/api/chats/rooms', { method: 'POST', body }),
    onSuccess: ({ room }) => {
      client.setQueryData(chatKeys.room(room.id), room);
      void client.invalidateQueries({ queryKey: chatKeys.rooms });
    },
  });
}

export function useLeaveRoom() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (roomId: string) =>
      api<void>(`${roomPath(roomId)}/participants/me`, { method: 'DELETE' }),
    onSuccess: (_void, roomId) => {
      client.removeQueries({ queryKey: chatKeys.room(roomId) });
      client.removeQueries({ queryKey: chatKeys.messages(roomId) });
      return invalidateRoomLists(client);
    },
  });
}

export const contactSeller = (listingId: string, content: string) =>
  api<{ roomId: string; message: Message }>('/api/chats/contact', {
    method: 'POST',
    body: { listingId, content },
  });

export function useMakeOffer(roomId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { listingId: string; amount: number; delivery?: 'post' | 'hand' }) =>
      api<{ message: Message }>(`${roomPath(roomId)}/offers`, { method: 'POST', body }),
    onSuccess: ({ message }) => upsertMessages(client, roomId, [message]),
  });
}

/** A trade offer (decision 0080): my books in exchange for the room's listing. */
export function useMakeTradeOffer(roomId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MakeTradeOfferInput) =>
      api<{ message: Message }>(`${roomPath(roomId)}/trade-offers`, { method: 'POST', body }),
    onSuccess: ({ message }) => upsertMessages(client, roomId, [message]),
  });
}

export type OfferAction = 'accept' | 'decline' | 'withdraw';

export function useOfferAction(roomId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ offer, action }: { offer: Offer; action: OfferAction }) =>
      api<{ message: Message }>(`/api/chats/offers/${encodeURIComponent(offer.id)}/${action}`, {
        method: 'POST',
      }),
    onSuccess: ({ message }) => {
      upsertMessages(client, roomId, [message]);
      // The listing's status changed (reserved, sold): every cached view of it is stale.
      void client.invalidateQueries({ queryKey: listingKeys.library });
      void client.invalidateQueries({ queryKey: chatKeys.room(roomId) });
    },
  });
}
