import { z } from 'zod';

/**
 * Marketplace rules shared by the server and the web app (spec 2 sections 3, 5 and 9).
 * Validation messages are locale keys under `listings.validation.*`.
 */

export const FORM_GENRES = [
  'fiction',
  'nonFiction',
  'mystery',
  'romance',
  'sciFi',
  'fantasy',
  'biography',
  'history',
  'selfHelp',
  'business',
  'academic',
  'children',
  'youngAdult',
  'poetry',
  'drama',
  'other',
] as const;
/** The marketplace (filters, shelves) also knows textbook and comics. */
export const MARKET_GENRES = [...FORM_GENRES, 'textbook', 'comics'] as const;
export type Genre = (typeof MARKET_GENRES)[number];

export const CONDITIONS = ['new', 'likeNew', 'good', 'fair', 'poor'] as const;
export type Condition = (typeof CONDITIONS)[number];

export const LISTING_TYPES = ['sell', 'trade', 'both'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

export const LISTING_STATUSES = ['available', 'reserved', 'sold', 'traded', 'unavailable'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];
/** Library status filter: a status, or 'all'. */
export const STATUS_FILTERS = ['all', ...LISTING_STATUSES] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const SORTS = ['newest', 'price_asc', 'price_desc'] as const;
export type Sort = (typeof SORTS)[number];

export const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const SHELF_SIZE = 12;
export const SHELF_SCROLL_PX = 300;
export const LIBRARY_PAGE_SIZE = 24;
export const LIBRARY_MAX_PAGE_SIZE = 60;
export const USER_LISTINGS_PAGE_SIZE = 24;
export const PROFILE_RECENT_BOOKS = 6;
export const DEFAULT_PRICE_RANGE = [0, 1000] as const;
export const MAX_PRICE = 100_000;
export const QUERY_MAX_LENGTH = 200;
export const QUICK_SELL_DEFAULT_PRICE = 10;
export const CATALOGUE_MIN_QUERY = 3;
export const CATALOGUE_DEFAULT_LIMIT = 8;
export const CATALOGUE_MAX_LIMIT = 20;
export const CATALOGUE_DEBOUNCE_MS = 500;
export const COVER_MAX_BYTES = 5 * 1024 * 1024;

/** Shelf keys of GET /api/shelves, in display order; genre shelves follow as `genre:<genre>`. */
export const FIXED_SHELVES = ['bestDeals', 'justListed', 'popular', 'premium'] as const;
export type ShelfKey = (typeof FIXED_SHELVES)[number] | `genre:${Genre}`;

/** Spec 2 section 9: 3.5 plus 0.1 per completed transaction, extra capped at 1.5, total at 5. */
export function publicRating(completedTransactions: number): number {
  const n = Number.isFinite(completedTransactions)
    ? Math.max(0, Math.floor(completedTransactions))
    : 0;
  const rating = 3.5 + Math.min(1.5, n * 0.1);
  return Math.min(5, Math.round(rating * 10) / 10);
}
/** Shown when the rating cannot be computed. */
export const FALLBACK_RATING = 4;

// ---------- ISBN ----------

/** Digits (and a final X for ISBN-10) without hyphens or spaces. */
export function normalizeIsbn(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}

export function isValidIsbn10(value: string): boolean {
  const s = normalizeIsbn(value);
  if (!/^\d{9}[\dX]$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (s[i] === 'X' ? 10 : Number(s[i])) * (10 - i);
  return sum % 11 === 0;
}

function isbn13CheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

export function isValidIsbn13(value: string): boolean {
  const s = normalizeIsbn(value);
  if (!/^\d{13}$/.test(s)) return false;
  return isbn13CheckDigit(s.slice(0, 12)) === Number(s[12]);
}

export function isValidIsbn(value: string): boolean {
  return isValidIsbn10(value) || isValidIsbn13(value);
}

/** ISBN-13 of an ISBN-10 (978 prefix, check digit recomputed); the first 9 digits are enough. */
export function isbn10To13(isbn10: string): string | null {
  const s = normalizeIsbn(isbn10);
  if (!/^\d{9}[\dX]?$/.test(s)) return null;
  const first12 = `978${s.slice(0, 9)}`;
  return `${first12}${isbn13CheckDigit(first12)}`;
}

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

/** Our uploads (/uploads/...), a catalogue cover (/api/covers/...) or an http(s) image address. */
export const coverUrlField = z.preprocess(
  emptyToUndefined,
  z
    .string({ error: v('coverUrlInvalid') })
    .max(2000, { error: v('coverUrlInvalid') })
    .refine((s) => /^\/(uploads|api\/covers)\/[\w./-]+$/.test(s) || /^https?:\/\/[^\s]+$/.test(s), {
      error: v('coverUrlInvalid'),
    })
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

/** Price is needed for sell and both. */
function requirePriceForSale(
  value: { listingType?: ListingType; price?: number | null },
  ctx: z.RefinementCtx,
) {
  if (
    (value.listingType ?? 'sell') !== 'trade' &&
    (value.price === null || value.price === undefined)
  )
    ctx.addIssue({ code: 'custom', path: ['price'], message: v('priceRequired') });
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

/** Quick sell: title, author, price greater than 0. */
export const quickSellSchema = z.object({
  title: text('titleRequired', 300),
  author: text('authorRequired', 300),
  price: z.preprocess(
    (x) => (typeof x === 'string' && x.trim() !== '' ? Number(x) : x),
    z
      .number({ error: v('pricePositive') })
      .gt(0, { error: v('pricePositive') })
      .max(MAX_PRICE, { error: v('priceTooHigh') }),
  ),
});
export type QuickSellInput = z.input<typeof quickSellSchema>;

/** Quick trade: a catalogue result supplies title and author (and, when known, its ids). */
export const quickTradeSchema = z.object({
  title: text('titleRequired', 300),
  author: text('authorRequired', 300),
  googleBooksId: optionalText(100),
  isbn: isbnField,
  coverUrl: coverUrlField,
  bookId: z.preprocess(emptyToUndefined, z.uuid({ error: 'validation.invalid' }).optional()),
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

/** PATCH /api/listings/:id body: the full form. */
export const updateListingSchema = listingFormSchema;

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

const queryInt = (error: string, min: number, max: number) =>
  z.preprocess(
    (x) => (x === '' || x === undefined ? undefined : typeof x === 'string' ? Number(x) : x),
    z
      .number({ error: v(error) })
      .int({ error: v(error) })
      .min(min, { error: v(error) })
      .max(max, { error: v(error) })
      .optional(),
  );

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
    status: queryEnum(STATUS_FILTERS, 'statusInvalid'),
    sort: queryEnum(SORTS, 'sortInvalid'),
    page: queryInt('pageInvalid', 1, 10_000),
    pageSize: queryInt('pageSizeInvalid', 1, LIBRARY_MAX_PAGE_SIZE),
  })
  .superRefine(priceRange, always);
export type LibraryQueryInput = z.input<typeof libraryQuerySchema>;
export type LibraryQuery = z.output<typeof libraryQuerySchema>;

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
    .min(CATALOGUE_MIN_QUERY, { error: 'catalogue.validation.queryTooShort' })
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

// ---------- response shapes ----------

export const sellerSummarySchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
});

export const listingCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  /** Always on our origin: /uploads/... or /api/covers/:bookId (remote covers are proxied). */
  coverUrl: z.string().nullable(),
  genre: z.enum(MARKET_GENRES),
  condition: z.enum(CONDITIONS),
  listingType: z.enum(LISTING_TYPES),
  price: z.number().nullable(),
  currency: z.string(),
  status: z.enum(LISTING_STATUSES),
  isActive: z.boolean(),
  description: z.string().nullable(),
  language: z.string().nullable(),
  createdAt: z.string(),
  seller: sellerSummarySchema,
});
export type ListingCard = z.infer<typeof listingCardSchema>;

