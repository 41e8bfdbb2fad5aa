import type { Module } from '../../platform/module';
import { memberRoutes } from '../../platform/route-presets';
import {
  blockParamsSchema,
  blockStateSchema,
  blockedPageSchema,
  blocksQuerySchema,
} from '@shared/blocks';
import { currentUser } from '../../platform/auth';
import { errorSchema, errorResponses } from '../../platform/errors';
import { createBlockService } from './service';

export const blockRoutes: Module = async (app, { database, realtime, notifications }) => {
  const blocks = createBlockService({ database, realtime, notifications, log: app.log });
  const { read, write } = memberRoutes(app, 'blocks', 60);

  app.get(
    '/api/blocks',
    read({
      summary: 'The members I blocked, most recent first (20 a page)',
      querystring: blocksQuerySchema,
      response: { 200: blockedPageSchema, 400: errorSchema, 401: errorSchema },
    }),
    async (request) => {
      return blocks.list(currentUser(request).id, request.query.page ?? 1);
    },
  );

  app.get(
    '/api/blocks/:userId',
    read({
      summary: 'Whether I blocked this member (never whether they blocked me)',
      params: blockParamsSchema,
      response: { 200: blockStateSchema, 400: errorSchema, 401: errorSchema },
    }),
    async (request) => {
      return blocks.state(currentUser(request).id, request.params.userId);
    },
  );

  app.put(
    '/api/blocks/:userId',
    write({
      summary:
        'Block a member (idempotent). Both ways, until unblocked: no direct messages, friend requests, offers, comments or reactions between us, and neither sees the other’s listings, posts, comments or name in member search. A friendship or pending request between us ends, and our open offers on each other’s listings close (mine withdrawn, theirs declined). The member is not told.',
      params: blockParamsSchema,
      response: { 200: blockStateSchema, ...errorResponses(400, 401, 404, 429) },
    }),
    async (request) => blocks.block(currentUser(request).id, request.params.userId),
  );

  app.delete(
    '/api/blocks/:userId',
    write({
      summary: 'Unblock a member (idempotent: nothing happens when I had not blocked them)',
      params: blockParamsSchema,
      response: { 200: blockStateSchema, 400: errorSchema, 401: errorSchema, 429: errorSchema },
    }),
    async (request) => blocks.unblock(currentUser(request).id, request.params.userId),
  );
};
