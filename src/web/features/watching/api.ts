import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Holiday, WatchesPage, WatchState } from '@shared/schemas/watching';
import { api, ApiError } from '../../lib/api';

export const watchingKeys = {
  all: ['watching'] as const,
  ids: ['watching', 'ids'] as const,
  page: (page: number) => ['watching', 'page', page] as const,
  count: (listingId: string) => ['watching', 'count', listingId] as const,
  holiday: ['holiday', 'me'] as const,
  sellerHoliday: (userId: string) => ['holiday', 'user', userId] as const,
};

/** Every listing id the member watches, read once for every watch button on the page. */
export function useWatchedIds(enabled: boolean) {
  return useQuery({
    queryKey: watchingKeys.ids,
    queryFn: ({ signal }) =>
      api<{ listingIds: string[] }>('/api/me/watches/listing-ids', { signal }),
    select: (data) => new Set(data.listingIds),
    enabled,
    staleTime: 60_000,
  });
}

/** Watches or stops watching; the pressed state changes at once, and back if the server refuses. */
export function useToggleWatch() {
  const client = useQueryClient();
  const set = (listingId: string, watching: boolean) =>
    client.setQueryData<{ listingIds: string[] }>(watchingKeys.ids, (old) => {
      const ids = new Set(old?.listingIds ?? []);
      if (watching) ids.add(listingId);
      else ids.delete(listingId);
      return { listingIds: [...ids] };
    });
  return useMutation({
    mutationFn: ({ listingId, watching }: { listingId: string; watching: boolean }) =>
      api<WatchState>(`/api/me/watches/${encodeURIComponent(listingId)}`, {
        method: watching ? 'PUT' : 'DELETE',
      }),
    onMutate: ({ listingId, watching }) => set(listingId, watching),
    onError: (_err, { listingId, watching }) => set(listingId, !watching),
    onSettled: () => client.invalidateQueries({ queryKey: watchingKeys.all }),
  });
}

export function useWatches(page: number) {
  return useQuery({
    queryKey: watchingKeys.page(page),
    queryFn: ({ signal }) => api<WatchesPage>(`/api/me/watches?page=${page}`, { signal }),
    retry: (count, err) => count < 1 && !(err instanceof ApiError && err.status < 500),
  });
}

/** How many watch the seller's own listing (the seller's book page only). */
export function useWatcherCount(listingId: string, enabled: boolean) {
  return useQuery({
    queryKey: watchingKeys.count(listingId),
    queryFn: ({ signal }) =>
      api<{ count: number }>(`/api/listings/${encodeURIComponent(listingId)}/watchers`, { signal }),
    enabled,
  });
}

/** When a seller is back from holiday (null when not away). */
export function useSellerHoliday(userId: string | undefined) {
  return useQuery({
    queryKey: watchingKeys.sellerHoliday(userId ?? ''),
    queryFn: ({ signal }) =>
      api<{ backAt: string | null }>(`/api/users/${encodeURIComponent(userId!)}/holiday`, {
        signal,
      }),
    enabled: !!userId,
    staleTime: 30_000,
  });
}

export function useMyHoliday() {
  return useQuery({
    queryKey: watchingKeys.holiday,
    queryFn: ({ signal }) => api<Holiday>('/api/me/holiday', { signal }),
  });
}

export function useSaveHoliday() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { awayUntil: string; autoReply: string | null } | null) =>
      body
        ? api<Holiday>('/api/me/holiday', { method: 'PUT', body })
        : api<Holiday>('/api/me/holiday', { method: 'DELETE' }),
    onSuccess: (data) => {
      client.setQueryData(watchingKeys.holiday, data);
      void client.invalidateQueries({ queryKey: ['holiday'] });
    },
  });
}

/** The last day away of a holiday ending at `backAt` (the day before), as YYYY-MM-DD. */
export const lastDayOf = (backAt: string) =>
  new Date(new Date(backAt).getTime() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/**
 * The last day away (YYYY-MM-DD) of a seller on holiday, null when they are not (or not known
 * yet): the offer controls show the away notice instead (the server refuses offers, 409).
 */
export function useSellerAwayUntil(userId: string | undefined): string | null {
  const backAt = useSellerHoliday(userId).data?.backAt;
  return backAt ? lastDayOf(backAt) : null;
}
