import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  TradeMatchPage,
  WishedBookIds,
  WishlistItem,
  WishlistMembership,
  WishlistPage,
} from '@shared/schemas/wishlist';
import { api, ApiError } from '../../lib/api';
import { useRealtimeEvent, useRealtimeReconnect } from '../../lib/realtime';

export const wishlistKeys = {
  all: ['wishlist'] as const,
  page: (userId: string, page: number) => ['wishlist', 'page', userId, page] as const,
  bookIds: ['wishlist', 'bookIds'] as const,
  trades: (page: number) => ['wishlist', 'trades', page] as const,
};

export function useWishlist(userId: string, page: number) {
  return useQuery({
    queryKey: wishlistKeys.page(userId, page),
    queryFn: ({ signal }) =>
      api<WishlistPage>(`/api/users/${encodeURIComponent(userId)}/wishlist?page=${page}`, {
        signal,
      }),
    retry: (count, err) => count < 1 && !(err instanceof ApiError && err.status < 500),
  });
}

/**
 * The wishlist's "available now" stays live: a listing of a wished book became available or
 * stopped being so (the server tells the wishers), or the socket came back (events sent while it
 * was down are not replayed): the wishlist and its trade matches are fetched again.
 */
export function useWishlistLive() {
  const client = useQueryClient();
  const refresh = useCallback(
    () => void client.invalidateQueries({ queryKey: wishlistKeys.all }),
    [client],
  );
  useRealtimeEvent('wishlist.availability', refresh);
  useRealtimeReconnect(refresh);
}

const toSet = (data: WishedBookIds) => new Set(data.bookIds);

/**
 * The member's wished book ids, read once and shared by every heart on the page (one request
 * for a whole grid of cards, cached by react-query).
 */
export function useWishedBookIds(enabled: boolean) {
  return useQuery({
    queryKey: wishlistKeys.bookIds,
    queryFn: ({ signal }) => api<WishedBookIds>('/api/me/wishlist/book-ids', { signal }),
    select: toSet,
    enabled,
    staleTime: 60_000,
  });
}

/** Marks a book wished or not in the cached ids at once (the heart answers before the server). */
function setWished(client: ReturnType<typeof useQueryClient>, bookId: string, wished: boolean) {
  client.setQueryData<WishedBookIds>(wishlistKeys.bookIds, (old) => {
    const ids = new Set(old?.bookIds ?? []);
    if (wished) ids.add(bookId);
    else ids.delete(bookId);
    return { bookIds: [...ids] };
  });
}

export function useAddWish() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (bookId: string) =>
      api<WishlistItem>('/api/me/wishlist/items', { method: 'POST', body: { bookId } }),
    onSuccess: (item) => {
      if (item.book) setWished(client, item.book.id, true);
    },
    onSettled: () => client.invalidateQueries({ queryKey: wishlistKeys.all }),
  });
}

export function useRemoveWish() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (item: { id: string; bookId: string | null }) =>
      api<void>(`/api/me/wishlist/items/${encodeURIComponent(item.id)}`, { method: 'DELETE' }),
    onSuccess: (_v, item) => {
      if (item.bookId) setWished(client, item.bookId, false);
    },
    onSettled: () => client.invalidateQueries({ queryKey: wishlistKeys.all }),
  });
}

/** The heart: adds or removes a book by its id; "already there" and "not there" count as done. */
export function useToggleWish() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ bookId, wished }: { bookId: string; wished: boolean }) => {
      try {
        if (wished) await api('/api/me/wishlist/items', { method: 'POST', body: { bookId } });
        else
          await api<void>(`/api/me/wishlist/books/${encodeURIComponent(bookId)}`, {
            method: 'DELETE',
          });
      } catch (err) {
        const settled = err instanceof ApiError && err.status === (wished ? 409 : 404);
        if (!settled || (wished && err.code !== 'conflict')) throw err;
      }
    },
    onMutate: ({ bookId, wished }) => setWished(client, bookId, wished),
    onError: (_err, { bookId, wished }) => setWished(client, bookId, !wished),
    onSettled: () => client.invalidateQueries({ queryKey: wishlistKeys.all }),
  });
}

const workWishKey = (workId: string) => ['wishlist', 'work', workId] as const;

/** Is this work on my wishlist? (its page's button; not asked for visitors) */
export function useWorkWish(workId: string, enabled: boolean) {
  return useQuery({
    queryKey: workWishKey(workId),
    queryFn: ({ signal }) =>
      api<WishlistMembership>(`/api/me/wishlist/works/${encodeURIComponent(workId)}`, { signal }),
    enabled,
  });
}

/**
 * Adds a work (every edition, every language) to my wishlist, or removes it; "already there"
 * and "not there" count as done.
 */
export function useToggleWorkWish(workId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (wished: boolean) => {
      try {
        if (wished) await api('/api/me/wishlist/items', { method: 'POST', body: { workId } });
        else
          await api<void>(`/api/me/wishlist/works/${encodeURIComponent(workId)}`, {
            method: 'DELETE',
          });
      } catch (err) {
        const settled = err instanceof ApiError && err.status === (wished ? 409 : 404);
        if (!settled || (wished && err.code !== 'conflict')) throw err;
      }
      return wished;
    },
    onSuccess: (wished) =>
      client.setQueryData<WishlistMembership>(workWishKey(workId), (old) => ({
        wished,
        itemId: wished ? (old?.itemId ?? null) : null,
      })),
    onSettled: () => client.invalidateQueries({ queryKey: wishlistKeys.all }),
  });
}

export function useTradeMatches(page: number) {
  return useQuery({
    queryKey: wishlistKeys.trades(page),
    queryFn: ({ signal }) => api<TradeMatchPage>(`/api/me/trade-matches?page=${page}`, { signal }),
  });
}

/** The one direct room with a member, from the chats API (as the friends page does). */
export function useDirectRoom() {
  return useMutation({
    mutationFn: (userId: string) =>
      api<{ room: { id: string } }>('/api/chats/direct', { method: 'POST', body: { userId } }),
  });
}
