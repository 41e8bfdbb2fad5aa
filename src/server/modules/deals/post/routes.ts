import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  giveAddressSchema,
  postWindowEnd,
  problemInputSchema,
  shipInputSchema,
  type PostalAddress,
} from '@shared/schemas/dealPost';
import { currentUser } from '../../../platform/auth';
import { conflict, notFound } from '../../../platform/errors';
import { idParam, memberRoutes } from '../../../platform/route-presets';
import type { Query } from '../../../db/tx';
import type { DealContext } from '../context';
import type { DealFacts } from '../parts';
import { ownAddress } from './addresses';
import { completePostDeal, loadCase, loadParcel, type ParcelRow } from './state';
import { postStep, stepResponses } from './steps';

const params = idParam('dealId');

/** The parcel must have left (409 otherwise), and no case be open. */
async function shippedParcel(q: Query, deal: DealFacts): Promise<ParcelRow> {
  const parcel = await loadParcel(q, deal.id, true);
  if (!parcel?.shipped_at) throw conflict('deals.post.errors.notShipped');
  if (await loadCase(q, deal.id)) throw conflict('deals.post.errors.caseOpen');
  return parcel;
}

/** The buyer's and the seller's steps of a deal by post (decision 0074). */
export function registerPostRoutes(parent: FastifyInstance, ctx: DealContext) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { write } = memberRoutes(app, 'deals', 60);
  const now = () => ctx.now();

  app.post(
    '/api/deals/:dealId/address',
    write({
      summary: 'Buyer: give the shipping address (a saved one, copied, or one typed here)',
      description:
        'Until the parcel is shipped (409 after); a later edit of the saved address does not change the deal’s copy. Only the seller of this deal sees it, while the deal is open.',
      params,
      body: giveAddressSchema,
      response: stepResponses,
    }),
    async (request) => {
      const me = currentUser(request).id;
      const body = request.body;
      return postStep(ctx, request.params.dealId, me, ['buyer'], async (q, deal) => {
        let address: PostalAddress;
        if ('addressId' in body) {
          const saved = await ownAddress(q, me, body.addressId);
          if (!saved) throw notFound('deals.post.errors.addressNotFound');
          address = saved;
        } else address = body.address as PostalAddress;
        const parcel = await loadParcel(q, deal.id, true);
        if (parcel?.shipped_at) throw conflict('deals.post.errors.alreadyShipped');
        await q(
          `insert into deal_posts (deal_id, address, address_given_at) values ($1, $2, $3)
           on conflict (deal_id) do update set address = excluded.address,
             address_given_at = excluded.address_given_at`,
          [deal.id, JSON.stringify(address), now()],
        );
        return {
          steps: [{ senderId: me, code: 'post.address_given' }],
          notices: ctx.notice(deal, 'post.address_given', me),
        };
      });
    },
  );

  app.post(
    '/api/deals/:dealId/ship',
    write({
      summary: 'Seller: mark the parcel shipped, with the carrier and tracking number',
      description:
        'Once the buyer gave the address (409 before), and once (409 again). Tracking: letters, digits and dashes, at most 40. Opens the buyer’s 14-day window.',
      params,
      body: shipInputSchema,
      response: stepResponses,
    }),
    async (request) => {
      const me = currentUser(request).id;
      const { carrier, tracking } = request.body;
      return postStep(ctx, request.params.dealId, me, ['seller'], async (q, deal) => {
        const parcel = await loadParcel(q, deal.id, true);
        if (!parcel) throw conflict('deals.post.errors.noAddress');
        if (parcel.shipped_at) throw conflict('deals.post.errors.alreadyShipped');
        // With in-app payments the parcel leaves once the buyer has paid (modules/payments).
        await ctx.changes.emit('deal.shipping', { q, dealId: deal.id });
        const at = now();
        await q(
          `update deal_posts set carrier = $2, tracking = $3, shipped_at = $4, window_ends_at = $5
           where deal_id = $1`,
          [deal.id, carrier, tracking, at, postWindowEnd(at, null)],
        );
        return {
          steps: [{ senderId: me, code: 'post.shipped' }],
          notices: ctx.notice(deal, 'post.shipped', me, { tracking }),
        };
      });
    },
  );

  app.post(
    '/api/deals/:dealId/received',
    write({
      summary: 'Buyer: the parcel arrived (2 days left to report a problem, at most)',
      description:
        'After shipping (409 before), once. The window then closes 2 days later, or 14 days after shipping if sooner; the deal completes by itself then.',
      params,
      response: stepResponses,
    }),
    async (request) => {
      const me = currentUser(request).id;
      return postStep(ctx, request.params.dealId, me, ['buyer'], async (q, deal) => {
        const parcel = await shippedParcel(q, deal);
        if (parcel.received_at) throw conflict('deals.post.errors.alreadyReceived');
        const at = now();
        await q('update deal_posts set received_at = $2, window_ends_at = $3 where deal_id = $1', [
          deal.id,
          at,
          postWindowEnd(new Date(parcel.shipped_at!), at),
        ]);
        return {
          steps: [{ senderId: me, code: 'post.received' }],
          notices: ctx.notice(deal, 'post.received', me),
        };
      });
    },
  );

  app.post(
    '/api/deals/:dealId/confirm',
    write({
      summary: 'Buyer: all is fine, the deal completes now',
      description: 'After shipping (409 before), while no problem’s case is open.',
      params,
      response: stepResponses,
    }),
    async (request) => {
      const me = currentUser(request).id;
      return postStep(ctx, request.params.dealId, me, ['buyer'], async (q, deal) => {
        await shippedParcel(q, deal);
        const listings = await completePostDeal(q, deal);
        return {
          steps: [{ senderId: me, code: 'post.confirmed' }],
          listings,
          notices: ctx.notice(deal, 'post.confirmed', me),
        };
      });
    },
  );

  app.post(
    '/api/deals/:dealId/problem',
    write({
      summary:
        'Buyer: report a problem (not arrived, not as described, damaged): opens a case for the admins',
      description:
        'After shipping and until the window closes (409 otherwise), once per deal. The deal then waits for an admin’s outcome.',
      params,
      body: problemInputSchema,
      response: stepResponses,
    }),
    async (request) => {
      const me = currentUser(request).id;
      const { reason, message } = request.body;
      return postStep(ctx, request.params.dealId, me, ['buyer'], async (q, deal) => {
        const parcel = await shippedParcel(q, deal);
        const at = now();
        if (!parcel.window_ends_at || new Date(parcel.window_ends_at) <= at)
          throw conflict('deals.post.errors.windowClosed');
        await q(
          `insert into deal_cases (deal_id, reason, opened_by, opened_at) values ($1, $2, $3, $4)`,
          [deal.id, reason, me, at],
        );
        await q(
          `insert into deal_case_messages (deal_id, author_id, body, created_at)
           values ($1, $2, $3, $4)`,
          [deal.id, me, message, at],
        );
        // The deal no longer completes by itself: an admin decides.
        await q('update deal_posts set window_ends_at = null where deal_id = $1', [deal.id]);
        return {
          steps: [{ senderId: me, code: 'post.problem' }],
          notices: ctx.notice(deal, 'post.problem', me, { reason }),
        };
      });
    },
  );
}
