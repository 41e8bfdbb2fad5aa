import { z } from 'zod';
import { URL_MAX_LENGTH, isUploadPath, normalizeHttpsUrl } from '../urls';
import { isValidIsbn13 } from '../marketplaceConstants';

/**
 * Advertisements (issue 11; spec 2 sections 3, 4, 5, 7, 8 and 9): the request rules shared by the
 * server and the web form, and the shape of every answer. Validation messages are locale keys
 * under `ads.validation.*` (shared with the web form); server errors are under `adsApi.errors.*`.
 *
 * ROUTES (all JSON unless said; errors are {"error": {"code", "message", "fields"?}}):
 *
 * Author (signed in; 401 'Unauthorized. Please login.' otherwise). Another member's ad: 404
 * 'adsApi.errors.notFound' (nothing changes; its existence is not revealed).
 *   GET    /api/ads/mine?status=all|active|paused|draft|expired&page=1
 *          → adListPageSchema {items: Advertisement[], page, pageSize 20, total, counts}
 *          400 bad query, 401
 *   POST   /api/ads                      body adCreateSchema → 201 {ad} (always a draft)
 *          400 validation (fields: {title: 'ads.validation.titleRequired', ...}), 401
 *   PATCH  /api/ads/:id                  body adUpdateSchema (only the sent fields change; null
 *          clears an optional field) → 200 {ad}; 400, 401, 404. A rejected ad becomes a draft.
 *   DELETE /api/ads/:id                  → 204; 401, 404
 *   POST   /api/ads/:id/activate         draft → active        → 200 {ad}; 401, 404, 409
 *   POST   /api/ads/:id/pause            active → paused       → 200 {ad}; 401, 404, 409
 *   POST   /api/ads/:id/resume           paused → active       → 200 {ad}; 401, 404, 409
 *          409 messages: adsApi.errors.cannotActivate / cannotPause / cannotResume / ended /
 *          rejected (an ad whose end date has passed cannot be activated or resumed).
 *   GET    /api/ads/:id/analytics?timeframe=7d|30d|all (default 30d) → adAnalyticsSchema
 *          401, 404 (another member's ad)
 *   GET    /api/ads/:id/analytics.csv?timeframe=... → text/csv, one row a day
 *          (date,impressions,clicks,click_rate,conversions,conversion_rate,cost); 401, 404
 *
 * Public (no session needed):
 *   GET    /api/ads?genre=&keywords=a,b&minRating=0..5&page=1
 *          → promotedPageSchema {items: AdCard[], page, pageSize 20, total}: ads running now and
 *          within budget, newest first. 400 bad query.
 *   GET    /api/ads/slot?placement=library|buy|community|ad&genre=&q=&exclude=id,id&limit=1..12
 *          → adSlotAnswerSchema {items: SlotAd[]} (empty when nothing may run). `genre` is an ad
 *          genre or a marketplace genre key (mapped with MARKET_TO_AD_GENRE); `q` the reader's
 *          search text (its words are matched against keywords). 400 bad query.
 *   GET    /api/ads/:id                  → {ad} (Advertisement). Anyone sees a running ad; the
 *          author sees their own in any status; otherwise 404.
 *   GET    /api/ads/:id/reviews?page=1   → adReviewPageSchema (10 a page, newest first); 404
 *   POST   /api/ads/:id/reviews          body adReviewSchema → 201 {review}; 400, 401,
 *          403 adsApi.errors.ownReview (the author), 404, 409 adsApi.errors.alreadyReviewed
 *   POST   /api/ads/:id/events           body adEventSchema, as application/json OR text/plain
 *          (navigator.sendBeacon) → 202 {received: true} (an impression adds `token`, which the
 *          click on that ad sends back: a click without a valid one, or with no impression by the
 *          same viewer that day, is not counted). Same-origin only (Origin/Referer/
 *          Sec-Fetch-Site, as every POST). Counted once per viewer (member, or address), ad, kind
 *          and UTC day; never the author's own, never known bots; unknown or non-running ads are
 *          ignored; clicks past the daily or total budget are recorded as not billed. Written in
 *          batches (about every second): read analytics to see them. 400 bad kind; 404 an id that
 *          is not a UUID; 503 adsApi.errors.trackFailed when the database is away.
 */

