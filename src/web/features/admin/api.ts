import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LogPage, QueuePage } from '@shared/moderation';
import type { Post, PostPage } from '@shared/schemas/community';
import { api, ApiError } from '../../lib/api';

const noRetryOn404 = (count: number, err: Error) =>
  count < 1 && !(err instanceof ApiError && (err.status === 404 || err.status === 401));

export function useQueue(page: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['admin', 'reports', page],
    queryFn: ({ signal }) => api<QueuePage>(`/api/admin/reports?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
    retry: noRetryOn404,
  });
}

export function useAuditLog(page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'log', page],
    queryFn: ({ signal }) => api<LogPage>(`/api/admin/log?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useSuspended(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'suspended'],
    queryFn: ({ signal }) =>
      api<{ items: { id: string; displayName: string; email: string }[] }>(
        '/api/admin/members/suspended',
        { signal },
      ),
    enabled,
  });
}

export type AdminAction =
  | {
      action: 'dismiss' | 'hide' | 'restore' | 'reject';
      kind: string;
      itemId: string;
      reason: string;
    }
  | { action: 'suspend'; userId: string; kind?: string; itemId?: string; reason: string }
  | { action: 'unsuspend'; userId: string; reason: string };

export function useAdminAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: AdminAction) => {
      if (a.action === 'suspend' || a.action === 'unsuspend') {
        const body =
          a.action === 'suspend'
            ? {
                reason: a.reason,
                ...(a.kind && a.itemId ? { kind: a.kind, itemId: a.itemId } : {}),
              }
            : { reason: a.reason };
        return api<{ ok: true }>(`/api/admin/members/${encodeURIComponent(a.userId)}/${a.action}`, {
          method: 'POST',
          body,
        });
      }
      return api<{ ok: true }>(
        `/api/admin/items/${a.kind}/${encodeURIComponent(a.itemId)}/${a.action}`,
        { method: 'POST', body: { reason: a.reason } },
      );
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** The pinned posts: the first of the popular tab (at most 3, always on its first page). */
export function usePinned(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'pinned'],
    queryFn: async ({ signal }) =>
      (await api<PostPage>('/api/community/posts/popular?page=1', { signal })).items.filter(
        (p) => p.isPinned,
      ),
    enabled,
  });
}

export function useUnpin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<Post>(`/api/admin/posts/${encodeURIComponent(id)}/pin`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['admin'] });
      void client.invalidateQueries({ queryKey: ['community'] });
    },
  });
}
