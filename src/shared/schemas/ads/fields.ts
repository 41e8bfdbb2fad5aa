import { z } from 'zod';
import { URL_MAX_LENGTH, isUploadPath, normalizeHttpsUrl } from '../../urls';
import { isValidIsbn13 } from '../../marketplaceConstants';
import {
  AD_GENRES,
  AD_LANGUAGES,
  type AdLanguage,
  AD_CURRENCIES,
  type AdCurrency,
  AD_TYPES,
  type AdType,
  AD_PURCHASE_STORES,
  type AdPurchaseStore,
  AD_MIN_YEAR,
  adMaxYear,
  AD_MAX_KEYWORDS,
  AD_MAX_AUDIENCES,
  AD_KEYWORD_MAX_LENGTH,
  AD_MAX_SOCIAL_LINKS,
  AD_MAX_PROMO_IMAGES,
  AD_MAX_AMOUNT,
  AD_TITLE_MAX,
  AD_SUBTITLE_MAX,
  AD_DESCRIPTION_MAX,
} from './constants';

/** Advertisements: the rule of each form field, and the create and change bodies built from them. */

export const v = (key: string) => `ads.validation.${key}`;

export const blankToNull = (value: unknown) => {
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

export const listField = (max: number, tooMany: string, lower: boolean) =>
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

export const toNumber = (x: unknown) =>
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
 * POST /api/ads (and the web form). Defaults: ad type banner, the book's language the author's
 * own (their preferred language, filled by the server), budgets 0, currency EUR; the publication
 * year defaults to the current year in the form (it stays optional here).
 */
export const adCreateSchema = z
  .object({
    ...adFieldsShape,
    subtitle: adFieldsShape.subtitle.optional(),
    language: adFieldsShape.language.optional(),
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

/**
 * The form's defaults for the web's create mode: banner, the author's language (English until
 * known), EUR, budgets 0, this year.
 */
export const adFormDefaults = (now = new Date(), language: AdLanguage = 'en') => ({
  adType: 'banner' as AdType,
  language,
  currency: 'EUR' as AdCurrency,
  dailyBudget: 0,
  totalBudget: 0,
  publicationYear: now.getFullYear(),
});
