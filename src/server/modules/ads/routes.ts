import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AD_SLOT_MAX,
  adAnalyticsQuerySchema,
  adAnalyticsSchema,
  adAnswerSchema,
  adCreateSchema,
  adEventAnswerSchema,
  adEventSchema,
  adListPageSchema,
  adListQuerySchema,
  adReviewCreatedSchema,
  adReviewPageSchema,
  adReviewSchema,
  adReviewsQuerySchema,
  adSlotAnswerSchema,
  adSlotQuerySchema,
  adUpdateSchema,
  promotedPageSchema,
  promotedQuerySchema,
} from '@shared/schemas/ads';
import type { Module } from '../../platform/module';
import { idParam, memberRoutes, memberWriteLimit } from '../../platform/route-presets';
import type { Database } from '../../db/client';
import { currentUser } from '../../platform/auth';
import { AppError, badRequest, errorSchema, errorResponses } from '../../platform/errors';
import { publicRead } from '../../platform/http-cache';
import { analyticsCsv, analyticsOf } from './analytics';
import {
  createEventWriter,
  createViewerTokens,
  deviceOf,
  isBot,
  viewerOf,
  type EventWriter,
} from './events';
import { dayOf, isAdId } from './queries';
import { createServing } from './serving';
import { servingInvalidators } from './reportable';
import { adNotFound, createAdService } from './service';

const idParams = idParam('id');

/** The event writer of each app's database, so tests and scripts can flush it. */
const writers = new WeakMap<Database, EventWriter>();
/** Writes the buffered ad events of the app on `database` now (tests, scripts). */
export async function flushAdEvents(database: Database): Promise<void> {
  await writers.get(database)?.flush();
}
/** Ad events the app on `database` holds in memory, not yet written (metrics). */
export const bufferedAdEvents = (database: Database): number =>
  writers.get(database)?.pendingCount ?? 0;