// ---------- constants ----------

/** Spec 2 section 5: the 25 ad genres (keys; labels live in the web catalogues). */
export const AD_GENRES = [
  'fiction',
  'nonFiction',
  'sciFi',
  'fantasy',
  'mystery',
  'romance',
  'thriller',
  'biography',
  'history',
  'science',
  'technology',
  'business',
  'selfHelp',
  'health',
  'travel',
  'cooking',
  'art',
  'music',
  'poetry',
  'children',
  'youngAdult',
  'educational',
  'reference',
  'religion',
  'philosophy',
] as const;
export type AdGenre = (typeof AD_GENRES)[number];

/**
 * The library and /buy speak marketplace genres (src/shared/marketplaceConstants); a slot asked
 * for one of those looks for ads of this ad genre. Same keys where the two lists share a genre.
 */
export const MARKET_TO_AD_GENRE: Record<string, AdGenre | undefined> = {
  academic: 'educational',
  textbook: 'educational',
  comics: 'art',
  drama: 'fiction',
  other: undefined,
};

/** Spec 2 section 5: English, Spanish, French, German, Italian, Portuguese, Russian, Chinese,
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

/** The author's list tabs (spec: all, active, paused, draft) plus expired. */
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

/** Spec 2 section 9. */
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

// ---------- field rules ----------

const v = (key: string) => `ads.validation.${key}`;

const blankToNull = (value: unknown) => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};

const requiredText = (key: string, max: number) =>
  z
    .string({ error: v(key) })
    .trim()
    .min(1, { error: v(key) })
    .max(max, { error: v('tooLong') });

const optionalText = (max: number) =>
  z.preprocess(
    blankToNull,
    z
      .string({ error: v('invalid') })
      .max(max, { error: v('tooLong') })
      .nullable(),
  );

/**
 * A link: an absolute https URL, stored in the normal form the URL parser gives it (see
 * src/shared/urls.ts); '' or null means none.
 */
const httpsUrl = () =>
  z
    .string({ error: v('urlInvalid') })
    .max(URL_MAX_LENGTH, { error: v('urlInvalid') })
    .transform((s, ctx) => {
      const url = normalizeHttpsUrl(s);
      if (url === null) {
        ctx.issues.push({ code: 'custom', message: v('urlInvalid'), input: s });
        return z.NEVER;
      }
      return url;
    });

export const adUrlField = () => z.preprocess(blankToNull, httpsUrl().nullable());

/** An image: one of our uploads (POST /api/uploads/cover), exactly as the storage names it. */
const uploadedImage = () =>
  z
    .string({ error: v('imageUploadOnly') })
    .max(URL_MAX_LENGTH, { error: v('imageUploadOnly') })
    .refine(isUploadPath, { error: v('imageUploadOnly') });

const imageUrlField = () => z.preprocess(blankToNull, uploadedImage().nullable());

/** Comma-separated text (or a list): trimmed, empties dropped, duplicates dropped. */
export function splitList(value: unknown, lower = false): unknown {
  if (value === null || value === undefined) return [];
  const items =
    typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (!items) return value;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (typeof item !== 'string') return value;
    const clean = item.trim().replace(/\s+/g, ' ');
    const text = lower ? clean.toLowerCase() : clean;
    const key = text.toLowerCase();
    if (!text || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}

const listField = (max: number, tooMany: string, lower: boolean) =>
  z.preprocess(
    (x) => splitList(x, lower),
    z
      .array(
        z
          .string({ error: v('invalid') })
          .max(AD_KEYWORD_MAX_LENGTH, { error: v('keywordTooLong') }),
        { error: v('invalid') },
      )
      .max(max, { error: v(tooMany) }),
  );

/** Money: at least 0, at most 2 decimals (step 0.01); numeric text from a form is accepted. */
const amount = (negative: string, invalid: string) =>
  z
    .number({ error: v(invalid) })
    .min(0, { error: v(negative) })
    .max(AD_MAX_AMOUNT, { error: v('amountTooHigh') })
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, { error: v('amountStep') });

