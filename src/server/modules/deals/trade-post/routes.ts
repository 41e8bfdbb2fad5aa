import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  giveAddressSchema,
  problemInputSchema,
  shipInputSchema,
  type PostalAddress,
} from '@shared/schemas/dealPost';
import { currentUser } from '../../../platform/auth';
import { conflict, notFound } from '../../../platform/errors';
import { idParam, memberRoutes } from '../../../platform/route-presets';
import { completeDeal, type DealContext } from '../context';
import type { DealFacts } from '../parts';
import { ownAddress } from '../post/addresses';
import { loadCase } from '../post/state';
import { postStep, stepResponses } from '../post/steps';
import { loadParcels, otherMember } from './state';

const params = idParam('dealId');
const TRADES: DealFacts['kind'][] = ['trade'];
const MEMBERS = ['buyer', 'seller'] as ('buyer' | 'seller')[];

/**
 * The steps of a trade by post (decision 0090), each by either member for their own side: give the
 * address the other's parcel comes to, ship one's own parcel once that address is known, confirm
 * the other's parcel arrived (both confirmed: the trade completes), report a problem once a parcel
 * left. A sale by post's routes answer 404 for a trade, these 404 for a sale.
 */
export function registerTradePostRoutes(parent: FastifyInstance, ctx: DealContext) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { tags, security, writes } = memberRoutes(app, 'deals', 60);
  /** A member's step on their own side of a trade by post (../post/steps.ts postStep). */
  const tradeStep = (dealId: string, me: string, work: Parameters<typeof postStep>[4]) =>
    postStep(ctx, dealId, me, MEMBERS, work, TRADES);
  const schema = (summary: string, description: string) => ({
    tags,
    security,
    summary,
    description,
    params,
    response: stepResponses,
  });

  app.post(
    '/api/deals/:dealId/trade/address',
    {
      ...writes,
      schema: {
        ...schema(
          'Trade by post: give the address the other member’s parcel comes to',
          'Either member of an open trade by post, until the other member’s parcel is shipped (409 after); a saved address (copied) or one typed here. Only the other member sees it, while the trade is open. An admin gets 403; anyone else, or a deal that is no trade by post, 404.',
        ),
        body: giveAddressSchema,
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      const body = request.body;
      return tradeStep(request.params.dealId, me, async (q, deal) => {
        let address: PostalAddress;
        if ('addressId' in body) {
          const saved = await ownAddress(q, me, body.addressId);
          if (!saved) throw notFound('deals.post.errors.addressNotFound');
          address = saved;
        } else address = body.address as PostalAddress;
        const sender = otherMember(deal, me);
        const parcel = (await loadParcels(q, deal.id, true)).get(sender);
        if (parcel?.shipped_at) throw conflict('deals.tradePost.errors.theyShipped');
        await q(
          `insert into deal_trade_parcels (deal_id, sender_id, address, address_given_at)
             values ($1, $2, $3, $4)
             on conflict (deal_id, sender_id) do update set address = excluded.address,
               address_given_at = excluded.address_given_at`,
          [deal.id, sender, JSON.stringify(address), ctx.now()],
        );
        return {
          steps: [{ senderId: me, code: 'trade_post.address_given' }],
          notices: ctx.notice(deal, 'trade_post.address_given', me),
        };
      });
    },
  );

  app.post(
    '/api/deals/:dealId/trade/ship',
    {
      ...writes,
      schema: {
        ...schema(
          'Trade by post: mark my parcel shipped, with the carrier and tracking number',
          'Either member, once the other member gave their address (409 before), once (409 again). Tracking: letters, digits and dashes, at most 40. When both parcels have left, the trade completes by itself 14 days after the later one unless a problem is reported.',
        ),
        body: shipInputSchema,
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      const { carrier, tracking } = request.body;
      return tradeStep(request.params.dealId, me, async (q, deal) => {
        const mine = (await loadParcels(q, deal.id, true)).get(me);
        if (!mine?.address) throw conflict('deals.tradePost.errors.noAddress');
        if (mine.shipped_at) throw conflict('deals.tradePost.errors.alreadyShipped');
        await q(
          `update deal_trade_parcels set carrier = $3, tracking = $4, shipped_at = $5
             where deal_id = $1 and sender_id = $2`,
          [deal.id, me, carrier, tracking, ctx.now()],
        );
        return {
          steps: [{ senderId: me, code: 'trade_post.shipped' }],
          notices: ctx.notice(deal, 'trade_post.shipped', me, { tracking }),
        };
      });
    },
  );

  app.post(
    '/api/deals/:dealId/trade/received',
    {
      ...writes,
      schema: schema(
        'Trade by post: the other member’s parcel arrived; the second confirmation completes the trade',
        'Either member, after the other member’s parcel was shipped (409 before), once (409 again), while no problem’s case is open (409). When both members have confirmed, the trade completes: one trade transaction, every book traded.',
      ),
    },
    async (request) => {
      const me = currentUser(request).id;
      return tradeStep(request.params.dealId, me, async (q, deal) => {
        const parcels = await loadParcels(q, deal.id, true);
        const incoming = parcels.get(otherMember(deal, me));
        if (!incoming?.shipped_at) throw conflict('deals.tradePost.errors.notShipped');
        if (incoming.received_at) throw conflict('deals.tradePost.errors.alreadyReceived');
        if (await loadCase(q, deal.id)) throw conflict('deals.post.errors.caseOpen');
        await q(
          `update deal_trade_parcels set received_at = $3 where deal_id = $1 and sender_id = $2`,
          [deal.id, otherMember(deal, me), ctx.now()],
        );
        const steps = [{ senderId: me, code: 'trade_post.received' }];
        if (!parcels.get(me)?.received_at)
          return { steps, notices: ctx.notice(deal, 'trade_post.received', me) };
        const listings = await completeDeal(q, deal);
        steps.push({ senderId: me, code: 'deal.completed' });
        return { steps, listings, notices: ctx.notice(deal, 'deal.completed', me) };
      });
    },
  );

  app.post(
    '/api/deals/:dealId/trade/problem',
    {
      ...writes,
      schema: {
        ...schema(
          'Trade by post: report a problem (not arrived, not as described, damaged): opens a case for the admins',
          'Either member, once a parcel has left (409 before), once per trade (409 again). The trade then no longer completes by itself: an admin decides (completed or cancelled), as for a sale by post.',
        ),
        body: problemInputSchema,
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      const { reason, message } = request.body;
      return tradeStep(request.params.dealId, me, async (q, deal) => {
        const parcels = await loadParcels(q, deal.id, true);
        if (![...parcels.values()].some((p) => p.shipped_at))
          throw conflict('deals.tradePost.errors.nothingShipped');
        if (await loadCase(q, deal.id)) throw conflict('deals.post.errors.caseOpen');
        const at = ctx.now();
        await q(
          `insert into deal_cases (deal_id, reason, opened_by, opened_at) values ($1, $2, $3, $4)`,
          [deal.id, reason, me, at],
        );
        await q(
          `insert into deal_case_messages (deal_id, author_id, body, created_at)
             values ($1, $2, $3, $4)`,
          [deal.id, me, message, at],
        );
        return {
          steps: [{ senderId: me, code: 'post.problem' }],
          notices: ctx.notice(deal, 'post.problem', me, { reason }),
        };
      });
    },
  );
}
