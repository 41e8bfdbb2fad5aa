import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BundleOfferInput, BundleQuote, BundleRule } from '@shared/schemas/bundles';
import type { ChatMessage } from '@shared/schemas/chats';
import { api } from '../../../lib/api';

export const bundleKeys = {
  rule: ['bundles', 'rule'] as const,
  quote: (ids: readonly string[]) => ['bundles', 'quote', ...ids] as const,
};

/** What the bundle being built costs (the server's reading of the seller's rule). */
export function useBundleQuote(ids: readonly string[]) {
  return useQuery({
    queryKey: bundleKeys.quote(ids),
    queryFn: ({ signal }) =>
      api<BundleQuote>('/api/bundles/quote', {
        method: 'POST',
        body: { listingIds: ids },
        signal,
      }),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** The one offer for the bundle: the answer names the conversation it went to. */
export function useBundleOffer() {
  return useMutation({
    mutationFn: (input: BundleOfferInput) =>
      api<{ roomId: string; message: ChatMessage }>('/api/chats/bundles', {
        method: 'POST',
        body: input,
      }),
  });
}

/** My bundle shipping rule as a seller. */
export function useBundleRule(enabled = true) {
  return useQuery({
    queryKey: bundleKeys.rule,
    queryFn: ({ signal }) => api<{ rule: BundleRule }>('/api/bundles/rule', { signal }),
    enabled,
  });
}

export function useSaveBundleRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rule: BundleRule) =>
      api<{ rule: BundleRule }>('/api/bundles/rule', { method: 'PUT', body: rule }),
    onSuccess: (answer) => client.setQueryData(bundleKeys.rule, answer),
  });
}
