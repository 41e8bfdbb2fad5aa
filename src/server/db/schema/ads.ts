import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { memberRef } from './accounts';

// Mirrors migration 0014_ads.sql (the migration is the source of truth, triggers included).

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

export const bookAdvertisements = pgTable(
  'book_advertisements',
  {
    id: uuidPk(),
    authorId: memberRef('author_id'),
    title: text('title').notNull(),
    subtitle: text('subtitle'),
    description: text('description').notNull(),
    genre: text('genre').notNull(),
    language: text('language').notNull().default('en'),
    isbn13: text('isbn13'),
    publisher: text('publisher'),
    publicationYear: integer('publication_year'),
    pageCount: integer('page_count'),
    adType: text('ad_type').notNull().default('banner'),
    keywords: text('keywords').array().notNull().default([]),
    targetAudience: text('target_audience').array().notNull().default([]),
    coverImageUrl: text('cover_image_url'),
    promotionalImages: text('promotional_images').array().notNull().default([]),
    trailerVideoUrl: text('trailer_video_url'),
    sampleChapterUrl: text('sample_chapter_url'),
    authorWebsiteUrl: text('author_website_url'),
    socialLinks: text('social_links').array().notNull().default([]),
    purchaseLinks: jsonb('purchase_links').notNull().default({}),
    bookPrice: numeric('book_price', { precision: 12, scale: 2 }),
    currency: text('currency').notNull().default('EUR'),
    dailyBudget: numeric('daily_budget', { precision: 12, scale: 2 }).notNull().default('0'),
    totalBudget: numeric('total_budget', { precision: 12, scale: 2 }).notNull().default('0'),
    status: text('status').notNull().default('draft'),
    /** A moderator's reason when status is 'rejected' (migration 0019). */
    rejectionReason: text('rejection_reason'),
    rejectedAt: timestamptz('rejected_at'),
    startDate: date('start_date'),
    endDate: date('end_date'),
    reviewCount: integer('review_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    averageRating: numeric('average_rating', { precision: 3, scale: 2 }).notNull().default('0'),
    viewCount: integer('view_count').notNull().default(0),
    clickCount: integer('click_count').notNull().default(0),
    /** Clicks charged within the budgets (migration 0023); the rest were counted, not billed. */
    billedClickCount: integer('billed_click_count').notNull().default(0),
    conversionCount: integer('conversion_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('book_advertisements_author_idx').on(t.authorId, t.status, t.createdAt.desc(), t.id),
    index('book_advertisements_active_genre_idx')
      .on(t.genre, t.createdAt.desc())
      .where(sql`status = 'active'`),
    index('book_advertisements_active_keywords_idx')
      .using('gin', t.keywords)
      .where(sql`status = 'active'`),
    index('book_advertisements_active_idx')
      .on(t.createdAt.desc(), t.id)
      .where(sql`status = 'active'`),
  ],
);

export const adEvents = pgTable(
  'ad_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adId: uuid('ad_id')
      .notNull()
      .references(() => bookAdvertisements.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    day: date('day').notNull(),
    viewerHash: text('viewer_hash').notNull(),
    placement: text('placement'),
    store: text('store'),
    device: text('device'),
    userAgent: text('user_agent'),
    referrer: text('referrer'),
    /** Clicks only: charged (true) or past a budget (false); null for other kinds (0023). */
    billed: boolean('billed'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ad_events_once_idx').on(t.adId, t.kind, t.day, t.viewerHash),
    index('ad_events_recent_idx').on(t.adId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const adDailyStats = pgTable(
  'ad_daily_stats',
  {
    adId: uuid('ad_id')
      .notNull()
      .references(() => bookAdvertisements.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    impressions: integer('impressions').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    conversions: integer('conversions').notNull().default(0),
    billedClicks: integer('billed_clicks').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.adId, t.day] })],
);

export const adBookReviews = pgTable(
  'ad_book_reviews',
  {
    id: uuidPk(),
    adId: uuid('ad_id')
      .notNull()
      .references(() => bookAdvertisements.id, { onDelete: 'cascade' }),
    reviewerId: memberRef('reviewer_id'),
    rating: smallint('rating').notNull(),
    reviewText: text('review_text').notNull(),
    verifiedPurchase: boolean('verified_purchase').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique().on(t.adId, t.reviewerId),
    index('ad_book_reviews_page_idx').on(t.adId, t.createdAt.desc(), t.id.desc()),
    index('ad_book_reviews_reviewer_idx').on(t.reviewerId),
  ],
);

export const adViewerSalts = pgTable('ad_viewer_salts', {
  day: date('day').primaryKey(),
  salt: bytea('salt').notNull(),
});
