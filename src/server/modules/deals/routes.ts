import {
  dealAnswerSchema,
  dealsPageSchema,
  dealsQuerySchema,
  DEALS_PAGE_SIZE,
} from '@shared/schemas/deals';
import { isUuid } from '@shared/schemas/common';
import type { Module } from '../../platform/module';
import { idParam, memberRoutes } from '../../platform/route-presets';
import { currentUser } from '../../platform/auth';
import { conflict, errorResponses } from '../../platform/errors';
import { defineRoomNotification } from '../chats';
import { cancelDeal, dealNotFound, DEAL_STEP_NOTIFICATION, loadDeal } from './context';
import { moduleDealContext } from './module-context';
import { listDeals, readDeal, viewerOf } from './read';
import { registerPost } from './post';
import { registerMeetings } from './meetings';

const dealParams = idParam('dealId');

/**
 * Deals (issue 22, decision 0072): an accepted offer carried to its end. The core reads a
 * member's deals and one deal, and cancels an open one; sale by post (./post) and meetings
 * (./meetings) add their steps.
 */
export const dealRoutes: Module = async (app, deps) => {
  const { now, notifications } = deps;
  // The deals' changes reach the chat cards, the wishlist and payments through deps.changes.
  const ctx = moduleDealContext(app, deps);
  const { query, parts } = ctx;
  // Each step tells the other side, live and (unless they turn it off) in the e-mail digest;
  // like an offer's, it opens the conversation.
  defineRoomNotification(notifications, query, DEAL_STEP_NOTIFICATION, {
    inApp: true,
    email: true,
  });

  const { read, write } = memberRoutes(app, 'deals', 60);

  app.get(
    '/api/deals',
    read({
      summary: 'My deals (as buyer or seller), newest first, paged',
      querystring: dealsQuerySchema,
      response: { 200: dealsPageSchema, ...errorResponses(400, 401) },
    }),
    async (request) => {
      const { page = 1, status, role } = request.query;
      const { items, total } = await listDeals(query, currentUser(request).id, {
        page,
        status,
        role,
      });
      return { items, page, pageSize: DEALS_PAGE_SIZE, total };
    },
  );

  app.get(
    '/api/deals/:dealId',
    read({
      summary: 'One deal: its books, total, method and the state of its steps',
      description:
        'Only its buyer and seller (and admins, for a problem’s case) may read it: anyone else gets 404, as for a missing deal.',
      params: dealParams,
      response: { 200: dealAnswerSchema, ...errorResponses(401, 404) },
    }),
    async (request) => {
      const deal = await readDeal(
        query,
        request.params.dealId,
        currentUser(request).id,
        parts,
        now(),
      );
      if (!deal) throw dealNotFound();
      return { deal };
    },
  );

  app.post(
    '/api/deals/:dealId/cancel',
    write({
      summary: 'Cancel an open deal: its books are available again',
      description:
        'Either side, while the deal is open and its method allows (not once a parcel is shipped or an exchange confirmed: 409). Others get 404.',
      params: dealParams,
      response: { 200: dealAnswerSchema, ...errorResponses(401, 404, 409) },
    }),
    async (request) => {
      const me = currentUser(request).id;
      const { dealId } = request.params;
      const found = isUuid(dealId) ? await loadDeal(query, dealId) : null;
      if (!found) throw dealNotFound();
      await ctx.change(dealId, async (q, deal) => {
        const viewer = await viewerOf(q, deal, me, parts[deal.method]);
        if (!viewer || viewer.role === 'admin') throw dealNotFound();
        if (deal.status !== 'open') throw conflict('deals.errors.notOpen');
        const refusal = await parts[deal.method].cancelRefusal(q, deal, viewer);
        if (refusal) throw conflict(refusal);
        const listings = await cancelDeal(q, deal);
        const message = await ctx.step(q, deal, me, 'deal.cancelled');
        return {
          result: null,
          messages: [message],
          listings,
          notices: ctx.notice(deal, 'deal.cancelled', me),
        };
      });
      return { deal: (await readDeal(query, dealId, me, parts, now()))! };
    },
  );

  registerPost(app, ctx, deps);
  registerMeetings(app, ctx);
};
