import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  Connection,
  ConnectionRequests,
  ConnectionStatus,
  FriendPage,
  FriendSearchPage,
} from '@shared/connections';
import { FRIEND_SEARCH_MIN_QUERY } from '@shared/connections';
import { api } from '../../lib/api';
import { useRealtimeEvent, useRealtimeReconnect } from '../../lib/realtime';

export const connectionKeys = {
  all: ['connections'] as const,
  friends: (page: number) => ['connections', 'friends', page] as const,
  requests: (incomingPage: number, outgoingPage: number) =>
    ['connections', 'requests', incomingPage, outgoingPage] as const,
  search: (q: string, page: number) => ['connections', 'search', q, page] as const,
  status: (userId: string) => ['connections', 'status', userId] as const,
};

export function useFriends(page: number) {
  return useQuery({
    queryKey: connectionKeys.friends(page),
    queryFn: ({ signal }) => api<FriendPage>(`/api/connections?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useConnectionRequests(incomingPage: number, outgoingPage: number) {
  return useQuery({
    queryKey: connectionKeys.requests(incomingPage, outgoingPage),
    queryFn: ({ signal }) =>
      api<ConnectionRequests>(
        `/api/connections/requests?${new URLSearchParams({
          incomingPage: String(incomingPage),
          outgoingPage: String(outgoingPage),
        })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useFriendSearch(q: string, page: number) {
  const query = q.trim();
  return useQuery({
    queryKey: connectionKeys.search(query, page),
    queryFn: ({ signal }) =>
      api<FriendSearchPage>(
        `/api/connections/search?${new URLSearchParams({ q: query, page: String(page) })}`,
        { signal },
      ),
    enabled: query.length >= FRIEND_SEARCH_MIN_QUERY,
    placeholderData: keepPreviousData,
  });
}

export function useConnectionStatus(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: connectionKeys.status(userId),
    queryFn: ({ signal }) =>
      api<ConnectionStatus>(`/api/connections/status/${encodeURIComponent(userId)}`, { signal }),
    enabled,
  });
}

/** Every connection view refetches after a change made here, in another tab, or by the other member. */
export function useRefreshConnections() {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: connectionKeys.all }),
    [queryClient],
  );
}

/**
 * Refetches connection views when the server announces a change to one of mine, and after a
 * reconnect (events sent while the socket was down are not replayed).
 */
export function useConnectionsLive() {
  const refresh = useRefreshConnections();
  useRealtimeEvent('connection.changed', refresh);
  useRealtimeReconnect(refresh);
}

export type ConnectionAction = 'send' | 'accept' | 'decline' | 'cancel' | 'remove';

/** One action on one connection; each button keeps its own pending state and error. */
export function useConnectionAction(action: ConnectionAction) {
  const refresh = useRefreshConnections();
  return useMutation({
    mutationFn: (target: {
      userId?: string;
      connectionId?: string | null;
    }): Promise<Connection | void> => {
      const id = encodeURIComponent(target.connectionId ?? '');
      switch (action) {
        case 'send':
          return api<Connection>('/api/connections', {
            method: 'POST',
            body: { userId: target.userId },
          });
        case 'accept':
          return api<Connection>(`/api/connections/${id}/accept`, { method: 'POST' });
        case 'decline':
          return api<void>(`/api/connections/${id}/decline`, { method: 'POST' });
        default:
          return api<void>(`/api/connections/${id}`, { method: 'DELETE' });
      }
    },
    // A failure may mean the other member changed it first: show what is true now, too.
    onSettled: () => refresh(),
  });
}

/** The one direct room with a member (get-or-create), from the chats API. */
export function useStartChat() {
  return useMutation({
    mutationFn: (userId: string) =>
      api<{ room: { id: string } }>('/api/chats/direct', { method: 'POST', body: { userId } }),
  });
}
