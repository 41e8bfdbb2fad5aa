import { z } from 'zod';
import { isUploadPath, normalizeWebUrl } from './urls';
import type { ListingDetail } from './marketplaceAnswers';
import { queryInt as commonQueryInt } from './schemas/common';
import {
  CATALOGUE_MAX_LIMIT,
  CATALOGUE_API_MIN_QUERY,
  CONDITIONS,
  CURRENCIES,
  LIBRARY_MAX_PAGE_SIZE,
  LISTING_STATUSES,
  LISTING_TYPES,
  MARKET_GENRES,
  MAX_PRICE,
  QUERY_MAX_LENGTH,
  SORTS,
  STATUS_FILTERS,
  isValidIsbn,
  normalizeIsbn,
  isWholeCents,
  type ListingType,
} from './marketplaceConstants';

/**
 * Marketplace schemas shared by the server and the web app.
 * Validation messages are locale keys under `listings.validation.*`. The constants, types and
 * ISBN helpers live in marketplaceConstants.ts (no zod) and are re-exported here.
 */
export * from './marketplaceConstants';
export * from './marketplaceAnswers';

// ---------- form schemas ----------

const v = (key: string) => `listings.validation.${key}`;

const emptyToUndefined = (value: unknown) => {
  if (value === null) return undefined;
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};
const emptyToNull = (value: unknown) => (value === '' || value === undefined ? null : value);

const text = (required: string, max: number) =>
  z
    .string({ error: v(required) })
    .trim()
    .min(1, { error: v(required) })
    .max(max, { error: 'validation.tooLong' });

const optionalText = (max: number) =>
  z.preprocess(
    emptyToUndefined,
    z.string({ error: 'validation.invalid' }).max(max, { error: 'validation.tooLong' }).optional(),
  );

/** The image route of a catalogue book's cover: /api/covers/<book id>. */
const CATALOGUE_COVER =
  /^\/api\/covers\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Our upload (exactly as the storage names it), a catalogue cover's route, or an absolute
 * http(s) address of a catalogue's image (the server fetches only from the known cover hosts).
 */
export const coverUrlField = z.preprocess(
  emptyToUndefined,
  z
    .string({ error: v('coverUrlInvalid') })
    .max(2000, { error: v('coverUrlInvalid') })
    .refine(
      (s) =>
        isUploadPath(s) ||
        CATALOGUE_COVER.test(s) ||
        normalizeWebUrl(s, ['https:', 'http:']) !== null,
      { error: v('coverUrlInvalid') },
    )
    .optional(),
);

export const isbnField = z.preprocess(
  emptyToUndefined,
  z
    .string({ error: v('isbnInvalid') })
    .refine((s) => isValidIsbn(s), { error: v('isbnInvalid') })
    .transform(normalizeIsbn)
    .optional(),
);

/** Money: a number (or numeric text) with at most 2 decimals; '' and null mean 'none'. */
const money = (invalid: string, negative: string) =>
  z.preprocess(
    (value) => {
      const x = emptyToNull(value);
      return typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x)) ? Number(x) : x;
    },
    z
      .number({ error: v(invalid) })
      .min(0, { error: v(negative) })
      .max(MAX_PRICE, { error: v('priceTooHigh') })
      .refine(isWholeCents, { error: v('moneyDecimals') })
      .nullable(),
  );

/** Fields of the full listing form, without cross-field rules (so it can be extended). */
export const listingFieldsShape = {
  title: text('titleRequired', 300),
  author: text('authorRequired', 300),
  genre: z.enum(MARKET_GENRES, { error: v('genreRequired') }),
  condition: z.enum(CONDITIONS, { error: v('conditionInvalid') }).default('good'),
  listingType: z.enum(LISTING_TYPES, { error: v('listingTypeInvalid') }).default('sell'),
  price: money('priceInvalid', 'priceNegative').optional(),
  currency: z.enum(CURRENCIES, { error: v('currencyInvalid') }).default('EUR'),
  description: text('descriptionRequired', 5000),
  isbn: isbnField,
  language: optionalText(50),
  location: optionalText(200),
  shippingCost: money('shippingCostInvalid', 'shippingCostNegative').optional(),
  isNegotiable: z.boolean({ error: 'validation.invalid' }).default(false),
  coverUrl: coverUrlField,
};