const toNumber = (x: unknown) =>
  typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x)) ? Number(x) : x;

const optionalAmount = (negative: string, invalid: string) =>
  z.preprocess((x) => toNumber(blankToNull(x)), amount(negative, invalid).nullable());
/** Budgets: '' or null mean 0 (no cap). */
const budget = () =>
  z.preprocess(
    (x) => {
      const b = blankToNull(x);
      return b === null ? 0 : toNumber(b);
    },
    amount('budgetNegative', 'budgetInvalid'),
  );

const optionalInt = (invalid: string, refine: (n: number) => boolean, message: string) =>
  z.preprocess(
    (x) => toNumber(blankToNull(x)),
    z
      .number({ error: v(invalid) })
      .int({ error: v(invalid) })
      .refine(refine, { error: v(message) })
      .nullable(),
  );

/** Calendar day, YYYY-MM-DD (UTC days: the same days as the daily budgets and counts). */
const dayField = () =>
  z.preprocess(
    blankToNull,
    z
      .string({ error: v('dateInvalid') })
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: v('dateInvalid') })
      .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && isRealDay(s), {
        error: v('dateInvalid'),
      })
      .nullable(),
  );

function isRealDay(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return d.toISOString().slice(0, 10) === s;
}

const purchaseLinksField = () =>
  z.preprocess(
    (x) => (x === null || x === undefined ? {} : x),
    z
      .object(
        {
          amazon: adUrlField().optional(),
          bookshop: adUrlField().optional(),
          barnes_noble: adUrlField().optional(),
          author_website: adUrlField().optional(),
        },
        { error: v('invalid') },
      )
      .strict()
      .transform((links) => {
        const out: Partial<Record<AdPurchaseStore, string>> = {};
        for (const key of AD_PURCHASE_STORES) if (links[key]) out[key] = links[key] as string;
        return out;
      }),
  );

const urlListField = (max: number, tooMany: string, item: () => z.ZodType) =>
  z.preprocess(
    (x) => splitList(x),
    z.array(item(), { error: v('invalid') }).max(max, { error: v(tooMany) }),
  );
const requiredUrl = httpsUrl;
const requiredImageUrl = uploadedImage;

const yearInRange = (n: number) => n >= AD_MIN_YEAR && n <= adMaxYear();

/**
 * Every editable field, without defaults (PATCH takes any subset of these). Optional fields
 * accept '' or null as "none".
 */
