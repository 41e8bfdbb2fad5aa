import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { CATALOGUE_DEFAULT_LIMIT, CATALOGUE_MIN_QUERY } from '@shared/marketplaceConstants';
import type { CatalogueSearchResult } from '@shared/marketplace';
import { api } from '../../lib/api';

/**
 * Catalogue search for a (debounced) text; idle until the trimmed text has `minQuery` characters.
 * The one query of GET /api/catalogue/search: the sell form and the book of a post (which asks
 * for 2 characters and 10 results) share its cache.
 */
export function useCatalogueSearch(
  text: string,
  limit = CATALOGUE_DEFAULT_LIMIT,
  minQuery = CATALOGUE_MIN_QUERY,
) {
  const q = text.trim();
  return useQuery({
    queryKey: ['catalogue', q.toLowerCase(), limit],
    queryFn: ({ signal }) =>
      api<CatalogueSearchResult>(
        `/api/catalogue/search?${new URLSearchParams({ q, limit: String(limit) })}`,
        { signal },
      ),
    enabled: q.length >= minQuery,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
    retry: false,
  });
}
