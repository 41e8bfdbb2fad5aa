import { formatMoney } from '@shared/money';
import { AppError, conflict } from '../../platform/errors';
import { inTransaction, type Query } from '../../db/tx';
import { dealMovements, loadAccount, loadPayment, type PaymentsContext } from './queries';
import { transferGroup } from './stripe';

/**
 * Money out of a deal: the seller's share transferred when the deal completes, the buyer refunded
 * when it is cancelled (in full) or when a case is closed in their favour (in part, before the
 * rest is released). Each movement is first claimed as a ledger row, in a transaction holding the
 * deal's payment row, and only then asked of Stripe, with an idempotency key of its own
 * (`release-<deal>`, `refund-<deal>`): a second caller finds the claim and does nothing, and a
 * claim left without Stripe's answer (a crash, a lost connection) is sent again with the same key
 * by `resume`, which Stripe answers with the movement it already made.
 */
interface Claim {
  id: number;
  dealId: string;
  kind: 'transfer' | 'refund';
  amount: number;
  currency: string;
  paymentIntent: string;
  memberId: string;
  /** A refund of everything paid ends the payment as refunded. */
  full: boolean;
}

type Decide = (facts: {
  dealStatus: string;
  sellerId: string;
  buyerId: string;
  moved: Awaited<ReturnType<typeof dealMovements>>;
}) => { amount: number; memberId: string; full: boolean } | null;

/** Claims a movement inside the caller's transaction (`q`), the deal's payment row held. */
async function claimIn(
  q: Query,
  dealId: string,
  kind: Claim['kind'],
  decide: Decide,
): Promise<Claim | null> {
  const payment = await loadPayment(q, dealId, true);
  if (!payment || payment.status !== 'paid' || !payment.payment_intent_id) return null;
  const [deal] = await q<{ status: string; seller_id: string; buyer_id: string }>(
    'select status, seller_id, buyer_id from deals where id = $1',
    [dealId],
  );
  if (!deal) return null;
  const moved = await dealMovements(q, dealId);
  const decision = decide({
    dealStatus: deal.status,
    sellerId: deal.seller_id,
    buyerId: deal.buyer_id,
    moved,
  });
  if (!decision) return null;
  const [row] = await q<{ id: number }>(
    `insert into payment_ledger (deal_id, member_id, kind, amount_cents, currency)
     values ($1, $2, $3, $4, $5) returning id`,
    [dealId, decision.memberId, kind, decision.amount, payment.currency],
  );
  return {
    id: Number(row.id),
    dealId,
    kind,
    currency: payment.currency,
    paymentIntent: payment.payment_intent_id,
    ...decision,
  };
}

const claim = (ctx: PaymentsContext, dealId: string, kind: Claim['kind'], decide: Decide) =>
  inTransaction(ctx.database, (q) => claimIn(q, dealId, kind, decide));

/**
 * Stripe's answer recorded: the claim gets its Stripe id, the payment its new status (`ends`:
 * released, or refunded when nothing is left for the seller). Only the caller that filled the id
 * tells the two sides (the conversation's line and the e-mails): once per movement, however many
 * times it is sent again.
 */
async function confirm(ctx: PaymentsContext, c: Claim, stripeId: string): Promise<void> {
  const filled = await inTransaction(ctx.database, async (q) => {
    const done = await q(
      `update payment_ledger set stripe_id = $2, confirmed_at = now()
       where id = $1 and stripe_id is null returning id`,
      [c.id, stripeId],
    );
    if (c.kind === 'transfer' || c.full)
      await q(
        `update deal_payments set status = $2, ended_at = now()
         where deal_id = $1 and status = 'paid'`,
        [c.dealId, c.kind === 'transfer' ? 'released' : 'refunded'],
      );
    // A part refunded that is all the seller's share: nothing is left to release.
    else
      await q(
        `update deal_payments set status = 'refunded', ended_at = now()
         where deal_id = $1 and status = 'paid' and total_cents - fee_cents = $2`,
        [c.dealId, c.amount],
      );
    return done.length > 0;
  });
  if (filled && ctx.tell)
    await ctx
      .tell(c.dealId, c.kind === 'transfer' ? 'released' : 'refunded', c.amount)
      .catch((err: unknown) =>
        ctx.log.warn({ err, dealId: c.dealId }, 'payments: the movement was not told'),
      );
}

