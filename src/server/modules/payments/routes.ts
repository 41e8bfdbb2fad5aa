import { z } from 'zod';
import {
  dealPaymentAnswerSchema,
  paymentsFeeSchema,
  paymentsOverviewSchema,
  reconciliationSchema,
  redirectAnswerSchema,
} from '@shared/schemas/payments';
import type { Module } from '../../platform/module';
import { currentUser } from '../../platform/auth';
import { errorSchema } from '../../platform/errors';
import { requestLanguage } from '../../platform/i18n';
import { adminOnly } from '../../platform/moderation';
import { scheduleJob } from '../../platform/jobs';
import { idParam, memberRoutes } from '../../platform/route-presets';
import { dashboardLink, onboardingLink, overview } from './accounts';
import { checkoutUrl } from './checkout';
import { readDealPayment } from './read';
import { reconcile } from './reconcile';
import { createPaymentsContext } from './service';
import { moduleChatContext } from '../chats';
import { followDeals } from './follow-deals';
import { resume } from './settle';
import { receiveEvent } from './webhook';

/** Where Stripe sends its events (configured in Stripe's dashboard; exempt from the CSRF check). */
export const WEBHOOK_PATH = '/api/payments/webhook';
/** How often each process sends unconfirmed movements again and settles ended deals. */
export const PAYMENTS_RESUME_JOB_MS = 60_000;

const dealParams = idParam('dealId');
const withProvider = { 503: errorSchema };

/**
 * In-app payments with buyer protection (issue 36, decision 0089): sellers onboard to Stripe
 * Connect, buyers pay a deal through Stripe's hosted Checkout, Stripe's events arrive signed at
 * the webhook, and the deal's end moves the money (settle.ts, following the deals: ./follow-deals.ts).
 */
export const paymentRoutes: Module = async (app, deps) => {
  const ctx = createPaymentsContext({
    ...deps,
    log: app.log,
    chat: moduleChatContext(app, deps),
  });
  followDeals(app, deps, ctx);
  const { tags, security, signedIn, writes } = memberRoutes(app, 'payments', 20);

  if (ctx.stripe)
    scheduleJob(app, deps, {
      name: 'payments resume',
      everyMs: PAYMENTS_RESUME_JOB_MS,
      run: () => resume(ctx),
    });

  app.get(
    '/api/payments/fee',
    {
      schema: {
        tags,
        summary: 'Whether in-app payment is on, and the buyer-protection fee',
        description:
          'Public: the offer dialog shows the fee before an offer is made, the terms page what it buys. The fee is `percent` of books and shipping, rounded to the cent, plus `fixedCents`.',
        response: { 200: paymentsFeeSchema },
      },
    },
    async () => {
      const settings = ctx.settings;
      return {
        enabled: !!settings,
        fee: settings
          ? { percent: settings.buyerFeePercent, fixedCents: settings.buyerFeeFixedCents }
          : null,
        payWithinHours: settings?.payWithinHours ?? null,
      };
    },
  );

  app.get(
    '/api/payments/account',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'My payments: whether they are on, the fee, my account’s state, my money',
        description:
          'The account’s state is read again from Stripe (the stored one when Stripe does not answer). Money by currency: held for deals not yet completed, sent to me, refunded to buyers.',
        response: { 200: paymentsOverviewSchema, 401: errorSchema },
      },
    },
    async (request) => overview(ctx, currentUser(request).id),
  );

  app.post(
    '/api/payments/account/onboarding',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Seller: set up payments — the link to Stripe’s hosted onboarding',
        description:
          'Creates my Stripe Express account once, then answers a fresh single-use link; Stripe sends me back to my payments page. 409 when payments are off on this site, 503 when Stripe does not answer.',
        response: {
          200: redirectAnswerSchema,
          401: errorSchema,
          409: errorSchema,
          429: errorSchema,
          ...withProvider,
        },
      },
    },
    async (request) => {
      const me = currentUser(request);
      return { url: await onboardingLink(ctx, { id: me.id, email: me.email }) };
    },
  );

  app.post(
    '/api/payments/account/dashboard',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Seller: the link to my Stripe Express dashboard (balance, payouts, bank details)',
        description:
          'A fresh single-use link (Stripe’s login link). 409 when payments are off or my set-up with Stripe is not finished, 503 when Stripe does not answer.',
        response: {
          200: redirectAnswerSchema,
          401: errorSchema,
          409: errorSchema,
          429: errorSchema,
          ...withProvider,
        },
      },
    },
    async (request) => ({ url: await dashboardLink(ctx, currentUser(request).id) }),
  );

  app.get(
    '/api/deals/:dealId/payment',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary:
          'A deal’s payment: what the buyer pays (books, shipping, fee) and where the money is',
        description:
          'Its buyer and seller, and admins while the deal has a problem case; anyone else gets 404, as for a missing deal. `payment` is null for a deal paid outside the app.',
        params: dealParams,
        response: { 200: dealPaymentAnswerSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    async (request) => readDealPayment(ctx, currentUser(request).id, request.params.dealId),
  );

  app.post(
    '/api/deals/:dealId/payment/checkout',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Buyer: pay the deal — the link to Stripe’s hosted Checkout',
        description:
          'The amount is the server’s: the agreed books and shipping plus the fee. While a payment page is open its link is given again. The seller gets 403, anyone else 404; 409 when payments are off, the deal has ended, is paid outside the app or already paid, or its seller has not set up payments; 503 when Stripe does not answer.',
        params: dealParams,
        response: {
          200: redirectAnswerSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
          429: errorSchema,
          ...withProvider,
        },
      },
    },
    async (request) => ({
      url: await checkoutUrl(
        ctx,
        currentUser(request).id,
        request.params.dealId,
        requestLanguage(request),
      ),
    }),
  );

  app.get(
    '/api/admin/payments/reconciliation',
    {
      preValidation: adminOnly(ctx.query),
      schema: {
        tags: ['moderation'],
        security,
        summary: 'Admin: the ledger compared with Stripe’s objects, and what differs',
        description:
          'Changes nothing. Members who are not admins get 404; 409 when payments are off. Also `npm run payments:reconcile`.',
        response: {
          200: reconciliationSchema,
          401: errorSchema,
          404: errorSchema,
          409: errorSchema,
          ...withProvider,
        },
      },
    },
    async () => reconcile(ctx),
  );

  // Stripe signs the body as sent: this route keeps it raw.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(
      WEBHOOK_PATH,
      {
        schema: {
          tags,
          summary: 'Stripe’s events, signed (Stripe-Signature)',
          description:
            'checkout.session.completed (the deal is paid), account.updated (a seller’s onboarding), charge.dispute.created; others are ignored. Each event counts once: a replay changes nothing. 400 for a signature that does not verify, 404 when payments are off, 503 when the event could not be handled (Stripe sends it again).',
          headers: z.object({ 'stripe-signature': z.string().max(2000).optional() }),
          response: {
            200: z.object({ received: z.literal(true), duplicate: z.boolean() }),
            400: errorSchema,
            404: errorSchema,
            503: errorSchema,
          },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
        const signature = request.headers['stripe-signature'];
        const { duplicate } = await receiveEvent(
          ctx,
          body,
          typeof signature === 'string' ? signature : undefined,
        );
        return { received: true as const, duplicate };
      },
    );
  });
};
