import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  NOTIFICATION_NEW_EVENT,
  NOTIFICATION_READ_EVENT,
  type NotificationSettingsPatch,
  type NotificationSettingsView,
  type NotificationsPageView,
} from '@shared/notifications';
import { api } from '../../lib/api';
import { useRealtimeEvent, useRealtimeReconnect, type RealtimeEvent } from '../../lib/realtime';

export const notificationKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
  list: (pageSize: number) => ['notifications', 'list', pageSize] as const,
  settings: ['notifications', 'settings'] as const,
};

export function useUnreadNotifications(enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: ({ signal }) => api<{ unread: number }>('/api/notifications/unread-count', { signal }),
    enabled,
    staleTime: 60_000,
  });
}

export function useNotificationPages(pageSize: number, enabled = true) {
  return useInfiniteQuery({
    queryKey: notificationKeys.list(pageSize),
    queryFn: ({ signal, pageParam }) =>
      api<NotificationsPageView>(
        `/api/notifications?${new URLSearchParams({
          limit: String(pageSize),
          ...(pageParam ? { cursor: pageParam } : {}),
        })}`,
        { signal },
      ),
    initialPageParam: '' as string,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

/**
 * Keeps the bell and the lists live: a pushed event carries the unread count (set at once) and
 * the lists refetch; after a reconnect everything refetches (missed events are not replayed).
 */
export function useLiveNotifications() {
  const client = useQueryClient();
  const onEvent = useCallback(
    ({ unread }: RealtimeEvent<'notification.new' | 'notification.read'>) => {
      client.setQueryData(notificationKeys.unread, { unread });
      void client.invalidateQueries({ queryKey: ['notifications', 'list'] });
    },
    [client],
  );
  useRealtimeEvent(NOTIFICATION_NEW_EVENT, onEvent);
  useRealtimeEvent(NOTIFICATION_READ_EVENT, onEvent);
  useRealtimeReconnect(
    useCallback(() => void client.invalidateQueries({ queryKey: notificationKeys.all }), [client]),
  );
}

type Pages = InfiniteData<NotificationsPageView, string>;

/** Marks notifications read here at once (optimistic), then as the server says. */
export function useMarkRead() {
  const client = useQueryClient();
  const markLocally = (id: string | null) =>
    client.setQueriesData<Pages>({ queryKey: ['notifications', 'list'] }, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((p) => ({
              ...p,
              items: p.items.map((n) => (id === null || n.id === id ? { ...n, read: true } : n)),
            })),
          }
        : data,
    );
  const settle = (answer: { unread: number }) => {
    client.setQueryData(notificationKeys.unread, answer);
    void client.invalidateQueries({ queryKey: ['notifications', 'list'] });
  };
  const one = useMutation({
    mutationFn: (id: string) =>
      api<{ unread: number }>(`/api/notifications/${encodeURIComponent(id)}/read`, {
        method: 'POST',
      }),
    onMutate: (id) => markLocally(id),
    onSuccess: settle,
  });
  const all = useMutation({
    mutationFn: () => api<{ unread: number }>('/api/notifications/read-all', { method: 'POST' }),
    onMutate: () => markLocally(null),
    onSuccess: settle,
  });
  return { one, all };
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: notificationKeys.settings,
    queryFn: ({ signal }) =>
      api<NotificationSettingsView>('/api/notifications/settings', { signal }),
  });
}

export function useUpdateNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: NotificationSettingsPatch) =>
      api<NotificationSettingsView>('/api/notifications/settings', {
        method: 'PATCH',
        body: patch,
      }),
    onSuccess: (settings) => client.setQueryData(notificationKeys.settings, settings),
  });
}
