/**
 * Marketplace rules shared by the server and the web app that need no zod: the first pages (home,
 * library, a book) import these alone, so they never download zod and never build the schemas of
 * marketplace.ts, which re-exports all of this.
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

/**
 * relevance: the default when the search has words (title over author over description, whole
 * words over prefixes, the exact phrase first); without words it orders as newest.
 */
export const SORTS = ['relevance', 'newest', 'price_asc', 'price_desc'] as const;
export type Sort = (typeof SORTS)[number];

export const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const SHELF_SIZE = 12;
export const SHELF_SCROLL_PX = 300;
/** The home page's shelves (just listed, best deals, one genre): this many books each. */
export const HOME_SHELF_SIZE = 8;
/** The book page's "other copies of this book" and "more from this seller": this many each. */
export const RELATED_SIZE = 6;
export const LIBRARY_PAGE_SIZE = 24;
/** Word searches count their matches up to this many; past it the page says "more than". */
export const SEARCH_COUNT_CAP = 1000;
/** Suggestions as you type: at most this many titles and authors. */
export const SUGGESTIONS_MAX = 8;
/** Price bands of the facet counts, in whole currency units: [min, max) and the last open. */
export const PRICE_BANDS = [0, 5, 10, 20, 50] as const;
export const LIBRARY_MAX_PAGE_SIZE = 60;
export const USER_LISTINGS_PAGE_SIZE = 24;
export const PROFILE_RECENT_BOOKS = 6;
export const DEFAULT_PRICE_RANGE = [0, 1000] as const;
export const MAX_PRICE = 100_000;

/**
 * Money is stored with two decimals: an amount must be a whole number of cents, and a non-zero
 * amount at least one cent (0.000001 would otherwise look like "0 cents, close enough" and be
 * stored as 0, past the checks that came before).
 */
export function isWholeCents(n: number): boolean {
  if (!Number.isFinite(n)) return false;
  const cents = Math.round(n * 100);
  return Math.abs(n * 100 - cents) < 1e-6 && (cents !== 0 || n === 0);
}
export const QUERY_MAX_LENGTH = 200;
/** The quick-add and wishlist search boxes start searching past this many characters. */
export const CATALOGUE_MIN_QUERY = 3;
/** The catalogue API accepts queries from this many: the community's book search starts at 2. */
export const CATALOGUE_API_MIN_QUERY = 2;
export const CATALOGUE_DEFAULT_LIMIT = 8;
export const CATALOGUE_MAX_LIMIT = 20;
export const CATALOGUE_DEBOUNCE_MS = 500;
export const COVER_MAX_BYTES = 5 * 1024 * 1024;

/** Shelf keys of GET /api/shelves, in display order; genre shelves follow as `genre:<genre>`. */
export const FIXED_SHELVES = ['bestDeals', 'justListed', 'popular', 'premium'] as const;
export type ShelfKey = (typeof FIXED_SHELVES)[number] | `genre:${Genre}`;

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

/**
 * ISBN-13: 13 digits (hyphens and spaces ignored) starting 978 or 979, the only prefixes ISBNs
 * are issued under, with a valid check digit. The one ISBN-13 check: listings, ads and the
 * catalogue all use it.
 */
export function isValidIsbn13(value: string): boolean {
  const s = normalizeIsbn(value);
  if (!/^97[89]\d{10}$/.test(s)) return false;
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
