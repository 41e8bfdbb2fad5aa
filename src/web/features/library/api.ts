import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ListingPage, Shelves } from '@shared/marketplace';
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
