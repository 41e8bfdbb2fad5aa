import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Module } from '../../platform/module';
import {
  ADMIN_LOG_PAGE_SIZE,
  ADMIN_QUEUE_PAGE_SIZE,
  actionAnswerSchema,
  logPageSchema,
  moderationReasonSchema,
  pageQuerySchema,
  queuePageSchema,
  reportAnswerSchema,
  reportKindSchema,
  reportSchema,
  suspendedListSchema,
} from '@shared/moderation';
import { currentUser } from '../../platform/auth';
import { errorSchema, errorResponses } from '../../platform/errors';
import { requestLanguage } from '../../platform/i18n';
import { adminOnly as adminsOnly } from '../../platform/moderation';
import { createModerationService } from './service';
import { startAdminControl } from './control';

const perReporter = (request: FastifyRequest) => request.user?.id ?? request.ip;
const itemParams = z.object({ kind: reportKindSchema, id: z.string().min(1).max(64) });
const memberParams = z.object({ id: z.string().min(1).max(64) });
const suspendBody = moderationReasonSchema.extend({
  kind: reportKindSchema.optional(),
  itemId: z.string().max(64).optional(),
});

export const moderationRoutes: Module = async (app, deps) => {
  const { database, config } = deps;
  const moderation = createModerationService({
    database,
    mailer: deps.mailer,
    realtime: deps.realtime,
    publicUrl: config.publicUrl,
    log: app.log,
    notifications: deps.notifications,
    listingChanges: deps.listingChanges,
  });
  await startAdminControl(app, deps);

  app.post(
    '/api/reports',
    {
      config: {
        // Visitors (by address) far fewer than members.
        rateLimit: {
          max: (request: FastifyRequest) => (request.user ? 30 : 5),
          timeWindow: '10 minutes',
          keyGenerator: perReporter,
        },
      },
      schema: {
        tags: ['moderation'],
        summary:
          'Report an item (listing, profile, message, …). Members: any reason; visitors: illegal content only, with name and e-mail. One open report per reporter and item.',
        body: reportSchema,
        response: { 201: reportAnswerSchema, ...errorResponses(400, 401, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const answer = await moderation.report(request.user, request.body, requestLanguage(request));
      return reply.status(201).send(answer);
    },
  );

  // Every admin route: 401 for visitors, 404 for members who are not admins (as if absent),
  // checked before the input is, so a bad request reveals nothing either.
  const adminOnly = adminsOnly((text, params) => database.query(text, params));
  const moderator = (request: FastifyRequest) => {
    const user = currentUser(request);
    return { id: user.id, email: user.email };
  };
  const tags = ['admin'];
  const security = [{ session: [] }];
  const errors = { 401: errorSchema, 404: errorSchema };
  const writes = { preValidation: adminOnly };

  app.get(
    '/api/admin/me',
    {
      preValidation: adminOnly,
      schema: {
        tags,
        security,
        summary:
          "Whether I am an admin: 200 for admins (the web shows admins' actions), 404 otherwise",
        response: { 200: z.object({ admin: z.literal(true) }), ...errors },
      },
    },
    async () => {
      return { admin: true as const };
    },
  );

  app.get(
    '/api/admin/reports',
    {
      preValidation: adminOnly,
      schema: {
        tags,
        security,
        summary: 'The queue: open reports grouped by item, each item as its readers see it',
        querystring: pageQuerySchema,
        response: { 200: queuePageSchema, 400: errorSchema, ...errors },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const { items, total } = await moderation.queue(page);
      return { items, total, page, pageSize: ADMIN_QUEUE_PAGE_SIZE };
    },
  );

  for (const action of ['dismiss', 'hide', 'restore', 'reject'] as const) {
    app.post(
      `/api/admin/items/:kind/:id/${action}`,
      {
        ...writes,
        schema: {
          tags,
          security,
          summary:
            action === 'dismiss'
              ? "Dismiss an item's open reports"
              : action === 'hide'
                ? 'Hide an item for everyone (its open reports are closed; its author gets the statement of reasons). An ad is rejected instead.'
                : action === 'reject'
                  ? 'Reject an advertisement: never served again, its author sees the reason and gets the statement of reasons (400 for kinds that cannot be rejected)'
                  : 'Restore a hidden item, or bring a rejected ad back as paused (its author is told)',
          params: itemParams,
          body: moderationReasonSchema,
          response: { 200: actionAnswerSchema, 400: errorSchema, ...errors },
        },
      },
      async (request) => {
        await moderation.actOnItem(
          moderator(request),
          action,
          request.params.kind,
          request.params.id,
          request.body.reason,
        );
        return { ok: true as const };
      },
    );
  }

  app.post(
    '/api/admin/members/:id/suspend',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary:
          'Suspend a member: sessions end, sign-in is refused, they disappear from every list; the statement of reasons is e-mailed',
        params: memberParams,
        body: suspendBody,
        response: { 200: actionAnswerSchema, 400: errorSchema, 409: errorSchema, ...errors },
      },
    },
    async (request) => {
      const { reason, kind, itemId } = request.body;
      await moderation.suspend(moderator(request), request.params.id, reason, { kind, itemId });
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/members/:id/unsuspend',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'End a suspension (the member is told)',
        params: memberParams,
        body: moderationReasonSchema,
        response: { 200: actionAnswerSchema, 400: errorSchema, 409: errorSchema, ...errors },
      },
    },
    async (request) => {
      await moderation.unsuspend(moderator(request), request.params.id, request.body.reason);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/members/suspended',
    {
      preValidation: adminOnly,
      schema: {
        tags,
        security,
        summary: 'Suspended members, most recent first',
        response: { 200: suspendedListSchema, ...errors },
      },
    },
    async () => {
      return moderation.suspended();
    },
  );

  app.get(
    '/api/admin/log',
    {
      preValidation: adminOnly,
      schema: {
        tags,
        security,
        summary: 'The audit log of every moderation action, newest first (nobody can edit it)',
        querystring: pageQuerySchema,
        response: { 200: logPageSchema, 400: errorSchema, ...errors },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const { items, hasMore } = await moderation.auditLog(page);
      return { items, hasMore, page, pageSize: ADMIN_LOG_PAGE_SIZE };
    },
  );
};
