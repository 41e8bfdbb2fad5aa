import { z } from 'zod';
import {
  CONDITIONS,
  LISTING_TYPES,
  MARKET_GENRES,
  MAX_PRICE,
  QUERY_MAX_LENGTH,
  isWholeCents,
} from '../marketplaceConstants';
import { pageNumber, pageOf } from './common';

/**
 * Saved searches (issue 22, item 5): a member's library search kept with a name. Filter messages
 * are the library's own keys (`listings.validation.*`); the rest are under `savedSearches.*`.
 */

/** A member keeps at most this many saved searches. */
export const SAVED_SEARCHES_MAX = 20;
/** Characters of a saved search's name. */
export const SAVED_SEARCH_NAME_MAX = 80;
/** Saved searches per page of the account page and the API. */
export const SAVED_SEARCHES_PAGE_SIZE = 10;

const lv = (key: string) => `listings.validation.${key}`;
const blankToUndefined = (value: unknown) => {
  if (value === null) return undefined;
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};
const words = (error: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: lv(error) })
      .max(QUERY_MAX_LENGTH, { error: lv(error) })
      .optional(),
  );
const choice = <T extends readonly [string, ...string[]]>(values: T, error: string) =>
  z.preprocess(blankToUndefined, z.enum(values, { error: lv(error) }).optional());
const price = (error: string) =>
  z.preprocess(
    (value) => {
      const x = blankToUndefined(value);
      return typeof x === 'string' && Number.isFinite(Number(x)) ? Number(x) : x;
    },
    z
      .number({ error: lv(error) })
      .min(0, { error: lv(error) })
      .max(MAX_PRICE, { error: lv(error) })
      .refine(isWholeCents, { error: lv('moneyDecimals') })
      .optional(),
  );

/** The library's filters a saved search keeps (the words, author, genre, type, condition, price). */
export const savedSearchFiltersSchema = z
  .object({
    q: words('queryTooLong'),
    author: words('queryTooLong'),
    genre: choice(MARKET_GENRES, 'genreInvalid'),
    type: choice(LISTING_TYPES, 'typeInvalid'),
    condition: choice(CONDITIONS, 'conditionInvalid'),
    minPrice: price('minPriceInvalid'),
    maxPrice: price('maxPriceInvalid'),
  })
  .superRefine((f, ctx) => {
    if (f.minPrice !== undefined && f.maxPrice !== undefined && f.maxPrice < f.minPrice)
      ctx.addIssue({ code: 'custom', path: ['maxPrice'], message: lv('priceRange') });
  });
export type SavedSearchFilters = z.output<typeof savedSearchFiltersSchema>;
export type SavedSearchFiltersInput = z.input<typeof savedSearchFiltersSchema>;

const nameField = z
  .string({ error: 'savedSearches.validation.nameRequired' })
  .trim()
  .min(1, { error: 'savedSearches.validation.nameRequired' })
  .max(SAVED_SEARCH_NAME_MAX, { error: 'savedSearches.validation.nameTooLong' });

/** POST /api/me/saved-searches */
export const createSavedSearchSchema = z.object({
  name: nameField,
  filters: savedSearchFiltersSchema,
});
export type CreateSavedSearchInput = z.input<typeof createSavedSearchSchema>;

/** PATCH /api/me/saved-searches/{id}: only the fields sent change; at least one. */
export const updateSavedSearchSchema = z
  .object({
    name: nameField.optional(),
    notify: z.boolean({ error: 'validation.invalid' }).optional(),
  })
  .refine((b) => b.name !== undefined || b.notify !== undefined, {
    error: 'savedSearches.validation.nothingToChange',
  });
export type UpdateSavedSearchInput = z.input<typeof updateSavedSearchSchema>;

export const savedSearchPageQuerySchema = z.object({
  page: pageNumber('savedSearches.validation.pageInvalid'),
});

export const savedSearchSchema = z.object({
  id: z.string(),
  name: z.string(),
  filters: z.object({
    q: z.string().optional(),
    author: z.string().optional(),
    genre: z.enum(MARKET_GENRES).optional(),
    type: z.enum(LISTING_TYPES).optional(),
    condition: z.enum(CONDITIONS).optional(),
    minPrice: z.number().optional(),
    maxPrice: z.number().optional(),
  }),
  /** Matches are told in the app and in the daily digest while this is on. */
  notify: z.boolean(),
  /** The library with these filters: `/library?q=...` (running the search). */
  libraryPath: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;

export const savedSearchPageSchema = pageOf(savedSearchSchema).extend({
  /** SAVED_SEARCHES_MAX: how many a member may keep. */
  max: z.number().int(),
});
export type SavedSearchPage = z.infer<typeof savedSearchPageSchema>;

/** The library's query string of these filters, in the library's own parameter names. */
export function libraryQueryOf(f: Partial<SavedSearchFilters>): string {
  const params = new URLSearchParams();
  for (const key of [
    'q',
    'author',
    'genre',
    'type',
    'condition',
    'minPrice',
    'maxPrice',
  ] as const) {
    const value = f[key];
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

/** The path that runs a saved search: the library with its filters. */
export const libraryPathOf = (f: Partial<SavedSearchFilters>): string => {
  const query = libraryQueryOf(f);
  return query ? `/library?${query}` : '/library';
};

/** True when the filters ask for something (an empty search would match every book). */
export const hasCriteria = (f: Partial<SavedSearchFilters>): boolean => libraryQueryOf(f) !== '';