export const adFieldsShape = {
  title: requiredText('titleRequired', AD_TITLE_MAX),
  subtitle: optionalText(AD_SUBTITLE_MAX),
  description: requiredText('descriptionRequired', AD_DESCRIPTION_MAX),
  genre: z.enum(AD_GENRES, { error: v('genreRequired') }),
  language: z.enum(AD_LANGUAGES, { error: v('languageInvalid') }),
  isbn13: z.preprocess(
    blankToNull,
    z
      .string({ error: v('isbnInvalid') })
      .refine(isValidIsbn13, { error: v('isbnInvalid') })
      .transform((s) => s.replace(/[\s-]/g, ''))
      .nullable(),
  ),
  publisher: optionalText(200),
  publicationYear: optionalInt('yearInvalid', yearInRange, 'yearRange'),
  pageCount: optionalInt('pageCountInvalid', (n) => n >= 1 && n <= 100_000, 'pageCountMin'),
  adType: z.enum(AD_TYPES, { error: v('adTypeRequired') }),
  keywords: listField(AD_MAX_KEYWORDS, 'keywordsTooMany', true),
  targetAudience: listField(AD_MAX_AUDIENCES, 'audienceTooMany', false),
  coverImageUrl: imageUrlField(),
  promotionalImages: urlListField(AD_MAX_PROMO_IMAGES, 'imagesTooMany', requiredImageUrl),
  trailerVideoUrl: adUrlField(),
  sampleChapterUrl: adUrlField(),
  authorWebsiteUrl: adUrlField(),
  socialLinks: urlListField(AD_MAX_SOCIAL_LINKS, 'socialTooMany', requiredUrl),
  purchaseLinks: purchaseLinksField(),
  bookPrice: optionalAmount('priceNegative', 'priceInvalid'),
  currency: z.enum(AD_CURRENCIES, { error: v('currencyInvalid') }),
  dailyBudget: budget(),
  totalBudget: budget(),
  startDate: dayField(),
  endDate: dayField(),
};

/** End date on or after the start date (also checked by the server against stored values). */
function endAfterStart(
  value: { startDate?: string | null; endDate?: string | null },
  ctx: z.RefinementCtx,
) {
  if (value.startDate && value.endDate && value.endDate < value.startDate)
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: v('endBeforeStart') });
}
/** Cross-field rules run even when other fields fail, so a form shows every message at once. */
const always = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null,
};

/**
 * POST /api/ads (and the web form). Defaults (spec 2 section 5): ad type banner, language
 * English, budgets 0, currency EUR; the publication year defaults to the current year in the
 * form (it stays optional here).
 */
export const adCreateSchema = z
  .object({
    ...adFieldsShape,
    subtitle: adFieldsShape.subtitle.optional(),
    language: adFieldsShape.language.default('en'),
    isbn13: adFieldsShape.isbn13.optional(),
    publisher: adFieldsShape.publisher.optional(),
    publicationYear: adFieldsShape.publicationYear.optional(),
    pageCount: adFieldsShape.pageCount.optional(),
    adType: adFieldsShape.adType.default('banner'),
    keywords: adFieldsShape.keywords.optional(),
    targetAudience: adFieldsShape.targetAudience.optional(),
    coverImageUrl: adFieldsShape.coverImageUrl.optional(),
    promotionalImages: adFieldsShape.promotionalImages.optional(),
    trailerVideoUrl: adFieldsShape.trailerVideoUrl.optional(),
    sampleChapterUrl: adFieldsShape.sampleChapterUrl.optional(),
    authorWebsiteUrl: adFieldsShape.authorWebsiteUrl.optional(),
    socialLinks: adFieldsShape.socialLinks.optional(),
    purchaseLinks: adFieldsShape.purchaseLinks.optional(),
    bookPrice: adFieldsShape.bookPrice.optional(),
    currency: adFieldsShape.currency.default('EUR'),
    dailyBudget: adFieldsShape.dailyBudget.optional(),
    totalBudget: adFieldsShape.totalBudget.optional(),
    startDate: adFieldsShape.startDate.optional(),
    endDate: adFieldsShape.endDate.optional(),
  })
  .superRefine(endAfterStart, always);
export type AdCreateInput = z.input<typeof adCreateSchema>;
export type AdCreate = z.output<typeof adCreateSchema>;

/** PATCH /api/ads/:id: any subset of the fields; only those sent change. */
export const adUpdateSchema = z.object(adFieldsShape).partial().superRefine(endAfterStart, always);
export type AdUpdateInput = z.input<typeof adUpdateSchema>;
export type AdUpdate = z.output<typeof adUpdateSchema>;

/** The form's defaults (spec 2 section 5), for the web's create mode. */
export const adFormDefaults = (now = new Date()) => ({
  adType: 'banner' as AdType,
  language: 'en' as AdLanguage,
  currency: 'EUR' as AdCurrency,
  dailyBudget: 0,
  totalBudget: 0,
  publicationYear: now.getFullYear(),
});

