/** Advertisements: the fixed lists and limits. */
import { MARKET_GENRES, type Genre } from '../../marketplaceConstants';

/**
 * Ads speak the listings' genres: one list of genres in the product (keys; labels are the
 * catalogues' `genres`). An ad's genre is the genre of the pages its slots run on.
 */
export const AD_GENRES = MARKET_GENRES;
export type AdGenre = Genre;

/**
 * The 25 genres ads had before they took the listings' list (decision 0057), as migration 0029
 * mapped the stored ads: an old link (/promoted?genre=thriller) still finds the same ads.
 */
export const LEGACY_AD_GENRES: Record<string, AdGenre | undefined> = {
  thriller: 'mystery',
  science: 'nonFiction',
  technology: 'nonFiction',
  health: 'selfHelp',
  travel: 'nonFiction',
  cooking: 'nonFiction',
  art: 'nonFiction',
  music: 'nonFiction',
  educational: 'academic',
  reference: 'academic',
  religion: 'nonFiction',
  philosophy: 'nonFiction',
};

/** A genre from a page or a link: one of the list, or an old ad genre's new key. */
export function adGenreOf(genre: string | null | undefined): AdGenre | null {
  if (!genre) return null;
  if ((AD_GENRES as readonly string[]).includes(genre)) return genre as AdGenre;
  return Object.hasOwn(LEGACY_AD_GENRES, genre) ? (LEGACY_AD_GENRES[genre] ?? null) : null;
}

/** Ad languages: English, Spanish, French, German, Italian, Portuguese, Russian, Chinese,
 * Japanese, Korean, Arabic, Hindi, Other (ISO 639-1 codes; 'other'). Default English. */
export const AD_LANGUAGES = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'ru',
  'zh',
  'ja',
  'ko',
  'ar',
  'hi',
  'other',
] as const;
export type AdLanguage = (typeof AD_LANGUAGES)[number];

export const AD_CURRENCIES = ['EUR', 'USD', 'GBP', 'CAD', 'AUD'] as const;
export type AdCurrency = (typeof AD_CURRENCIES)[number];

export const AD_TYPES = ['banner', 'featured', 'spotlight', 'promoted'] as const;
export type AdType = (typeof AD_TYPES)[number];

/**
 * Stored statuses. `rejected` is set by a moderator (POST /api/admin/items/ad/:id/reject, with a
 * reason shown to the author): never served, cannot be activated or resumed; editing it makes it
 * a draft again, a moderator's restore makes it paused.
 */
export const AD_STORED_STATUSES = ['draft', 'active', 'paused', 'rejected'] as const;
/** Shown statuses: an active ad past its end date shows as expired (computed when read). */
export const AD_STATUSES = ['draft', 'active', 'paused', 'expired', 'rejected'] as const;
export type AdStatus = (typeof AD_STATUSES)[number];

/** The author's list tabs: all, active, paused, draft, and expired. */
export const AD_LIST_FILTERS = ['all', 'active', 'paused', 'draft', 'expired'] as const;
export type AdListFilter = (typeof AD_LIST_FILTERS)[number];

export const AD_EVENT_KINDS = ['impression', 'click', 'conversion'] as const;
export type AdEventKind = (typeof AD_EVENT_KINDS)[number];

/** Where a sponsored card is shown; `ad` is the ad's own page, `promoted` the promoted list. */
export const AD_PLACEMENTS = ['library', 'buy', 'community', 'promoted', 'ad'] as const;
export type AdPlacement = (typeof AD_PLACEMENTS)[number];

export const AD_TIMEFRAMES = ['7d', '30d', 'all'] as const;
export type AdTimeframe = (typeof AD_TIMEFRAMES)[number];

export const AD_PURCHASE_STORES = ['amazon', 'bookshop', 'barnes_noble', 'author_website'] as const;
export type AdPurchaseStore = (typeof AD_PURCHASE_STORES)[number];

/** Pages of 20 ads and 10 reviews; analytics list the last 20 events; a slot has up to 12 ads. */
export const ADS_PAGE_SIZE = 20;
export const AD_REVIEWS_PAGE_SIZE = 10;
export const AD_RECENT_EVENTS = 20;
export const AD_SLOT_MAX = 12;
export const AD_MIN_YEAR = 1450;
/** Publication year: 1450 to the current year plus 2. */
export const adMaxYear = (now = new Date()) => now.getFullYear() + 2;
export const AD_MAX_KEYWORDS = 20;
export const AD_MAX_AUDIENCES = 10;
export const AD_KEYWORD_MAX_LENGTH = 50;
export const AD_MAX_SOCIAL_LINKS = 6;
export const AD_MAX_PROMO_IMAGES = 6;
export const AD_MAX_AMOUNT = 1_000_000;
export const AD_TITLE_MAX = 200;
export const AD_SUBTITLE_MAX = 300;
export const AD_DESCRIPTION_MAX = 5000;
export const AD_REVIEW_MAX = 2000;
/** Default cost per click when ADS_COST_PER_CLICK is not set (in the ad's currency). */
export const ADS_DEFAULT_COST_PER_CLICK = 0.2;