/**
 * The listing's cross-field rules, as field → message key: price is needed for sell and both.
 * Run by the forms' schemas, and by the server on the merged row after a partial edit.
 */
export function listingRuleIssues(value: {
  listingType?: ListingType;
  price?: number | null;
}): Record<string, string> {
  if (
    (value.listingType ?? 'sell') !== 'trade' &&
    (value.price === null || value.price === undefined)
  )
    return { price: v('priceRequired') };
  return {};
}

function requirePriceForSale(
  value: { listingType?: ListingType; price?: number | null },
  ctx: z.RefinementCtx,
) {
  for (const [path, message] of Object.entries(listingRuleIssues(value)))
    ctx.addIssue({ code: 'custom', path: [path], message });
}

/** Cross-field rules also run when other fields are invalid, so a form shows every message at once. */
const always = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null,
};

/** The full (advanced) listing form. */
export const listingFormSchema = z
  .object(listingFieldsShape)
  .superRefine(requirePriceForSale, always);
export type ListingFormInput = z.input<typeof listingFormSchema>;
export type ListingForm = z.output<typeof listingFormSchema>;

/**
 * The edit form of a listing that has no description (a quick listing asks for none): it may stay
 * without one; `listingChanges` then leaves the empty description out of the PATCH.
 */
export const listingEditWithoutDescriptionSchema = z
  .object({
    ...listingFieldsShape,
    description: z
      .string({ error: 'validation.invalid' })
      .trim()
      .max(5000, { error: 'validation.tooLong' }),
  })
  .superRefine(requirePriceForSale, always);

/**
 * The catalogue result a quick listing was made from, when one was chosen: its ids and ISBN. The
 * server takes the book (its genre, language and cover) from the catalogue by them.
 */
const catalogueChoice = {
  googleBooksId: optionalText(100),
  isbn: isbnField,
  bookId: z.preprocess(emptyToUndefined, z.uuid({ error: 'validation.invalid' }).optional()),
};

/**
 * Quick sell: title, author, price greater than 0; the language (by name, as the full form's) when
 * a catalogue result gave it, and that result's ids. The server names a code ('it' reads
 * "Italiano") and otherwise takes the language the catalogue knows for the book.
 */
export const quickSellSchema = z.object({
  title: text('titleRequired', 300),
  author: text('authorRequired', 300),
  language: optionalText(50),
  ...catalogueChoice,
  price: z.preprocess(
    (x) => (typeof x === 'string' && x.trim() !== '' ? Number(x) : x),
    z
      .number({ error: v('pricePositive') })
      .gt(0, { error: v('pricePositive') })
      .max(MAX_PRICE, { error: v('priceTooHigh') })
      .refine(isWholeCents, { error: v('moneyDecimals') }),
  ),
});
export type QuickSellInput = z.input<typeof quickSellSchema>;

/**
 * Quick trade: a catalogue result supplies title and author (and, when known, its ids and its
 * language, by name as in the quick sell).
 */
export const quickTradeSchema = z.object({
  title: text('titleRequired', 300),
  author: text('authorRequired', 300),
  language: optionalText(50),
  ...catalogueChoice,
  coverUrl: coverUrlField,
});
export type QuickTradeInput = z.input<typeof quickTradeSchema>;

