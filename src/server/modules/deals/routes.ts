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
import { conflict, errorSchema } from '../../platform/errors';
import { moduleChatContext } from '../chats/context';
import { queryOf } from '../chats/queries';
import { defineRoomNotification } from '../chats/notifications';
import {
  cancelDeal,
  createDealContext,
  dealNotFound,
  DEAL_STEP_NOTIFICATION,
  loadDeal,
} from './context';
import { listDeals, readDeal, viewerOf } from './read';
import { postPart } from './post';
import { meetingPart } from './meetings';
import type { DealParts } from './parts';
import { createWishlistAlerts } from '../wishlist/alerts';

const dealParams = idParam('dealId');
const parts: DealParts = { post: postPart, hand: meetingPart };

/**
 * Deals (issue 22, decision 0072): an accepted offer carried to its end. The core reads a
 * member's deals and one deal, and cancels an open one; sale by post (./post) and meetings
 * (./meetings) add their steps.
 */
export const dealRoutes: Module = async (app, deps) => {
  const { database, realtime, now, notifications, listingChanges } = deps;
  const query = queryOf(database);
  const chat = moduleChatContext(app, deps);
  const ctx = createDealContext({
    database,
    query,
    chat,
    realtime,
    notifications,
    listingChanges,
    now,
    log: app.log,
    wishlist: createWishlistAlerts({ ...deps, log: app.log }),
  });
  // Each step tells the other side, live and (unless they turn it off) in the e-mail digest;
  // like an offer's, it opens the conversation.
  defineRoomNotification(notifications, query, DEAL_STEP_NOTIFICATION, {
    inApp: true,
    email: true,
  });

  const { tags, security, signedIn, writes } = memberRoutes(app, 'deals', 60);

  app.get(
    '/api/deals',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'My deals (as buyer or seller), newest first, paged',
        querystring: dealsQuerySchema,
        response: { 200: dealsPageSchema, 400: errorSchema, 401: errorSchema },
      },
    },
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
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'One deal: its books, total, method and the state of its steps',
        description:
          'Only its buyer and seller (and admins, for a problem’s case) may read it: anyone else gets 404, as for a missing deal.',
        params: dealParams,
        response: { 200: dealAnswerSchema, 401: errorSchema, 404: errorSchema },
      },
    },
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
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Cancel an open deal: its books are available again',
        description:
          'Either side, while the deal is open and its method allows (not once a parcel is shipped or an exchange confirmed: 409). Others get 404.',
        params: dealParams,
        response: { 200: dealAnswerSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
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

  await parts.post.register(app, ctx, deps);
  await parts.hand.register(app, ctx, deps);
};
