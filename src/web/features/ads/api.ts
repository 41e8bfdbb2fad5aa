import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdAnalytics,
  AdCreateInput,
  AdListFilter,
  AdListPage,
  AdPlacement,
  AdReview,
  AdReviewInput,
  AdReviewPage,
  AdSlotAnswer,
  AdTimeframe,
  AdUpdateInput,
  Advertisement,
  PromotedPage,
} from '@shared/schemas/ads';
import { api } from '../../lib/api';

export const adKeys = {
  all: ['ads'] as const,
  mine: (status: string, page: number) => ['ads', 'mine', status, page] as const,
  detail: (id: string) => ['ads', 'detail', id] as const,
  analytics: (id: string, timeframe: string) => ['ads', 'analytics', id, timeframe] as const,
  reviews: (id: string, page: number) => ['ads', 'reviews', id, page] as const,
  slot: (query: string) => ['ads', 'slot', query] as const,
  promoted: (query: string) => ['ads', 'promoted', query] as const,
};

const path = (id: string) => `/api/ads/${encodeURIComponent(id)}`;

export function useMyAds(status: AdListFilter, page: number) {
  return useQuery({
    queryKey: adKeys.mine(status, page),
    queryFn: ({ signal }) => {
      const q = new URLSearchParams({ status, page: String(page) });
      return api<AdListPage>(`/api/ads/mine?${q}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

export function useAd(id: string | undefined) {
  return useQuery({
    queryKey: adKeys.detail(id ?? ''),
    queryFn: async ({ signal }) => (await api<{ ad: Advertisement }>(path(id!), { signal })).ad,
    enabled: !!id,
    retry: (count, err) => count < 1 && (err as { status?: number }).status !== 404,
  });
}

export interface SlotContext {
  genre?: string | null;
  q?: string | null;
}

/** Ads for a sponsored slot; the answer is empty when nothing may run (never an error shown). */
export function useSlotAds({
  placement,
  genre,
  q,
  limit,
  exclude,
}: SlotContext & { placement: AdPlacement; limit: number; exclude?: string }) {
  const params = new URLSearchParams({ placement, limit: String(limit) });
  if (genre) params.set('genre', genre);
  if (q) params.set('q', q.slice(0, 200));
  if (exclude) params.set('exclude', exclude);
  const query = params.toString();
  return useQuery({
    queryKey: adKeys.slot(query),
    queryFn: ({ signal }) => api<AdSlotAnswer>(`/api/ads/slot?${query}`, { signal }),
    staleTime: 60_000,
    retry: false,
  });
}

export function usePromotedAds(params: URLSearchParams) {
  const query = params.toString();
  return useQuery({
    queryKey: adKeys.promoted(query),
    queryFn: ({ signal }) => api<PromotedPage>(`/api/ads?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAnalytics(id: string | undefined, timeframe: AdTimeframe) {
  return useQuery({
    queryKey: adKeys.analytics(id ?? '', timeframe),
    queryFn: ({ signal }) =>
      api<AdAnalytics>(`${path(id!)}/analytics?timeframe=${timeframe}`, { signal }),
    enabled: !!id,
    placeholderData: keepPreviousData,
    retry: (count, err) => count < 1 && (err as { status?: number }).status !== 404,
  });
}

export function useReviews(id: string, page: number) {
  return useQuery({
    queryKey: adKeys.reviews(id, page),
    queryFn: ({ signal }) => api<AdReviewPage>(`${path(id)}/reviews?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateAds() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: adKeys.all });
}

export function useSaveAd() {
  const invalidate = useInvalidateAds();
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string; body: AdCreateInput | AdUpdateInput }) =>
      (
        await (id
          ? api<{ ad: Advertisement }>(path(id), { method: 'PATCH', body })
          : api<{ ad: Advertisement }>('/api/ads', { method: 'POST', body }))
      ).ad,
    onSuccess: invalidate,
  });
}

export type StatusAction = 'activate' | 'pause' | 'resume';

export function useSetAdStatus() {
  const invalidate = useInvalidateAds();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: StatusAction }) =>
      (await api<{ ad: Advertisement }>(`${path(id)}/${action}`, { method: 'POST' })).ad,
    onSuccess: invalidate,
  });
}

export function useDeleteAd() {
  const invalidate = useInvalidateAds();
  return useMutation({
    mutationFn: (id: string) => api<void>(path(id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useAddReview(id: string) {
  const invalidate = useInvalidateAds();
  return useMutation({
    mutationFn: async (body: AdReviewInput) =>
      (await api<{ review: AdReview }>(`${path(id)}/reviews`, { method: 'POST', body })).review,
    onSuccess: invalidate,
  });
}

export const analyticsCsvUrl = (id: string, timeframe: AdTimeframe) =>
  `${path(id)}/analytics.csv?timeframe=${timeframe}`;
