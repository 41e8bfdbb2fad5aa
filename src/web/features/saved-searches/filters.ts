import { savedSearchFiltersSchema, type SavedSearch } from '@shared/schemas/savedSearches';
import { formatMoney } from '@shared/money';
import type { TFunction } from '../../lib/translator';

/** The library's filters in the address bar, read as a saved search keeps them (bad ones left out). */
export function filtersFromParams(params: URLSearchParams): SavedSearch['filters'] {
  const raw = Object.fromEntries(
    ['q', 'author', 'genre', 'type', 'condition', 'minPrice', 'maxPrice'].flatMap((k) => {
      const v = params.get(k);
      // A minimum of 0 filters nothing (the slider writes it beside a maximum).
      if (k === 'minPrice' && Number(v) === 0) return [];
      return v && v !== 'all' ? [[k, v]] : [];
    }),
  );
  const parsed = savedSearchFiltersSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  // Keep what is valid on its own (the library shows an error for the rest).
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const one = savedSearchFiltersSchema.safeParse({ [k]: v });
    if (one.success) Object.assign(out, one.data);
  }
  return out as SavedSearch['filters'];
}

/** A name to start from: the words, else the author, else the genre. */
export function suggestedName(f: SavedSearch['filters'], t: TFunction): string {
  const base = f.q ?? f.author ?? (f.genre ? t(`genres.${f.genre}`) : '');
  return base.slice(0, 80);
}

/** The filters as short readable parts ("Words: dune", "Price: up to €10.00"). */
export function describeFilters(f: SavedSearch['filters'], t: TFunction, lang: string): string[] {
  const parts: string[] = [];
  if (f.q) parts.push(t('savedSearches.filters.q', { value: f.q }));
  if (f.author) parts.push(t('savedSearches.filters.author', { value: f.author }));
  if (f.genre) parts.push(t('savedSearches.filters.genre', { value: t(`genres.${f.genre}`) }));
  if (f.type) parts.push(t('savedSearches.filters.type', { value: t(`listingTypes.${f.type}`) }));
  if (f.condition)
    parts.push(t('savedSearches.filters.condition', { value: t(`conditions.${f.condition}`) }));
  const range = [
    ...(f.minPrice !== undefined
      ? [t('savedSearches.filters.priceFrom', { value: formatMoney(f.minPrice, 'EUR', lang) })]
      : []),
    ...(f.maxPrice !== undefined
      ? [t('savedSearches.filters.priceTo', { value: formatMoney(f.maxPrice, 'EUR', lang) })]
      : []),
  ];
  if (range.length) parts.push(t('savedSearches.filters.price', { value: range.join(' ') }));
  return parts;
}
