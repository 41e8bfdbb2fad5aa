import { useCallback, useMemo } from 'react';
import { useSearchParams } from '@web/lib/router';
import { LIBRARY_PAGE_SIZE } from '@shared/marketplaceConstants';

/** Filters kept in the query string, so a filtered library is a link (and back/forward work). */
export const FILTER_KEYS = [
  'q',
  'author',
  'genre',
  'type',
  'condition',
  'minPrice',
  'maxPrice',
  'status',
  'sort',
  // '1': the words as typed, without the typo correction (set by the correction notice).
  'exact',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number] | 'page';
export type FilterPatch = Partial<Record<FilterKey, string | null>>;

export const DEFAULT_STATUS = 'available';
export const DEFAULT_SORT = 'newest';

/** True when the search has words: the API then orders by relevance unless asked otherwise. */
export const hasWords = (q: string | null | undefined) => /[\p{L}\p{N}]/u.test(q ?? '');

/** The order the API applies without a sort: relevance for words, newest without. */
export const defaultSort = (q: string | null | undefined) =>
  hasWords(q) ? 'relevance' : DEFAULT_SORT;

const NO_DEFAULTS: FilterPatch = {};

/** `defaults` must be a stable object (a module constant). */
export function useLibraryFilters(defaults: FilterPatch = NO_DEFAULTS) {
  const [params, setParams] = useSearchParams();

  /** A value from the URL, else the screen's default (e.g. /trade: type=trade). */
  const get = useCallback(
    (key: FilterKey) => params.get(key) ?? defaults[key] ?? '',
    [params, defaults],
  );

  /** Applies a change; any filter change goes back to page 1. Empty and default values leave the URL. */
  const update = useCallback(
    (patch: FilterPatch, opts: { replace?: boolean } = {}) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            if (v === null || v === undefined || v === '') {
              // Clearing a value that has a screen default must stay visible in the URL.
              if (defaults[k as FilterKey]) next.set(k, 'all');
              else next.delete(k);
            } else next.set(k, v);
          }
          if (!('page' in patch)) next.delete('page');
          // New words are corrected again unless asked otherwise.
          if ('q' in patch && !('exact' in patch)) next.delete('exact');
          if (next.get('page') === '1') next.delete('page');
          if (next.get('status') === DEFAULT_STATUS && !defaults.status) next.delete('status');
          // The default order of the words now in the URL stays out of it; relevance means
          // nothing without words (newest).
          const sort = next.get('sort');
          if (
            sort === defaultSort(next.get('q')) ||
            (sort === 'relevance' && !hasWords(next.get('q')))
          )
            next.delete('sort');
          return next;
        },
        { replace: opts.replace, preventScrollReset: true },
      );
    },
    [setParams, defaults],
  );

  const clear = useCallback(() => setParams({}, { preventScrollReset: true }), [setParams]);

  /** What the API receives: the URL's filters plus the screen defaults. */
  const apiParams = useMemo(() => {
    const out = new URLSearchParams();
    for (const key of [...FILTER_KEYS, 'page'] as const) {
      const value = params.get(key) ?? defaults[key];
      if (value) out.set(key, value);
    }
    // The screen's 'all' type is the absence of a type filter.
    if (out.get('type') === 'all') out.delete('type');
    if (out.get('sort') === 'relevance' && !hasWords(out.get('q'))) out.delete('sort');
    out.set('pageSize', String(LIBRARY_PAGE_SIZE));
    // The filters' counts come with the page (no second request): genres, types, conditions
    // and price bands under the other filters.
    out.set('facets', '1');
    return out;
  }, [params, defaults]);

  const active =
    FILTER_KEYS.some((k) => k !== 'sort' && k !== 'status' && params.get(k)) ||
    (params.get('status') ?? DEFAULT_STATUS) !== DEFAULT_STATUS;

  /**
   * How many filters of the filter panel are on (the phone's drawer button shows it): author,
   * genre, type, condition, status and the price range (one), not the words (above the results) or the sort.
   */
  const panelCount =
    (['author', 'genre', 'type', 'condition'] as const).filter((k) => params.get(k)).length +
    ((params.get('status') ?? DEFAULT_STATUS) !== DEFAULT_STATUS ? 1 : 0) +
    (params.get('minPrice') || params.get('maxPrice') ? 1 : 0);

  return { params, get, update, clear, apiParams, active, panelCount };
}
