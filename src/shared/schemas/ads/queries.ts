import { z } from 'zod';
import { pageNumber, queryInt } from '../common';
import { v, blankToNull, splitList, listField, toNumber } from './fields';
import {
  AD_GENRES,
  adGenreOf,
  AD_LIST_FILTERS,
  AD_PLACEMENTS,
  AD_TIMEFRAMES,
  AD_SLOT_MAX,
  AD_MAX_KEYWORDS,
} from './constants';

/** Advertisements: the query strings of the list, promoted, slot, analytics and reviews routes. */

export const adListQuerySchema = z.object({
  status: z.enum(AD_LIST_FILTERS, { error: v('statusFilterInvalid') }).default('all'),
  page: pageNumber(v('pageInvalid')),
});

export const promotedQuerySchema = z.object({
  // An old ad genre in a kept link (thriller) reads as the genre it became (mystery).
  genre: z.preprocess(
    (x) => {
      const blank = blankToNull(x);
      return typeof blank === 'string' ? (adGenreOf(blank) ?? blank) : blank;
    },
    z.enum(AD_GENRES, { error: v('genreInvalid') }).nullish(),
  ),
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
  page: pageNumber(v('pageInvalid')),
});

export const adSlotQuerySchema = z.object({
  placement: z.enum(AD_PLACEMENTS, { error: v('placementInvalid') }),
  /** A genre of the list (an old ad genre reads as the one it became). */
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

export const adReviewsQuerySchema = z.object({ page: pageNumber(v('pageInvalid')) });
