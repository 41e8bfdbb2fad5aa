import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ListingPage, Shelves } from '@shared/marketplace';
import type { Suggestions } from '@shared/marketplaceAnswers';
import { api } from '../../lib/api';
import { listingKeys } from '../listings';

/** GET /api/listings with the library's URL parameters (the query key is those parameters). */
export function useLibraryListings(params: URLSearchParams) {
  const query = params.toString();
  return useQuery({
    queryKey: listingKeys.libraryPage(query),
    queryFn: ({ signal }) => api<ListingPage>(`/api/listings?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useShelves(params: URLSearchParams) {
  const query = params.toString();
  return useQuery({
    queryKey: listingKeys.shelvesFor(query),
    queryFn: ({ signal }) => api<Shelves>(`/api/shelves?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Debounce of the suggestions as you type: a pause, not every key, asks the server. */
export const SUGGEST_DEBOUNCE_MS = 150;

/** GET /api/listings/suggest for what was typed (nothing asked for an empty box). */
export function useSuggestions(typed: string) {
  const q = typed.trim();
  return useQuery({
    queryKey: ['listings', 'suggest', q] as const,
    queryFn: ({ signal }) =>
      api<Suggestions>(`/api/listings/suggest?q=${encodeURIComponent(q)}`, { signal }),
    enabled: q.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