async function sendTransfer(ctx: PaymentsContext, c: Claim): Promise<void> {
  const stripe = ctx.stripe!;
  const account = await loadAccount(ctx.query, c.memberId);
  if (!account) throw new Error(`seller ${c.memberId} has no connected account`);
  const intent = await stripe.paymentIntents.retrieve(c.paymentIntent);
  const charge =
    typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
  const transfer = await stripe.transfers.create(
    {
      amount: c.amount,
      currency: c.currency.toLowerCase(),
      destination: account.stripe_account_id,
      transfer_group: transferGroup(c.dealId),
      // Tied to the buyer's charge: it waits for those funds instead of the platform's balance.
      ...(charge ? { source_transaction: charge } : {}),
      metadata: { deal_id: c.dealId },
    },
    { idempotencyKey: `release-${c.dealId}` },
  );
  await confirm(ctx, c, transfer.id);
}

async function sendRefund(ctx: PaymentsContext, c: Claim): Promise<void> {
  const refund = await ctx.stripe!.refunds.create(
    { payment_intent: c.paymentIntent, amount: c.amount, metadata: { deal_id: c.dealId } },
    { idempotencyKey: `refund-${c.dealId}` },
  );
  await confirm(ctx, c, refund.id);
}

/**
 * Transfers the seller's share of a completed deal (what was paid, less the fee and any part
 * refunded): once, however many callers ask at the same time. Returns whether this call moved
 * the money.
 */
export async function release(ctx: PaymentsContext, dealId: string): Promise<boolean> {
  if (!ctx.stripe) return false;
  const c = await claim(ctx, dealId, 'transfer', ({ dealStatus, sellerId, moved }) => {
    if (dealStatus !== 'completed' || moved.transfer > 0) return null;
    const amount = moved.charge - moved.fee - moved.refund;
    return amount > 0 ? { amount, memberId: sellerId, full: false } : null;
  });
  if (!c) return false;
  await sendTransfer(ctx, c);
  return true;
}

/** 400: a refund of nothing, of a fraction of a cent, or of more than the seller's share. */
const refundAmountError = (maxCents: number, currency: string) =>
  new AppError(400, 'bad_request', 'payments.errors.refundAmount', undefined, {
    max: (language) => formatMoney(maxCents / 100, currency, language),
  });

/** Who gets a refund and how much: everything (no `cents`) or part of the seller's share. */
const refundDecision =
  (cents: number | undefined, currency: () => string, partOnly = false): Decide =>
  ({ buyerId, moved }) => {
    if (moved.refund > 0 || moved.transfer > 0) return null;
    const amount = cents ?? moved.charge;
    const full = amount === moved.charge && !partOnly;
    const share = moved.charge - moved.fee;
    if (!Number.isSafeInteger(amount) || amount <= 0 || (!full && amount > share))
      throw refundAmountError(share, currency());
    return { amount, memberId: buyerId, full };
  };

/**
 * Refunds the buyer: everything paid (no `cents`), or part of the seller's share (a case closed
 * in the buyer's favour; the rest is released when the deal completes). One refund per deal,
 * never after the release. Returns whether this call moved the money.
 */
export async function refund(
  ctx: PaymentsContext,
  dealId: string,
  cents?: number,
): Promise<boolean> {
  if (!ctx.stripe) return false;
  let currency = 'EUR';
  const c = await inTransaction(ctx.database, async (q) => {
    currency = (await loadPayment(q, dealId))?.currency ?? currency;
    return claimIn(
      q,
      dealId,
      'refund',
      refundDecision(cents, () => currency),
    );
  });
  if (!c) return false;
  await sendRefund(ctx, c);
  return true;
}

/**
 * A case closed in the buyer's favour with the sale standing: part of the seller's share is
 * claimed for the buyer inside the case's own transaction (`q`, the deal locked), so the case's
 * outcome and its refund commit together; `settle`, after the commit, sends it and releases the
 * rest. 409 when nothing is held for the deal (payments off, not paid, already moved); 400 for
 * an amount that is not more than zero and at most the seller's share.
 */
export async function claimCaseRefund(
  ctx: PaymentsContext,
  q: Query,
  dealId: string,
  cents: number,
): Promise<void> {
  if (!ctx.stripe) throw conflict('payments.errors.off');
  const payment = await loadPayment(q, dealId, true);
  if (payment?.status !== 'paid') throw conflict('payments.errors.nothingHeld');
  const c = await claimIn(
    q,
    dealId,
    'refund',
    refundDecision(cents, () => payment.currency, true),
  );
  if (!c) throw conflict('payments.errors.nothingHeld');
}