// ---------- query schemas ----------

const queryInt = (error: string, min: number, max: number) =>
  z.preprocess(
    (x) => (x === '' || x === undefined ? undefined : typeof x === 'string' ? Number(x) : x),
    z.number({ error }).int({ error }).min(min, { error }).max(max, { error }).optional(),
  );

export const adListQuerySchema = z.object({
  status: z.enum(AD_LIST_FILTERS, { error: v('statusFilterInvalid') }).default('all'),
  page: queryInt(v('pageInvalid'), 1, 10_000),
});

export const promotedQuerySchema = z.object({
  genre: z.preprocess(blankToNull, z.enum(AD_GENRES, { error: v('genreInvalid') }).nullish()),
  /** Comma-separated; an ad matches when it shares at least one keyword. */
  keywords: listField(AD_MAX_KEYWORDS, 'keywordsTooMany', true).optional(),
  minRating: z.preprocess(
    (x) => (x === '' || x === undefined ? undefined : toNumber(x)),
    z
      .number({ error: v('minRatingInvalid') })
      .min(0, { error: v('minRatingInvalid') })
      .max(5, { error: v('minRatingInvalid') })
      .optional(),
  ),
  page: queryInt(v('pageInvalid'), 1, 10_000),
});

export const adSlotQuerySchema = z.object({
  placement: z.enum(AD_PLACEMENTS, { error: v('placementInvalid') }),
  /** An ad genre or a marketplace genre (mapped with MARKET_TO_AD_GENRE). */
  genre: z.preprocess(
    blankToNull,
    z
      .string({ error: v('genreInvalid') })
      .max(40, { error: v('genreInvalid') })
      .nullish(),
  ),
  q: z.preprocess(
    blankToNull,
    z
      .string({ error: v('invalid') })
      .max(200, { error: v('tooLong') })
      .nullish(),
  ),
  /** Ads already on the page (comma-separated ids), so a shelf never repeats one. */
  exclude: z.preprocess(
    (x) => splitList(x),
    z.array(z.string().max(64)).max(50, { error: v('invalid') }),
  ),
  limit: queryInt(v('limitInvalid'), 1, AD_SLOT_MAX),
});

export const adAnalyticsQuerySchema = z.object({
  timeframe: z.enum(AD_TIMEFRAMES, { error: v('timeframeInvalid') }).default('30d'),
});

export const adReviewsQuerySchema = z.object({ page: queryInt(v('pageInvalid'), 1, 10_000) });

// ---------- events and reviews ----------

/**
 * POST /api/ads/:id/events. `consent` is the visitor's marketing consent as recorded by the
 * cookie banner (kept in the browser only): with it the user agent, referrer and device class are
 * stored with the event; without it only the kind, placement and day.
 */
export const adEventSchema = z.object({
  kind: z.enum(AD_EVENT_KINDS, { error: v('eventKindInvalid') }),
  placement: z.enum(AD_PLACEMENTS, { error: v('placementInvalid') }).optional(),
  consent: z.boolean({ error: v('invalid') }).optional(),
  /** The page the reader came from (document.referrer), kept only with consent. */
  referrer: z
    .string({ error: v('invalid') })
    .max(500, { error: v('tooLong') })
    .optional(),
  /** For conversions: which purchase link was followed. */
  store: z.enum(AD_PURCHASE_STORES, { error: v('purchaseStoreUnknown') }).optional(),
  /** For clicks: the token the impression of this ad was answered with (same viewer, same day). */
  token: z
    .string({ error: v('invalid') })
    .max(200, { error: v('invalid') })
    .optional(),
});
export type AdEventInput = z.input<typeof adEventSchema>;