/** POST /api/listings body. */
export const createListingSchema = z.discriminatedUnion(
  'mode',
  [
    z
      .object({ mode: z.literal('full'), ...listingFieldsShape })
      .superRefine(requirePriceForSale, always),
    quickSellSchema.extend({ mode: z.literal('quickSell') }),
    quickTradeSchema.extend({ mode: z.literal('quickTrade') }),
  ],
  { error: v('modeInvalid') },
);
export type CreateListingInput = z.input<typeof createListingSchema>;

/**
 * An optional field of a partial edit: absent leaves it unchanged, null or empty text clears it
 * (parsed to null), anything else is checked by the field's own rule.
 */
const clearable = <T extends z.ZodType>(field: T) =>
  z
    .preprocess(
      (x) => (x === null || (typeof x === 'string' && x.trim() === '') ? null : x),
      field.nullable(),
    )
    .optional();

/**
 * PATCH /api/listings/:id body: the full form's fields, each optional and without defaults, so
 * only the fields sent change; at least one. The cross-field rules (`listingRuleIssues`) are
 * checked by the server on the listing as it will be (current row + these fields).
 */
export const updateListingSchema = z
  .object({
    title: listingFieldsShape.title.optional(),
    author: listingFieldsShape.author.optional(),
    genre: listingFieldsShape.genre.optional(),
    condition: listingFieldsShape.condition.removeDefault().optional(),
    listingType: listingFieldsShape.listingType.removeDefault().optional(),
    price: clearable(money('priceInvalid', 'priceNegative')),
    currency: listingFieldsShape.currency.removeDefault().optional(),
    description: listingFieldsShape.description.optional(),
    isbn: clearable(isbnField),
    language: clearable(optionalText(50)),
    location: clearable(optionalText(200)),
    shippingCost: clearable(money('shippingCostInvalid', 'shippingCostNegative')),
    isNegotiable: listingFieldsShape.isNegotiable.removeDefault().optional(),
    coverUrl: clearable(coverUrlField),
  })
  .refine((b) => Object.values(b).some((x) => x !== undefined), { error: 'errors.badRequest' });
export type UpdateListingInput = z.input<typeof updateListingSchema>;
export type UpdateListing = z.output<typeof updateListingSchema>;

/** The whole edit form as a PATCH body: every field sent, an empty one as null (cleared). */
export function listingFormAsUpdate(form: ListingForm): UpdateListingInput {
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(listingFieldsShape))
    body[key] = form[key as keyof ListingForm] ?? null;
  return body as UpdateListingInput;
}

/**
 * An edit as a PATCH body: only the fields whose value differs from the listing as it was (so a
 * quick listing's new price goes alone, without the description it never had). Empty text and
 * null are the same "nothing"; a cover counts only when it is the member's own upload.
 */
export function listingChanges(form: ListingForm, before: ListingDetail): UpdateListingInput {
  const was: Record<string, unknown> = {
    ...before,
    coverUrl: before.coverUrl && isUploadPath(before.coverUrl) ? before.coverUrl : null,
  };
  const nothing = (x: unknown) => (x === '' || x === undefined ? null : x);
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(listingFormAsUpdate(form)))
    if (nothing(value) !== nothing(was[key])) changes[key] = value;
  return changes as UpdateListingInput;
}

export const listingStatusSchema = z.object({
  status: z.enum(LISTING_STATUSES, { error: v('statusInvalid') }),
});

export const completeListingSchema = z.object({
  kind: z.enum(['sale', 'trade'], { error: v('kindInvalid') }),
  counterpartUsername: z
    .string({ error: v('usernameRequired') })
    .trim()
    .min(1, { error: v('usernameRequired') })
    .max(50, { error: v('usernameRequired') }),
});
export type CompleteListingInput = z.input<typeof completeListingSchema>;

// ---------- query schemas (query strings: values arrive as text) ----------

const queryNumber = (error: string) =>
  z.preprocess(
    (x) => (x === '' || x === undefined ? undefined : typeof x === 'string' ? Number(x) : x),
    z
      .number({ error: v(error) })
      .min(0, { error: v(error) })
      .max(MAX_PRICE, { error: v(error) })
      .optional(),
  );

