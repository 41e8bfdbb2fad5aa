import type { FormErrors } from '@mantine/form';
import { dataText, type TFunction } from '@web/lib/translator';
import {
  adCreateSchema,
  adFormDefaults,
  type AdCreateInput,
  type AdLanguage,
  type AdPurchaseStore,
  type Advertisement,
} from '@shared/schemas/ads';
import { joinList } from './lists';

type Num = number | string;

export interface AdFormValues {
  title: string;
  subtitle: string;
  description: string;
  genre: string;
  adType: string;
  language: string;
  isbn13: string;
  publisher: string;
  publicationYear: Num;
  pageCount: Num;
  keywords: string;
  targetAudience: string;
  coverImageUrl: string;
  trailerVideoUrl: string;
  sampleChapterUrl: string;
  authorWebsiteUrl: string;
  socialLinks: string;
  purchaseLinks: Record<AdPurchaseStore, string>;
  bookPrice: Num;
  currency: string;
  dailyBudget: Num;
  totalBudget: Num;
  startDate: string;
  endDate: string;
}

const NO_LINKS: Record<AdPurchaseStore, string> = {
  amazon: '',
  bookshop: '',
  barnes_noble: '',
  author_website: '',
};

/** Create mode: the defaults (banner, the author's language, EUR, budgets 0, this year). */
export function emptyAdValues(now = new Date(), language?: AdLanguage): AdFormValues {
  const d = adFormDefaults(now, language);
  return {
    title: '',
    subtitle: '',
    description: '',
    genre: '',
    adType: d.adType,
    language: d.language,
    isbn13: '',
    publisher: '',
    publicationYear: d.publicationYear,
    pageCount: '',
    keywords: '',
    targetAudience: '',
    coverImageUrl: '',
    trailerVideoUrl: '',
    sampleChapterUrl: '',
    authorWebsiteUrl: '',
    socialLinks: '',
    purchaseLinks: { ...NO_LINKS },
    bookPrice: '',
    currency: d.currency,
    dailyBudget: d.dailyBudget,
    totalBudget: d.totalBudget,
    startDate: '',
    endDate: '',
  };
}

/** Edit mode: every field pre-filled from the ad. */
export function valuesFromAd(ad: Advertisement): AdFormValues {
  return {
    title: ad.title,
    subtitle: ad.subtitle ?? '',
    description: ad.description,
    genre: ad.genre,
    adType: ad.adType,
    language: ad.language,
    isbn13: ad.isbn13 ?? '',
    publisher: ad.publisher ?? '',
    publicationYear: ad.publicationYear ?? '',
    pageCount: ad.pageCount ?? '',
    keywords: joinList(ad.keywords),
    targetAudience: joinList(ad.targetAudience),
    coverImageUrl: ad.coverImageUrl ?? '',
    trailerVideoUrl: ad.trailerVideoUrl ?? '',
    sampleChapterUrl: ad.sampleChapterUrl ?? '',
    authorWebsiteUrl: ad.authorWebsiteUrl ?? '',
    socialLinks: joinList(ad.socialLinks),
    purchaseLinks: { ...NO_LINKS, ...ad.purchaseLinks },
    bookPrice: ad.bookPrice ?? '',
    currency: ad.currency,
    dailyBudget: ad.dailyBudget,
    totalBudget: ad.totalBudget,
    startDate: ad.startDate?.slice(0, 10) ?? '',
    endDate: ad.endDate?.slice(0, 10) ?? '',
  };
}

/**
 * The form's values as the API takes them. Lists stay comma-separated text: the shared schema
 * splits, trims and drops empties, the same rule on both sides.
 */
export function toInput(values: AdFormValues): AdCreateInput {
  return { ...values, genre: values.genre as never } as AdCreateInput;
}

/**
 * One message per field, translated, under the field it belongs to: an item of a list
 * (keywords.3) reports on the list; nested paths (purchaseLinks.amazon) stay as they are.
 */
export function validateAd(values: AdFormValues, t: TFunction): FormErrors {
  const parsed = adCreateSchema.safeParse(toInput(values));
  if (parsed.success) return {};
  const out: FormErrors = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.filter((p) => typeof p !== 'number').join('.');
    if (!path || out[path]) continue;
    out[path] = dataText(t, issue.message);
  }
  return out;
}

/** Only what changed since the form opened (PATCH changes only the sent fields). */
export function changedFields(values: AdFormValues, initial: AdFormValues): Partial<AdFormValues> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(values) as (keyof AdFormValues)[]) {
    if (JSON.stringify(values[key]) !== JSON.stringify(initial[key])) out[key] = values[key];
  }
  return out as Partial<AdFormValues>;
}
