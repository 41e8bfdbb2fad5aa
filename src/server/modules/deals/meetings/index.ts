import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  meetingAcceptSchema,
  meetingProposalSchema,
  meetingTimeProblem,
} from '@shared/schemas/dealMeeting';
import { isUuid } from '@shared/schemas/common';
import type { Query } from '../../../db/tx';
import { currentUser } from '../../../platform/auth';
import { conflict, forbidden, validationFailed } from '../../../platform/errors';
import { stepResponses } from '../parts';
import { idParam, memberRoutes } from '../../../platform/route-presets';
import type { ModuleApp } from '../../../platform/module';
import { completeDeal, dealNotFound, dealNotOpen, loadDeal, type DealContext } from '../context';
import type { DealFacts, DealViewer } from '../parts';
import { readDeal } from '../read';
import { confirmations, currentMeeting, sideOf } from './part';

/** Hand to hand (./part.ts): its steps' routes. */

const dealParams = idParam('dealId');

/** The meeting steps' routes, registered by the deals module (../routes.ts). */
export function registerMeetings(parent: FastifyInstance, ctx: DealContext) {
  const app: ModuleApp = parent.withTypeProvider<ZodTypeProvider>();
  const { query, now, parts } = ctx;
  const { tags, security, writes } = memberRoutes(app, 'deals', 60);

  /**
   * Runs a meeting step of deal `dealId` for `me`, one of its sides: the deal locked and open,
   * by hand. Anyone else gets 404, as for a missing deal. Answers the deal as it is now.
   */
  async function meetingStep(
    dealId: string,
    me: string,
    work: (
      q: Query,
      deal: DealFacts,
      viewer: DealViewer,
    ) => Promise<{
      messages: (string | null)[];
      listings?: string[];
      notices: ReturnType<DealContext['notice']>;
    }>,
  ) {
    const found = isUuid(dealId) ? await loadDeal(query, dealId) : null;
    if (!found || (found.buyerId !== me && found.sellerId !== me)) throw dealNotFound();
    await ctx.change(dealId, async (q, deal) => {
      if (deal.status !== 'open') throw dealNotOpen();
      if (deal.method !== 'hand') throw conflict('deals.meeting.errors.notHand');
      const outcome = await work(q, deal, { id: me, role: sideOf(deal, me) });
      return { result: null, ...outcome };
    });
    return { deal: (await readDeal(query, dealId, me, parts, now()))! };
  }

  app.post(
    '/api/deals/:dealId/meeting',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Propose a meeting (place and time) for a deal by hand, or another in its place',
        description:
          'Either side of an open hand-to-hand deal. The time must be in the future and at most 90 days ahead (400). A new proposal replaces the open or accepted one (step meeting.countered); refused once a side has confirmed the exchange (409). Others get 404.',
        params: dealParams,
        body: meetingProposalSchema,
        response: stepResponses,
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      const { place, note, at } = request.body;
      const when = new Date(at);
      const problem = meetingTimeProblem(when, now());
      if (problem) throw validationFailed({ at: `deals.meeting.errors.${problem}` });
      return meetingStep(request.params.dealId, me, async (q, deal) => {
        if ((await confirmations(q, deal.id)).size > 0)
          throw conflict('deals.meeting.errors.confirmedNoChange');
        const replaced = await q<{ id: string }>(
          `update deal_meetings set status = 'replaced', answered_at = $2
           where deal_id = $1 and status in ('open', 'accepted') returning id`,
          [deal.id, now()],
        );
        await q(
          `insert into deal_meetings (deal_id, proposed_by, place, note, meet_at, created_at)
           values ($1, $2, $3, $4, $5, $6)`,
          [deal.id, me, place, note ? note : null, when, now()],
        );
        const code = replaced.length ? 'meeting.countered' : 'meeting.proposed';
        return {
          messages: [await ctx.step(q, deal, me, code)],
          notices: ctx.notice(deal, code, me, { place }),
        };
      });
    },
  );

  app.post(
    '/api/deals/:dealId/meeting/accept',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Accept the other side’s proposed meeting',
        description:
          'The side that did not propose it (403 for the proposer). The meeting must be the open proposal (409 when it was replaced or already answered) and its time still ahead (409). Others get 404.',
        params: dealParams,
        body: meetingAcceptSchema,
        response: stepResponses,
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      const { meetingId } = request.body;
      return meetingStep(request.params.dealId, me, async (q, deal) => {
        const meeting = await currentMeeting(q, deal.id, true);
        if (!meeting || meeting.status !== 'open' || meeting.id !== meetingId)
          throw conflict('deals.meeting.errors.notOpenProposal');
        if (meeting.proposed_by === me) throw forbidden('deals.meeting.errors.ownProposal');
        if (new Date(meeting.meet_at).getTime() <= now().getTime())
          throw conflict('deals.meeting.errors.proposalPast');
        await q(`update deal_meetings set status = 'accepted', answered_at = $2 where id = $1`, [
          meeting.id,
          now(),
        ]);
        return {
          messages: [await ctx.step(q, deal, me, 'meeting.accepted')],
          notices: ctx.notice(deal, 'meeting.accepted', me, { place: meeting.place }),
        };
      });
    },
  );

  app.post(
    '/api/deals/:dealId/meeting/confirm',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Confirm the exchange happened; the second confirmation completes the deal',
        description:
          'Either side of an open hand-to-hand deal: at any time when no meeting is agreed, and once its time has come when one is (409 before; 409 twice). When both have confirmed, the deal completes: every book sold, a completed transaction each (step deal.completed). Nobody completes a deal by hand alone. Others get 404.',
        params: dealParams,
        response: stepResponses,
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      return meetingStep(request.params.dealId, me, async (q, deal) => {
        // A meeting agreed in the app says when the exchange happens: not before its time. Without
        // one (they arranged it in the conversation, or met already) either side may confirm;
        // the deal completes only when both have (decision 0083).
        const meeting = await currentMeeting(q, deal.id);
        if (meeting?.status === 'accepted' && new Date(meeting.meet_at).getTime() > now().getTime())
          throw conflict('deals.meeting.errors.tooEarly');
        const done = await confirmations(q, deal.id);
        if (done.has(me)) throw conflict('deals.meeting.errors.alreadyConfirmed');
        await q(
          'insert into deal_meeting_confirmations (deal_id, user_id, confirmed_at) values ($1, $2, $3)',
          [deal.id, me, now()],
        );
        const messages = [await ctx.step(q, deal, me, 'meeting.confirmed')];
        const other = me === deal.buyerId ? deal.sellerId : deal.buyerId;
        if (!done.has(other))
          return { messages, notices: ctx.notice(deal, 'meeting.confirmed', me) };
        // Both said it happened: the deal completes (every book sold, a transaction each).
        const listings = await completeDeal(q, deal);
        messages.push(await ctx.step(q, deal, me, 'deal.completed'));
        return { messages, listings, notices: ctx.notice(deal, 'deal.completed', me) };
      });
    },
  );
}
