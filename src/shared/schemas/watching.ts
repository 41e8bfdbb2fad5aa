import { z } from 'zod';
import { listingCardSchema } from '../marketplaceAnswers';
import { pageNumber, pageOf } from './common';

/**
 * Watched listings and holiday mode (issue 22, items 4 and 6; docs/watching.md). Messages are
 * locale keys under `watching.*` and `holiday.*`; the server and the web app translate them alike.
 */

/** Watched listings per page. */
export const WATCHES_PAGE_SIZE = 24;
/** A member watches at most this many listings (the cards read every watched id at once). */
export const WATCHES_MAX = 500;

export const watchesPageQuerySchema = z.object({
  page: pageNumber('watching.validation.pageInvalid'),
});

/** PUT/DELETE /api/me/watches/:listingId. */
export const watchStateSchema = z.object({ listingId: z.string(), watching: z.boolean() });
export type WatchState = z.infer<typeof watchStateSchema>;

export const watchedListingIdsSchema = z.object({ listingIds: z.array(z.string()) });

export const watchesPageSchema = pageOf(
  z.object({ listing: listingCardSchema, watchedAt: z.string() }),
);
export type WatchesPage = z.infer<typeof watchesPageSchema>;

/** GET /api/listings/:id/watchers: how many watch it (its seller only; never who). */
export const watcherCountSchema = z.object({ count: z.number().int() });

/** What changed for a watcher: the notification's context. */
export const WATCH_CHANGES = ['priceDrop', 'reserved', 'sold', 'available'] as const;
export type WatchChange = (typeof WATCH_CHANGES)[number];

/** A holiday lasts at most this many days from today (decision 0069). */
export const HOLIDAY_MAX_DAYS = 90;
/** The seller's own automatic reply, at most this long. */
export const HOLIDAY_REPLY_MAX = 500;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * PUT /api/me/holiday: away until the end of a day (YYYY-MM-DD, the seller's calendar day read
 * in UTC), in the future and at most HOLIDAY_MAX_DAYS ahead of `now`. The date is checked against
 * the server's clock by `holidayEnd`; the form checks it against the browser's.
 */
export const holidayInputSchema = z.object({
  awayUntil: z
    .string({ error: 'holiday.validation.dateRequired' })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'holiday.validation.dateInvalid' })
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), {
      error: 'holiday.validation.dateInvalid',
    }),
  autoReply: z
    .string()
    .trim()
    .max(HOLIDAY_REPLY_MAX, { error: 'holiday.validation.replyTooLong' })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type HolidayInput = z.input<typeof holidayInputSchema>;

/**
 * The instant a holiday ending on `day` (YYYY-MM-DD) ends: the start of the next day, UTC.
 * Returns the locale key of the problem instead when the day is not tomorrow-or-later within
 * HOLIDAY_MAX_DAYS of `now`.
 */
export function holidayEnd(
  day: string,
  now: Date,
): Date | { error: `holiday.validation.${'dateInvalid' | 'dateFuture' | 'dateTooFar'}` } {
  const start = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== day)
    return { error: 'holiday.validation.dateInvalid' };
  const today = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  if (start < today + DAY_MS) return { error: 'holiday.validation.dateFuture' };
  if (start > today + HOLIDAY_MAX_DAYS * DAY_MS) return { error: 'holiday.validation.dateTooFar' };
  return new Date(start + DAY_MS);
}

/** GET/PUT /api/me/holiday. null: not away. */
export const holidaySchema = z.object({
  holiday: z
    .object({
      /** The last day away (YYYY-MM-DD). */
      awayUntil: z.string(),
      /** When the listings come back (the start of the day after). */
      backAt: z.string(),
      autoReply: z.string().nullable(),
    })
    .nullable(),
});
export type Holiday = z.infer<typeof holidaySchema>;

/** GET /api/users/:id/holiday: when a seller is back (null when not away). */
export const publicHolidaySchema = z.object({ backAt: z.string().nullable() });
