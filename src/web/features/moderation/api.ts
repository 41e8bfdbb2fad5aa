import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReportInput } from '@shared/moderation';
import type { Review, ReviewPage, TradePage } from '@shared/reviews';
import { useCallback } from 'react';
import { api } from '../../lib/api';
import { useRealtimeEvent } from '../../lib/realtime';

export function useReport() {
  return useMutation({
    mutationFn: (input: ReportInput) =>
      api<{ id: string; status: 'open' }>('/api/reports', { method: 'POST', body: input }),
  });
}

export function useMemberReviews(userId: string | undefined, page: number) {
  return useQuery({
    queryKey: ['users', userId, 'reviews', page],
    queryFn: ({ signal }) =>
      api<ReviewPage>(`/api/users/${encodeURIComponent(userId!)}/reviews?page=${page}`, {
        signal,
      }),
    enabled: !!userId,
    placeholderData: keepPreviousData,
  });
}

/** My completed trades (of one listing when given), with the review I wrote for each. */
export function useTrades(page: number, listingId?: string, enabled = true) {
  const params = new URLSearchParams({ page: String(page) });
  if (listingId) params.set('listingId', listingId);
  return useQuery({
    queryKey: ['reviews', 'trades', listingId ?? null, page],
    queryFn: ({ signal }) => api<TradePage>(`/api/reviews/trades?${params}`, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * The trades refetch when a notification arrives live: the other party's review waiting for mine,
 * or both published (decision 0073), shows without a reload.
 */
export function useLiveTrades() {
  const client = useQueryClient();
  // The event's name as a literal: importing @shared/notifications would pull its texts' group
  // into every page showing a review action (scripts/locale-usage.ts).
  useRealtimeEvent(
    'notification.new',
    useCallback(() => void client.invalidateQueries({ queryKey: ['reviews', 'trades'] }), [client]),
  );
}

export function useSaveReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      reviewId?: string;
      transactionId: string;
      rating: number;
      text: string;
    }) =>
      input.reviewId
        ? api<Review>(`/api/reviews/${input.reviewId}`, {
            method: 'PATCH',
            body: { rating: input.rating, text: input.text },
          })
        : api<Review>('/api/reviews', {
            method: 'POST',
            body: { transactionId: input.transactionId, rating: input.rating, text: input.text },
          }),
    onSuccess: (review) => {
      void client.invalidateQueries({ queryKey: ['reviews'] });
      void client.invalidateQueries({ queryKey: ['users', review.subjectId] });
    },
  });
}