/**
 * Sends again, with their keys, claims still without Stripe's answer: older than `olderThanMs`
 * (the recovery run), or one deal's refund (a case's, claimed with its outcome).
 */
async function sendClaimed(ctx: PaymentsContext, dealId?: string, olderThanMs = 0) {
  const stale = await ctx.query<{
    id: number;
    deal_id: string;
    kind: Claim['kind'];
    member_id: string;
    amount_cents: number;
    currency: string;
    payment_intent_id: string;
    charge: number;
  }>(
    // The member is the deal's (an erased member's ledger rows no longer name them).
    `select l.id, l.deal_id::text, l.kind,
       case when l.kind = 'transfer' then d.seller_id else d.buyer_id end as member_id,
       l.amount_cents, l.currency, p.payment_intent_id,
       (select amount_cents from payment_ledger c where c.deal_id = l.deal_id and c.kind = 'charge')
         as charge
     from payment_ledger l join deal_payments p on p.deal_id = l.deal_id
     join deals d on d.id = l.deal_id
     where l.stripe_id is null and l.kind in ('transfer', 'refund') and l.created_at < $1
       and ($2::uuid is null or (l.deal_id = $2::uuid and l.kind = 'refund'))
     order by l.id limit 50`,
    [new Date(Date.now() - olderThanMs), dealId ?? null],
  );
  let confirmed = 0;
  for (const s of stale) {
    const c: Claim = {
      id: Number(s.id),
      dealId: s.deal_id,
      kind: s.kind,
      amount: s.amount_cents,
      currency: s.currency,
      paymentIntent: s.payment_intent_id,
      memberId: s.member_id,
      full: s.amount_cents === Number(s.charge),
    };
    try {
      await (c.kind === 'transfer' ? sendTransfer(ctx, c) : sendRefund(ctx, c));
      confirmed++;
    } catch (err) {
      if (dealId) throw err;
      ctx.log.warn({ err, dealId: c.dealId, kind: c.kind }, 'payments: claim not confirmed yet');
    }
  }
  return confirmed;
}

/**
 * Puts a deal's money where its end says, after the deal changed (and after a late payment): a
 * part refunded by a case first, then a completed deal's share to the seller, a cancelled deal's
 * payment back to the buyer, a payment still due on an ended deal void. Never throws: what fails
 * is done again by `resume`.
 */
export async function settle(ctx: PaymentsContext, dealId: string): Promise<void> {
  try {
    const [row] = await ctx.query<{ status: string; deal_status: string }>(
      `select p.status, d.status as deal_status
       from deal_payments p join deals d on d.id = p.deal_id where p.deal_id = $1`,
      [dealId],
    );
    if (!row || row.deal_status === 'open') return;
    if (row.status === 'due') {
      await ctx.query(
        `update deal_payments set status = 'void', ended_at = now()
         where deal_id = $1 and status = 'due'`,
        [dealId],
      );
      return;
    }
    if (row.status !== 'paid' || !ctx.stripe) return;
    // A case's refund claimed with its outcome goes first (its amount is counted either way).
    await sendClaimed(ctx, dealId);
    if (row.deal_status === 'completed') await release(ctx, dealId);
    else await refund(ctx, dealId);
  } catch (err) {
    ctx.log.warn({ err, dealId }, 'payments: deal not settled (resumed later)');
  }
}

/**
 * The recovery run (every minute, and at start): claims older than `olderThanMs` that never got
 * Stripe's answer are sent again with their idempotency key, and ended deals whose money has not
 * moved are settled. Returns how many claims it confirmed.
 */
export async function resume(ctx: PaymentsContext, olderThanMs = 60_000): Promise<number> {
  if (!ctx.stripe) return 0;
  const confirmed = await sendClaimed(ctx, undefined, olderThanMs);
  const unsettled = await ctx.query<{ deal_id: string }>(
    `select p.deal_id::text from deal_payments p join deals d on d.id = p.deal_id
     where p.status in ('due', 'paid') and d.status <> 'open'
       and not exists (select 1 from payment_ledger l
                       where l.deal_id = p.deal_id and l.stripe_id is null)
     order by p.deal_id limit 100`,
  );
  for (const u of unsettled) await settle(ctx, u.deal_id);
  return confirmed;
}
