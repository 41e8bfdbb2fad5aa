import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CASES_PAGE_SIZE,
  caseMessageInputSchema,
  caseOutcomeInputSchema,
  casesPageSchema,
  casesQuerySchema,
  type CaseSummary,
} from '@shared/schemas/dealPost';
import type { AppDeps } from '../../../platform/module';
import { currentUser } from '../../../platform/auth';
import { badRequest, conflict, errorResponses } from '../../../platform/errors';
import { adminOnly } from '../../../platform/moderation';
import { idParam, memberRoutes } from '../../../platform/route-presets';
import type { Query } from '../../../db/tx';
import { cancelDeal, type DealContext } from '../context';
import type { DealFacts } from '../parts';
import { completePostDeal, loadCase } from './state';
import { postStep, stepResponses } from './steps';

const params = idParam('dealId');
/** A case is a sale's by post or a trade's by post (decision 0090): the same steps. */
const BOTH_KINDS: DealFacts['kind'][] = ['sale', 'trade'];

async function openCase(q: Query, deal: DealFacts) {
  const found = await loadCase(q, deal.id);
  if (!found) throw conflict('deals.post.errors.noCase');
  if (found.outcome !== null) throw conflict('deals.post.errors.caseClosed');
  return found;
}

/**
 * A problem's case (decision 0074): its two sides and the admins write in it; an admin closes it
 * with an outcome — completed (the sale stands) or cancelled (the deal is cancelled and its books
 * leave the library as unavailable, for the seller to put back on sale if they have them back).
 */
export function registerCaseRoutes(parent: FastifyInstance, ctx: DealContext, deps: AppDeps) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { security, write } = memberRoutes(app, 'deals', 60);
  /** A step on the case of a deal by post, sale or trade (./steps.ts postStep). */
  const caseStep = (
    dealId: string,
    me: string,
    roles: Parameters<typeof postStep>[3],
    work: Parameters<typeof postStep>[4],
  ) => postStep(ctx, dealId, me, roles, work, BOTH_KINDS);
  const query: Query = (text, values) => deps.database.query(text, values);

  app.post(
    '/api/deals/:dealId/case/messages',
    write({
      summary: 'Write in a problem’s case (its two members or an admin)',
      description: 'While the case is open (409 once an admin closed it, or with no case).',
      params,
      body: caseMessageInputSchema,
      response: stepResponses,
    }),
    async (request) => {
      const me = currentUser(request).id;
      return caseStep(
        request.params.dealId,
        me,
        ['buyer', 'seller', 'admin'],
        async (q, deal, viewer) => {
          await openCase(q, deal);
          await q(
            `insert into deal_case_messages (deal_id, author_id, as_admin, body, created_at)
             values ($1, $2, $3, $4, $5)`,
            [deal.id, me, viewer.role === 'admin', request.body.body, ctx.now()],
          );
          // A line in the conversation (so both sides' cards refresh live) and a notification:
          // both sides hear of an admin's message, a side's goes to the other side. The admin is
          // no member of the conversation: their line reads as the case's, not a person's.
          const admin = viewer.role === 'admin';
          const code = admin ? 'post.case_admin_message' : 'post.case_message';
          return {
            steps: [{ senderId: admin ? deal.sellerId : me, code }],
            notices: ctx.notice(deal, code, admin ? null : me),
          };
        },
      );
    },
  );

  app.post(
    '/api/deals/:dealId/case/outcome',
    write({
      summary: 'Admin: close a problem’s case — the deal completed, or cancelled',
      description:
        'Admins only (its sides get 403, anyone else 404). Cancelled: the deal is cancelled and its books leave the library as unavailable; a payment in the app is refunded in full. Completed: the payment is released to the seller; with `refundCents`, that part of the seller’s share is refunded to the buyer first (400 when not more than 0 or more than the seller’s share, or with cancelled; 409 when nothing is held in the app).',
      params,
      body: caseOutcomeInputSchema,
      response: stepResponses,
    }),
    async (request) => {
      const me = currentUser(request).id;
      const { outcome, refundCents } = request.body;
      return caseStep(request.params.dealId, me, ['admin'], async (q, deal) => {
        await openCase(q, deal);
        // The refund is claimed with the outcome, in the same transaction (issue 36).
        // Cancelled gives back everything paid; a part only with the sale standing.
        if (refundCents !== undefined) {
          if (outcome !== 'completed') throw badRequest('payments.errors.refundWithCancel');
          const claimed = await ctx.changes.emit('deal.caseRefund', {
            q,
            dealId: deal.id,
            cents: refundCents,
          });
          if (!claimed) throw conflict('payments.errors.off');
        }
        await q(
          `update deal_cases set outcome = $2, resolved_by = $3, resolved_at = $4
           where deal_id = $1`,
          [deal.id, outcome, me, ctx.now()],
        );
        let listings: string[];
        if (outcome === 'completed') listings = await completePostDeal(q, deal);
        else {
          listings = await cancelDeal(q, deal);
          await q(
            `update book_listings set status = 'unavailable', updated_at = now()
             where id = any($1::uuid[]) and status = 'available'`,
            [listings],
          );
        }
        const code = `post.case_${outcome}`;
        // The admin is no member of the conversation: the step reads as the case's outcome.
        return {
          steps: [{ senderId: deal.sellerId, code }],
          listings,
          notices: ctx.notice(deal, code, null),
        };
      });
    },
  );

  const admins = adminOnly(query);
  app.get(
    '/api/admin/deal-cases',
    {
      preValidation: admins,
      schema: {
        tags: ['moderation'],
        security,
        summary: 'Admin: problems reported on parcels — open ones first (oldest first), paged',
        description: '`open=true` lists only the open cases. Members who are not admins get 404.',
        querystring: casesQuerySchema,
        response: { 200: casesPageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const onlyOpen = request.query.open === 'true';
      const where = onlyOpen ? 'where c.outcome is null' : '';
      const [{ total }] = await query<{ total: number }>(
        `select count(*)::int as total from deal_cases c ${where}`,
      );
      const rows = await query<{
        deal_id: string;
        room_id: string;
        reason: CaseSummary['reason'];
        opened_at: Date;
        outcome: CaseSummary['outcome'];
        buyer_id: string;
        buyer_name: string;
        seller_id: string;
        seller_name: string;
        titles: string[];
      }>(
        `select c.deal_id::text, d.room_id::text, c.reason, c.opened_at, c.outcome,
           d.buyer_id, bu.display_name as buyer_name, d.seller_id, su.display_name as seller_name,
           (select coalesce(array_agg(db.title order by db.position), '{}') from deal_books db
            where db.deal_id = d.id) as titles
         from deal_cases c join deals d on d.id = c.deal_id
         join users bu on bu.id = d.buyer_id join users su on su.id = d.seller_id
         ${where}
         order by (c.outcome is null) desc,
           case when c.outcome is null then c.opened_at end asc,
           c.opened_at desc, c.deal_id
         limit $1 offset $2`,
        [CASES_PAGE_SIZE, (page - 1) * CASES_PAGE_SIZE],
      );
      return {
        items: rows.map((r) => ({
          dealId: r.deal_id,
          roomId: r.room_id,
          reason: r.reason,
          openedAt: new Date(r.opened_at).toISOString(),
          outcome: r.outcome,
          buyer: { id: r.buyer_id, displayName: r.buyer_name },
          seller: { id: r.seller_id, displayName: r.seller_name },
          titles: r.titles,
        })),
        page,
        pageSize: CASES_PAGE_SIZE,
        total,
      };
    },
  );
}