export const adRoutes: Module = async (app, { database, now, config, releaseUploads }) => {
  const serving = createServing({
    database,
    now,
    costPerClick: config.adsCostPerClick,
    cacheMs: config.adsServingCacheMs,
  });
  const ads = createAdService({
    database,
    now,
    onChange: serving.invalidate,
    releaseUploads,
  });
  const writer = createEventWriter({
    database,
    now,
    log: app.log,
    costPerClick: config.adsCostPerClick,
    onWritten: serving.invalidate,
  });
  const tokens = createViewerTokens(config.authSecret);
  writers.set(database, writer);
  // A moderator's reject or restore drops this app's running ads at once (ads/reportable.ts).
  const invalidate = () => serving.invalidate();
  servingInvalidators.add(invalidate);
  app.addHook('onClose', async () => {
    servingInvalidators.delete(invalidate);
    await writer.close();
    writers.delete(database);
  });

  const { tags, security, writes, read, write } = memberRoutes(app, 'advertisements', 60);
  const owner = { 401: errorSchema, 404: errorSchema };
  const viewer = (request: FastifyRequest) => request.user?.id ?? null;

  app.get(
    '/api/ads',
    {
      config: publicRead,
      schema: {
        tags,
        summary:
          'Promoted books: ads running now and within budget, newest first, 20 a page (filters genre, keyword overlap, minimum rating)',
        querystring: promotedQuerySchema,
        response: { 200: promotedPageSchema, 400: errorSchema },
      },
    },
    async (request) =>
      serving.promoted({
        genre: request.query.genre,
        keywords: request.query.keywords,
        minRating: request.query.minRating,
        page: request.query.page ?? 1,
      }),
  );

  app.get(
    '/api/ads/slot',
    {
      schema: {
        tags,
        summary:
          'Sponsored ads for a slot: running, within budget, matching the page (genre, search words) first, then rotated fairly (weighted by 1 / (1 + impressions today)); each says on whose behalf it runs and why. Served from each process’s in-memory list of running ads (ADS_SERVING_CACHE_MS)',
        querystring: adSlotQuerySchema,
        response: { 200: adSlotAnswerSchema, 400: errorSchema },
      },
    },
    async (request) => {
      const q = request.query;
      const items = await serving.slot({
        genre: q.genre,
        q: q.q,
        exclude: q.exclude,
        limit: Math.min(q.limit ?? 1, AD_SLOT_MAX),
      });
      return { items };
    },
  );

  app.get(
    '/api/ads/mine',
    read({
      summary:
        'My advertisements, newest first, 20 a page, by tab (all, active, paused, draft, expired)',
      querystring: adListQuerySchema,
      response: { 200: adListPageSchema, 400: errorSchema, 401: errorSchema },
    }),
    async (request) => {
      return ads.list(currentUser(request).id, request.query.status, request.query.page ?? 1);
    },
  );

  app.post(
    '/api/ads',
    write({
      summary: 'Create an advertisement (always a draft)',
      body: adCreateSchema,
      response: { 201: adAnswerSchema, 400: errorSchema, 401: errorSchema },
    }),
    async (request, reply) => {
      const ad = await ads.create(currentUser(request).id, request.body);
      return reply.status(201).send({ ad });
    },
  );

  app.get(
    '/api/ads/:id',
    {
      config: publicRead,
      schema: {
        tags,
        summary:
          'An advertisement with its author: anyone sees a running ad, the author their own in any status',
        params: idParams,
        response: { 200: adAnswerSchema, 404: errorSchema },
      },
    },
    async (request) => ({ ad: await ads.get(viewer(request), request.params.id) }),
  );

  app.patch(
    '/api/ads/:id',
    write({
      summary: 'Change my advertisement: only the fields sent (null clears an optional one)',
      params: idParams,
      body: adUpdateSchema,
      response: { 200: adAnswerSchema, 400: errorSchema, ...owner },
    }),
    async (request) => ({
      ad: await ads.update(currentUser(request).id, request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/ads/:id',
    write({
      summary:
        'Delete my advertisement (its events, counters and reviews go with it, and its uploaded images no listing or other ad shows)',
      params: idParams,
      response: { 204: z.null().describe('Deleted'), ...owner },
    }),
    async (request, reply) => {
      await ads.remove(currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  for (const [action, summary] of [
    ['activate', 'Activate my draft (409 otherwise, or when its end date has passed)'],
    ['pause', 'Pause my active advertisement (409 otherwise)'],
    ['resume', 'Resume my paused advertisement (409 otherwise, or when its end date has passed)'],
  ] as const) {
    app.post(
      `/api/ads/:id/${action}`,
      {
        ...writes,
        schema: {
          tags,
          security,
          summary,
          params: idParams,
          response: { 200: adAnswerSchema, ...owner, 409: errorSchema },
        },
      },
      async (request) => ({
        ad: await ads.transition(currentUser(request).id, request.params.id, action),
      }),
    );
  }

  app.post(
    '/api/ads/:id/events',
    {
      // A page sends a handful per ad; generous, but a script cannot flood the buffer.
      config: memberWriteLimit(300, '1 minute'),
      // navigator.sendBeacon sends its string as text/plain: parse it as the JSON it is.
      preValidation: async (request) => {
        if (typeof request.body !== 'string') return;
        try {
          request.body = JSON.parse(request.body);
        } catch {
          throw badRequest();
        }
      },
      schema: {
        tags,
        summary:
          'Count an impression, click or conversion (application/json or text/plain for sendBeacon). Once per viewer (the member, or the address), ad, kind and UTC day; never the author’s own or a known bot’s; written in batches. An impression answers a token that the click on the same ad must send back the same day; a click counts only after an impression by the same viewer that day, and is billed only while it fits the daily and total budgets',
        params: idParams,
        body: adEventSchema,
        response: { 202: adEventAnswerSchema, ...errorResponses(400, 404, 503) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isAdId(id)) throw adNotFound();
      const userAgent = String(request.headers['user-agent'] ?? '');
      if (isBot(userAgent)) return reply.status(202).send({ received: true });
      const { kind, placement, consent, referrer, store, token } = request.body;
      const who = viewerOf(viewer(request), request.ip);
      const day = dayOf(now());
      // A click is counted only from the viewer an impression of this ad was answered to today.
      if (kind !== 'click' || tokens.check(token, id, who, day)) {
        await writer
          .add({
            adId: id,
            kind,
            who,
            userId: viewer(request),
            placement: placement ?? null,
            store: store ?? null,
            userAgent: consent ? userAgent.slice(0, 500) : null,
            referrer: consent && referrer ? referrer : null,
            device: consent ? deviceOf(userAgent) : null,
          })
          .catch((err) => {
            // Only today's salt is read here (once a day): the database is away.
            request.log.warn({ err }, 'ad event not accepted');
            throw new AppError(503, 'unavailable', 'adsApi.errors.trackFailed');
          });
      }
      return reply
        .status(202)
        .send(
          kind === 'impression'
            ? { received: true, token: tokens.issue(id, who, day) }
            : { received: true },
        );
    },
  );

  const analyticsFor = async (
    request: FastifyRequest,
    id: string,
    timeframe: '7d' | '30d' | 'all',
  ) => {
    const me = currentUser(request).id;
    await ads.mine(me, id);
    // The author reads what was counted up to now, not up to the last timed flush.
    await writer.flush();
    const ad = await ads.mine(me, id);
    return analyticsOf(database, ad, timeframe, ads.today(), config.adsCostPerClick);
  };

  app.get(
    '/api/ads/:id/analytics',
    read({
      summary:
        'Analytics of my advertisement: impressions, clicks, click rate, conversions, conversion rate, cost, a series per day and the 20 most recent events',
      params: idParams,
      querystring: adAnalyticsQuerySchema,
      response: { 200: adAnalyticsSchema, 400: errorSchema, ...owner },
    }),
    async (request) => {
      return analyticsFor(request, request.params.id, request.query.timeframe);
    },
  );

  app.get(
    '/api/ads/:id/analytics.csv',
    read({
      summary: 'The same analytics as CSV, one row a day',
      params: idParams,
      querystring: adAnalyticsQuerySchema,
      produces: ['text/csv'],
      response: {
        200: z
          .string()
          .describe('date,impressions,clicks,click_rate,conversions,conversion_rate,cost,currency'),
        400: errorSchema,
        ...owner,
      },
    }),
    async (request, reply) => {
      const analytics = await analyticsFor(request, request.params.id, request.query.timeframe);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="ad-${analytics.adId}-${analytics.timeframe}.csv"`,
        )
        .send(analyticsCsv(analytics));
    },
  );

  app.get(
    '/api/ads/:id/reviews',
    {
      config: publicRead,
      schema: {
        tags,
        summary: 'Reviews of an advertised book, newest first, 10 a page',
        params: idParams,
        querystring: adReviewsQuerySchema,
        response: { 200: adReviewPageSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => ads.reviews(viewer(request), request.params.id, request.query.page ?? 1),
  );

  app.post(
    '/api/ads/:id/reviews',
    write({
      summary:
        'Rate an advertised book 1 to 5 with a text, once per reader (409 the second time; 403 for its author)',
      params: idParams,
      body: adReviewSchema,
      response: { 201: adReviewCreatedSchema, ...errorResponses(400, 401, 403, 404, 409) },
    }),
    async (request, reply) => {
      const review = await ads.review(
        currentUser(request).id,
        request.params.id,
        request.body.rating,
        request.body.text,
      );
      return reply.status(201).send({ review });
    },
  );
};
