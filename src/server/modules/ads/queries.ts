import type {
  AdCard,
  AdCurrency,
  AdGenre,
  AdLanguage,
  AdPurchaseStore,
  AdStatus,
  AdType,
  Advertisement,
} from '@shared/schemas/ads';
import { sql } from '../../db/sql';
import { activeMember } from '../../platform/moderation/members';
import { isUuid } from '@shared/schemas/common';
import { toIso } from '../../db/rows';

/** A day (YYYY-MM-DD) in UTC: ads' dates, daily counts and budgets all use UTC days. */
export const dayOf = (date: Date) => date.toISOString().slice(0, 10);
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return dayOf(d);
}

/** Ids that are not UUIDs can name no ad (and must never reach a ::uuid cast). */
export const isAdId = isUuid;

export interface AdRow {
  id: string;
  author_id: string;
  title: string;
  subtitle: string | null;
  description: string;
  genre: AdGenre;
  language: AdLanguage;
  isbn13: string | null;
  publisher: string | null;
  publication_year: number | null;
  page_count: number | null;
  ad_type: AdType;
  keywords: string[];
  target_audience: string[];
  cover_image_url: string | null;
  promotional_images: string[];
  trailer_video_url: string | null;
  sample_chapter_url: string | null;
  author_website_url: string | null;
  social_links: string[];
  purchase_links: Partial<Record<AdPurchaseStore, string>> | string;
  book_price: number | null;
  currency: AdCurrency;
  daily_budget: number;
  total_budget: number;
  status: 'draft' | 'active' | 'paused' | 'rejected';
  rejection_reason: string | null;
  start_date: string | null;
  end_date: string | null;
  average_rating: number;
  review_count: number;
  view_count: number;
  click_count: number;
  /** Clicks charged within the budgets (the others were counted, not billed). */
  billed_click_count: number;
  conversion_count: number;
  created_at: Date;
  updated_at: Date;
  display_name: string;
  username: string | null;
  avatar_url: string | null;
  bio: string | null;
  /** The author's account: 'active', 'suspended' or 'deleted'. */
  author_status: string;
}

/**
 * Every column of the ad `a` and its author `u`. Dates as text (the drivers would turn a date
 * into a local midnight), money and ratings as float8 (numeric arrives as text).
 */
export const AD_COLUMNS = `a.id, a.author_id, a.title, a.subtitle, a.description, a.genre,
  a.language, a.isbn13, a.publisher, a.publication_year, a.page_count, a.ad_type, a.keywords,
  a.target_audience, a.cover_image_url, a.promotional_images, a.trailer_video_url,
  a.sample_chapter_url, a.author_website_url, a.social_links, a.purchase_links,
  a.book_price::float8 as book_price, a.currency, a.daily_budget::float8 as daily_budget,
  a.total_budget::float8 as total_budget, a.status, a.rejection_reason, a.start_date::text as start_date,
  a.end_date::text as end_date, a.average_rating::float8 as average_rating, a.review_count,
  a.view_count, a.click_count, a.billed_click_count, a.conversion_count, a.created_at, a.updated_at,
  u.display_name, u.username::text as username, u.avatar_url, u.bio,
  u.account_status as author_status`;

/**
 * An ad runs on `today` when active, started (or no start) and not ended (or no end), and its
 * author's account is active (a suspended or deleted member's ads leave every slot and page).
 */
export const RUNNING_SQL = (alias: string, today: string) =>
  `${alias}.status = 'active' and (${alias}.start_date is null or ${alias}.start_date <= ${today})
   and (${alias}.end_date is null or ${alias}.end_date >= ${today})
   and ${activeMember(`${alias}.author_id`)}`;

/**
 * Within budget on `today`: one more click still fits, at `cpc`, on top of the clicks billed today
 * (daily budget) and of all clicks billed (total budget); 0 means no cap. `s` is the ad's
 * ad_daily_stats row of today. An ad that can bill no further click is not served.
 */
export const WITHIN_BUDGET_SQL = (cpc: string) =>
  `(a.daily_budget = 0 or (coalesce(s.billed_clicks, 0) + 1) * ${cpc} <= a.daily_budget)
   and (a.total_budget = 0 or (a.billed_click_count + 1) * ${cpc} <= a.total_budget)`;

export function shownStatus(row: Pick<AdRow, 'status' | 'end_date'>, today: string): AdStatus {
  if (row.status === 'active' && row.end_date !== null && row.end_date < today) return 'expired';
  return row.status;
}

export function isRunning(
  row: Pick<AdRow, 'status' | 'start_date' | 'end_date'>,
  today: string,
): boolean {
  return (
    row.status === 'active' &&
    (row.start_date === null || row.start_date <= today) &&
    (row.end_date === null || row.end_date >= today)
  );
}

const links = (value: AdRow['purchase_links']) =>
  (typeof value === 'string' ? JSON.parse(value) : (value ?? {})) as Partial<
    Record<AdPurchaseStore, string>
  >;

