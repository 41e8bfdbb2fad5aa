import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CompleteListingInput,
  CreateListingInput,
  ListingDetail,
  UpdateListingInput,
  ListingStatus,
  MyListings,
} from '@shared/marketplace';
import type { CompletionResult } from '@shared/transactions';
import { api } from '../../lib/api';

/** Query keys of marketplace data; mutations invalidate all of them (they are cheap to refetch). */
export const listingKeys = {
  mine: ['me', 'listings'] as const,
  detail: (id: string) => ['listings', 'detail', id] as const,
  /** Every listing query: the library's pages, the details. */
  library: ['listings'] as const,
  /** One page of the library for its URL parameters (`URLSearchParams.toString()`). */
  libraryPage: (query: string) => ['listings', 'library', query] as const,
  shelves: ['shelves'] as const,
  shelvesFor: (query: string) => ['shelves', query] as const,
  users: ['users'] as const,
};

export function useMyListings(enabled = true) {
  return useQuery({
    queryKey: listingKeys.mine,
    queryFn: ({ signal }) => api<MyListings>('/api/me/listings', { signal }),
    enabled,
  });
}

export function useListing(id: string | undefined) {
  return useQuery({
    queryKey: listingKeys.detail(id ?? ''),
    queryFn: ({ signal }) =>
      api<ListingDetail>(`/api/listings/${encodeURIComponent(id!)}`, { signal }),
    enabled: !!id,
    // A missing listing will not appear on a retry.
    retry: (count, err) => count < 1 && (err as { status?: number }).status !== 404,
  });
}

function useInvalidateMarketplace() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [listingKeys.mine, listingKeys.library, listingKeys.shelves, listingKeys.users].map(
        (queryKey) => client.invalidateQueries({ queryKey }),
      ),
    );
}

export function useCreateListing() {
  const invalidate = useInvalidateMarketplace();
  return useMutation({
    mutationFn: (body: CreateListingInput) =>
      api<ListingDetail>('/api/listings', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateListing() {
  const invalidate = useInvalidateMarketplace();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateListingInput }) =>
      api<ListingDetail>(`/api/listings/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
    onSuccess: invalidate,
  });
}

export function useSetListingStatus() {
  const invalidate = useInvalidateMarketplace();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ListingStatus }) =>
      api<ListingDetail>(`/api/listings/${encodeURIComponent(id)}/status`, {
        method: 'POST',
        body: { status },
      }),
    onSuccess: invalidate,
  });
}

export function useCompleteListing() {
  const invalidate = useInvalidateMarketplace();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CompleteListingInput }) =>
      api<CompletionResult>(`/api/listings/${encodeURIComponent(id)}/complete`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => {
      invalidate();
      void client.invalidateQueries({ queryKey: ['transactions'] });
    },
  });
}

export function useDeleteListing() {
  const invalidate = useInvalidateMarketplace();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(`/api/listings/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