export const adReviewSchema = z.object({
  rating: z.preprocess(
    toNumber,
    z
      .number({ error: v('ratingInvalid') })
      .int({ error: v('ratingInvalid') })
      .min(1, { error: v('ratingInvalid') })
      .max(5, { error: v('ratingInvalid') }),
  ),
  text: z
    .string({ error: v('reviewRequired') })
    .trim()
    .min(1, { error: v('reviewRequired') })
    .max(AD_REVIEW_MAX, { error: v('reviewTooLong') }),
});
export type AdReviewInput = z.input<typeof adReviewSchema>;

// ---------- answers ----------

export const adAuthorSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  bio: z.string().nullable(),
});
export type AdAuthor = z.infer<typeof adAuthorSchema>;

const purchaseLinksAnswer = z.object({
  amazon: z.string().optional(),
  bookshop: z.string().optional(),
  barnes_noble: z.string().optional(),
  author_website: z.string().optional(),
});

export const advertisementSchema = z.object({
  id: z.string(),
  authorId: z.string(),
  author: adAuthorSchema,
  title: z.string(),
  subtitle: z.string().nullable(),
  description: z.string(),
  genre: z.enum(AD_GENRES),
  language: z.enum(AD_LANGUAGES),
  isbn13: z.string().nullable(),
  publisher: z.string().nullable(),
  publicationYear: z.number().int().nullable(),
  pageCount: z.number().int().nullable(),
  adType: z.enum(AD_TYPES),
  keywords: z.array(z.string()),
  targetAudience: z.array(z.string()),
  coverImageUrl: z.string().nullable(),
  promotionalImages: z.array(z.string()),
  trailerVideoUrl: z.string().nullable(),
  sampleChapterUrl: z.string().nullable(),
  authorWebsiteUrl: z.string().nullable(),
  socialLinks: z.array(z.string()),
  purchaseLinks: purchaseLinksAnswer,
  bookPrice: z.number().nullable(),
  currency: z.enum(AD_CURRENCIES),
  dailyBudget: z.number(),
  totalBudget: z.number(),
  /** Shown status: an active ad past its end date is 'expired'. */
  status: z.enum(AD_STATUSES),
  /** A moderator's reason when the ad is 'rejected' (shown to its author), otherwise null. */
  rejectionReason: z.string().nullable(),
  /** Running right now: active, started, not ended (budgets aside). */
  running: z.boolean(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  averageRating: z.number(),
  reviewCount: z.number().int(),
  /** All-time counted impressions, clicks and conversions (the author's own list). */
  viewCount: z.number().int(),
  clickCount: z.number().int(),
  conversionCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Advertisement = z.infer<typeof advertisementSchema>;

export const adAnswerSchema = z.object({ ad: advertisementSchema });

export const adListPageSchema = z.object({
  items: z.array(advertisementSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  /** How many of the author's ads each tab holds. */
  counts: z.object({
    all: z.number().int(),
    active: z.number().int(),
    paused: z.number().int(),
    draft: z.number().int(),
    expired: z.number().int(),
  }),
});
export type AdListPage = z.infer<typeof adListPageSchema>;

/** A sponsored card: what the promoted list and the slots show. */
export const adCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  subtitle: z.string().nullable(),
  description: z.string(),
  genre: z.enum(AD_GENRES),
  adType: z.enum(AD_TYPES),
  keywords: z.array(z.string()),
  coverImageUrl: z.string().nullable(),
  bookPrice: z.number().nullable(),
  currency: z.enum(AD_CURRENCIES),
  averageRating: z.number(),
  reviewCount: z.number().int(),
  /** On whose behalf the ad runs. */
  sponsor: z.object({
    id: z.string(),
    displayName: z.string(),
    username: z.string().nullable(),
    avatarUrl: z.string().nullable(),
  }),
});
export type AdCard = z.infer<typeof adCardSchema>;

export const promotedPageSchema = z.object({
  items: z.array(adCardSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type PromotedPage = z.infer<typeof promotedPageSchema>;

/** A slot's ad: the card plus why it is shown (its genre and keywords, and what matched). */
export const slotAdSchema = adCardSchema.extend({
  reasons: z.object({
    genre: z.enum(AD_GENRES),
    keywords: z.array(z.string()),
    /** The ad's genre is the genre the reader is looking at. */
    matchedGenre: z.boolean(),
    /** The ad's keywords found in the reader's search. */
    matchedKeywords: z.array(z.string()),
  }),
});
export type SlotAd = z.infer<typeof slotAdSchema>;
export const adSlotAnswerSchema = z.object({ items: z.array(slotAdSchema) });
export type AdSlotAnswer = z.infer<typeof adSlotAnswerSchema>;

export const adEventAnswerSchema = z.object({
  received: z.literal(true),
  /** Impressions only: what the click on this ad sends back (valid for this viewer, today). */
  token: z.string().optional(),
});

export const adDayFiguresSchema = z.object({
  /** YYYY-MM-DD (UTC). */
  date: z.string(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  cost: z.number(),
});
export type AdDayFigures = z.infer<typeof adDayFiguresSchema>;

export const adAnalyticsSchema = z.object({
  adId: z.string(),
  timeframe: z.enum(AD_TIMEFRAMES),
  /** First and last day of the series (inclusive, UTC). */
  from: z.string(),
  to: z.string(),
  currency: z.enum(AD_CURRENCIES),
  costPerClick: z.number(),
  totals: z.object({
    impressions: z.number().int(),
    clicks: z.number().int(),
    /** Clicks charged: those past the daily or total budget are counted but not billed. */
    billedClicks: z.number().int(),
    conversions: z.number().int(),
    /** clicks / impressions × 100, 2 decimals (0 when there is no impression). */
    clickRate: z.number(),
    /** conversions / clicks × 100, 2 decimals (0 when there is no click). */
    conversionRate: z.number(),
    /** Billed clicks × cost per click. */
    cost: z.number(),
  }),
  /** Every day of the timeframe, days without events included (zeros). */
  series: z.array(adDayFiguresSchema),
  /** The 20 most recent counted events, newest first. */
  recent: z.array(
    z.object({
      kind: z.enum(AD_EVENT_KINDS),
      at: z.string(),
      placement: z.enum(AD_PLACEMENTS).nullable(),
      /** Only with the viewer's marketing consent. */
      device: z.enum(['mobile', 'tablet', 'desktop']).nullable(),
      referrer: z.string().nullable(),
    }),
  ),
  /** Budgets as they stand today. */
  budget: z.object({
    dailyBudget: z.number(),
    totalBudget: z.number(),
    spentToday: z.number(),
    spentTotal: z.number(),
    /** 'ok', or why the ad is not served: daily budget reached (until tomorrow) or total. */
    state: z.enum(['ok', 'dailyReached', 'totalReached']),
  }),
});
export type AdAnalytics = z.infer<typeof adAnalyticsSchema>;

export const adReviewAnswerSchema = z.object({
  id: z.string(),
  adId: z.string(),
  reviewer: z.object({
    id: z.string(),
    displayName: z.string(),
    username: z.string().nullable(),
    avatarUrl: z.string().nullable(),
  }),
  rating: z.number().int(),
  text: z.string(),
  verifiedPurchase: z.boolean(),
  createdAt: z.string(),
});
export type AdReview = z.infer<typeof adReviewAnswerSchema>;

export const adReviewPageSchema = z.object({
  items: z.array(adReviewAnswerSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  averageRating: z.number(),
});
export type AdReviewPage = z.infer<typeof adReviewPageSchema>;
export const adReviewCreatedSchema = z.object({ review: adReviewAnswerSchema });

/** Click rate and conversion rate: a percentage with 2 decimals, 0 when the base is 0. */
export function ratePercent(part: number, whole: number): number {
  if (!whole) return 0;
  return Math.round((part / whole) * 10000) / 100;
}
