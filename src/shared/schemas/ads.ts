/**
 * Advertisements (issue 11): the request rules shared by the server and the web form, and the shape
 * of every answer, by topic in `ads/` (constants, fields, queries, events and reviews, answers);
 * `isValidIsbn13` is re-exported from marketplaceConstants. Validation messages are locale keys
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
 *          → adSlotAnswerSchema {items: SlotAd[]} (empty when nothing may run). `genre` is a
 *          genre of the listings' list (an old ad genre reads as its new key); `q` the reader's
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

export * from './ads/constants';
export * from './ads/fields';
export * from './ads/queries';
export * from './ads/events';
export * from './ads/answers';

/** The one ISBN-13 check (src/shared/marketplaceConstants.ts), where the ad form has always imported it. */
export { isValidIsbn13 } from '../marketplaceConstants';