export function toAdvertisement(row: AdRow, today: string): Advertisement {
  return {
    id: row.id,
    authorId: row.author_id,
    author: {
      id: row.author_id,
      displayName: row.display_name,
      username: row.username,
      avatarUrl: row.avatar_url,
      bio: row.bio,
    },
    title: row.title,
    subtitle: row.subtitle,
    description: row.description,
    genre: row.genre,
    language: row.language,
    isbn13: row.isbn13,
    publisher: row.publisher,
    publicationYear: row.publication_year,
    pageCount: row.page_count,
    adType: row.ad_type,
    keywords: row.keywords ?? [],
    targetAudience: row.target_audience ?? [],
    coverImageUrl: row.cover_image_url,
    promotionalImages: row.promotional_images ?? [],
    trailerVideoUrl: row.trailer_video_url,
    sampleChapterUrl: row.sample_chapter_url,
    authorWebsiteUrl: row.author_website_url,
    socialLinks: row.social_links ?? [],
    purchaseLinks: links(row.purchase_links),
    bookPrice: row.book_price,
    currency: row.currency,
    dailyBudget: row.daily_budget,
    totalBudget: row.total_budget,
    status: shownStatus(row, today),
    rejectionReason: row.status === 'rejected' ? row.rejection_reason : null,
    running: isRunning(row, today),
    startDate: row.start_date,
    endDate: row.end_date,
    averageRating: row.average_rating,
    reviewCount: row.review_count,
    viewCount: row.view_count,
    clickCount: row.click_count,
    conversionCount: row.conversion_count,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export type CardRow = Pick<
  AdRow,
  | 'id'
  | 'title'
  | 'subtitle'
  | 'description'
  | 'genre'
  | 'ad_type'
  | 'keywords'
  | 'cover_image_url'
  | 'book_price'
  | 'currency'
  | 'average_rating'
  | 'review_count'
  | 'author_id'
  | 'display_name'
  | 'username'
  | 'avatar_url'
>;

/** What a sponsored card needs: the ad `a` and its author `u`. */
export const CARD_COLUMNS = `a.id, a.title, a.subtitle, a.description, a.genre, a.ad_type,
  a.keywords, a.cover_image_url, a.book_price::float8 as book_price, a.currency,
  a.average_rating::float8 as average_rating, a.review_count, a.author_id, u.display_name,
  u.username::text as username, u.avatar_url`;

export function toCard(row: CardRow): AdCard {
  return {
    id: row.id,
    title: row.title,
    subtitle: row.subtitle,
    description: row.description,
    genre: row.genre,
    adType: row.ad_type,
    keywords: row.keywords ?? [],
    coverImageUrl: row.cover_image_url,
    bookPrice: row.book_price,
    currency: row.currency,
    averageRating: row.average_rating,
    reviewCount: row.review_count,
    sponsor: {
      id: row.author_id,
      displayName: row.display_name,
      username: row.username,
      avatarUrl: row.avatar_url,
    },
  };
}

/** Editable fields and their columns (with the cast their parameter needs). */
export const FIELD_COLUMNS = {
  title: ['title', ''],
  subtitle: ['subtitle', ''],
  description: ['description', ''],
  genre: ['genre', ''],
  language: ['language', ''],
  isbn13: ['isbn13', ''],
  publisher: ['publisher', ''],
  publicationYear: ['publication_year', '::int'],
  pageCount: ['page_count', '::int'],
  adType: ['ad_type', ''],
  keywords: ['keywords', '::text[]'],
  targetAudience: ['target_audience', '::text[]'],
  coverImageUrl: ['cover_image_url', ''],
  promotionalImages: ['promotional_images', '::text[]'],
  trailerVideoUrl: ['trailer_video_url', ''],
  sampleChapterUrl: ['sample_chapter_url', ''],
  authorWebsiteUrl: ['author_website_url', ''],
  socialLinks: ['social_links', '::text[]'],
  purchaseLinks: ['purchase_links', '::jsonb'],
  bookPrice: ['book_price', '::numeric'],
  currency: ['currency', ''],
  dailyBudget: ['daily_budget', '::numeric'],
  totalBudget: ['total_budget', '::numeric'],
  startDate: ['start_date', '::date'],
  endDate: ['end_date', '::date'],
} as const;
export type AdField = keyof typeof FIELD_COLUMNS;

/** A field's value as a query parameter (jsonb goes as text). */
function paramOf(field: AdField, value: unknown): unknown {
  if (field === 'purchaseLinks') return JSON.stringify(value ?? {});
  return value ?? null;
}

/** A field's column. */
export const columnOf = (field: AdField) => sql.raw(FIELD_COLUMNS[field][0]);

/** A field's value as a parameter cast to its column's type. */
export const valueOf = (field: AdField, value: unknown) =>
  sql`${paramOf(field, value)}${sql.raw(FIELD_COLUMNS[field][1])}`;
