import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { CATALOGUE_DEFAULT_LIMIT, CATALOGUE_MIN_QUERY } from '@shared/marketplaceConstants';
import type { CatalogueSearchResult } from '@shared/marketplace';
import { api } from '../../lib/api';

/** Catalogue search for a (debounced) text; idle until the trimmed text is long enough. */
export function useCatalogueSearch(text: string, limit = CATALOGUE_DEFAULT_LIMIT) {
  const q = text.trim();
  return useQuery({
    queryKey: ['catalogue', q.toLowerCase(), limit],
    queryFn: ({ signal }) =>
      api<CatalogueSearchResult>(
        `/api/catalogue/search?${new URLSearchParams({ q, limit: String(limit) })}`,
        { signal },
      ),
    enabled: q.length >= CATALOGUE_MIN_QUERY,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
    retry: false,
  });
}