const queryInt = (error: string, min: number, max: number) => commonQueryInt(v(error), min, max);

const queryEnum = <T extends readonly [string, ...string[]]>(values: T, error: string) =>
  z.preprocess(emptyToUndefined, z.enum(values, { error: v(error) }).optional());

const searchShape = {
  q: z.preprocess(
    emptyToUndefined,
    z
      .string({ error: v('queryTooLong') })
      .max(QUERY_MAX_LENGTH, { error: v('queryTooLong') })
      .optional(),
  ),
  genre: queryEnum(MARKET_GENRES, 'genreInvalid'),
  minPrice: queryNumber('minPriceInvalid'),
  maxPrice: queryNumber('maxPriceInvalid'),
};

function priceRange(value: { minPrice?: number; maxPrice?: number }, ctx: z.RefinementCtx) {
  if (
    value.minPrice !== undefined &&
    value.maxPrice !== undefined &&
    value.maxPrice < value.minPrice
  )
    ctx.addIssue({ code: 'custom', path: ['maxPrice'], message: v('priceRange') });
}

/** GET /api/listings query. */
export const libraryQuerySchema = z
  .object({
    ...searchShape,
    author: optionalText(QUERY_MAX_LENGTH),
    type: queryEnum(LISTING_TYPES, 'typeInvalid'),
    condition: queryEnum(CONDITIONS, 'conditionInvalid'),
    status: queryEnum(STATUS_FILTERS, 'statusInvalid'),
    sort: queryEnum(SORTS, 'sortInvalid'),
    page: queryInt('pageInvalid', 1, 10_000),
    pageSize: queryInt('pageSizeInvalid', 1, LIBRARY_MAX_PAGE_SIZE),
    /** '1': q as written, without the typo correction. */
    exact: queryEnum(['1'] as const, 'exactInvalid'),
    /** '1': the answer carries facet counts for the current search (ListingPage.facets). */
    facets: queryEnum(['1'] as const, 'facetsInvalid'),
  })
  .superRefine(priceRange, always);
export type LibraryQueryInput = z.input<typeof libraryQuerySchema>;
export type LibraryQuery = z.output<typeof libraryQuerySchema>;

/** GET /api/listings/suggest query: what the reader has typed so far. */
export const suggestQuerySchema = z.object({
  q: z.string({ error: v('queryTooLong') }).max(QUERY_MAX_LENGTH, { error: v('queryTooLong') }),
});

/** GET /api/shelves query. */
export const shelvesQuerySchema = z.object(searchShape).superRefine(priceRange, always);
export type ShelvesQuery = z.output<typeof shelvesQuerySchema>;

/** GET /api/users/:id/listings query. */
export const userListingsQuerySchema = z.object({
  type: queryEnum(['all', 'sell', 'trade'] as const, 'typeInvalid'),
  page: queryInt('pageInvalid', 1, 10_000),
});

/** GET /api/catalogue/search query. */
export const catalogueSearchQuerySchema = z.object({
  q: z
    .string({ error: 'catalogue.validation.queryTooShort' })
    .trim()
    .min(CATALOGUE_API_MIN_QUERY, { error: 'catalogue.validation.queryTooShort' })
    .max(QUERY_MAX_LENGTH, { error: 'catalogue.validation.queryTooLong' }),
  limit: z.preprocess(
    (x) => (x === '' || x === undefined ? undefined : typeof x === 'string' ? Number(x) : x),
    z
      .number({ error: 'catalogue.validation.limitInvalid' })
      .int({ error: 'catalogue.validation.limitInvalid' })
      .min(1, { error: 'catalogue.validation.limitInvalid' })
      .max(CATALOGUE_MAX_LIMIT, { error: 'catalogue.validation.limitInvalid' })
      .optional(),
  ),
});