export const listingDetailSchema = listingCardSchema.extend({
  isbn: z.string().nullable(),
  location: z.string().nullable(),
  shippingCost: z.number().nullable(),
  isNegotiable: z.boolean(),
  images: z.array(z.string()),
  updatedAt: z.string(),
  bookId: z.string(),
  seller: sellerSummarySchema.extend({
    avatarUrl: z.string().nullable(),
    memberSince: z.string(),
  }),
});
export type ListingDetail = z.infer<typeof listingDetailSchema>;

export const listingPageSchema = z.object({
  items: z.array(listingCardSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  priceBounds: z.object({ min: z.number(), max: z.number() }),
});
export type ListingPage = z.infer<typeof listingPageSchema>;

export const userListingPageSchema = listingPageSchema.omit({ priceBounds: true });
export type UserListingPage = z.infer<typeof userListingPageSchema>;

export const myListingsSchema = z.object({ items: z.array(listingCardSchema) });
export type MyListings = z.infer<typeof myListingsSchema>;

export const myListingStatsSchema = z.object({
  total: z.number().int(),
  available: z.number().int(),
  totalValue: z.number().int(),
});
export type MyListingStats = z.infer<typeof myListingStatsSchema>;

export const shelvesSchema = z.object({
  shelves: z.array(
    z.object({
      key: z.string() as z.ZodType<ShelfKey>,
      items: z.array(listingCardSchema),
    }),
  ),
});
export type Shelves = z.infer<typeof shelvesSchema>;

export const catalogueBookSchema = z.object({
  id: z.string(),
  googleBooksId: z.string().nullable(),
  title: z.string(),
  authors: z.array(z.string()),
  author: z.string(),
  isbn10: z.string().nullable(),
  isbn13: z.string().nullable(),
  isbn: z.string().nullable(),
  publisher: z.string().nullable(),
  publishedDate: z.string().nullable(),
  description: z.string().nullable(),
  pageCount: z.number().int().nullable(),
  categories: z.array(z.string()),
  language: z.string().nullable(),
  /** Our origin: /api/covers/:id when the book has a cover, else null. */
  coverUrl: z.string().nullable(),
});
export type CatalogueBook = z.infer<typeof catalogueBookSchema>;

export const catalogueSearchResultSchema = z.object({
  source: z.enum(['google', 'local']),
  items: z.array(catalogueBookSchema),
});
export type CatalogueSearchResult = z.infer<typeof catalogueSearchResultSchema>;

export const publicProfileSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  avatarSeed: z.string(),
  memberSince: z.string(),
  rating: z.number(),
  booksListed: z.number().int(),
  totalTrades: z.number().int(),
  recentBooks: z.array(listingCardSchema),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

export const coverUploadSchema = z.object({ url: z.string() });
export type CoverUpload = z.infer<typeof coverUploadSchema>;
