import { z } from 'zod';
import type { Module } from '../../platform/module';
import { idParam, memberWriteLimit } from '../../platform/route-presets';
import { pageQuerySchema } from '@shared/moderation';
import {
  createReviewSchema,
  editReviewSchema,
  reviewPageSchema,
  reviewSchema,
  tradePageSchema,
} from '@shared/reviews';
import { currentUser } from '../../platform/auth';
import { errorSchema, errorResponses } from '../../platform/errors';
import { publicRead } from '../../platform/http-cache';
import { createReviewService } from './service';
import { confirmationRoutes } from './confirmations';
import {
  createPublishedReviewsJob,
  defineReviewNotifications,
  REVIEWS_PUBLISHED_JOB,
  REVIEWS_PUBLISHED_JOB_MS,
  tellAboutReview,
} from './notifications';
import { scheduleJob } from '../../platform/jobs';

const tags = ['reviews'];
const security = [{ session: [] }];

export const reviewRoutes: Module = async (app, deps) => {
  const { database, now, notifications } = deps;
  const reviews = createReviewService({ database, now });
  await confirmationRoutes(app, deps);
  defineReviewNotifications(notifications, database);
  // A review written alone is published 14 days after the sale: both parties are told then.
  scheduleJob(app, deps, {
    name: REVIEWS_PUBLISHED_JOB,
    everyMs: REVIEWS_PUBLISHED_JOB_MS,
    run: createPublishedReviewsJob(database, notifications),
  });
  const writes = {
    preHandler: app.requireUser,
    config: memberWriteLimit(30, '1 minute'),
  };

  app.post(
    '/api/reviews',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary:
          'Review the other party of a completed transaction of mine (once per transaction, within 14 days of its completion; 1–5 stars, up to 1,000 characters). Double-blind: hidden from everyone but me until the other party has written theirs (both are then published together) or the 14 days are over',
        body: createReviewSchema,
        response: { 201: reviewSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { review, publishedTogether } = await reviews.create(
        currentUser(request).id,
        request.body,
      );
      await tellAboutReview(
        notifications,
        {
          transactionId: review.transactionId,
          authorId: review.author.id,
          subjectId: review.subjectId,
        },
        publishedTogether,
      );
      return reply.status(201).send(review);
    },
  );

  app.patch(
    '/api/reviews/:id',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary:
          'Edit my review (only the fields sent), within 14 days of writing it and while it is not published',
        params: idParam('id'),
        body: editReviewSchema,
        response: { 200: reviewSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => reviews.edit(currentUser(request).id, request.params.id, request.body),
  );

  app.get(
    '/api/users/:id/reviews',
    {
      config: publicRead,
      schema: {
        tags,
        summary:
          "A member's published reviews, newest first, and their average (a review waiting for the other party's is in neither)",
        params: idParam('id'),
        querystring: pageQuerySchema,
        response: { 200: reviewPageSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => reviews.forMember(request.params.id, request.query.page ?? 1),
  );

  app.get(
    '/api/reviews/trades',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        security,
        summary:
          'My completed transactions (of one listing with listingId), newest first, with the review I wrote for each (pending or published), the other party’s once published, and whether theirs waits for mine',
        querystring: pageQuerySchema.extend({ listingId: z.string().max(64).optional() }),
        response: { 200: tradePageSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => {
      const { page, listingId } = request.query;
      return reviews.myTrades(currentUser(request).id, page ?? 1, listingId);
    },
  );
};
