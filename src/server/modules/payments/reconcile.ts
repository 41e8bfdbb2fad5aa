import type Stripe from 'stripe';
import type { Reconciliation } from '@shared/schemas/payments';
import { paymentsOff } from './accounts';
import type { PaymentsContext } from './queries';

type Difference = Reconciliation['differences'][number];

interface LedgerRow {
  deal_id: string;
  kind: string;
  amount_cents: number;
  stripe_id: string | null;
}

/** Stripe's amount for a ledger row's object, or why it has none. */
async function stripeAmount(stripe: Stripe, row: LedgerRow): Promise<number | string | null> {
  const id = row.stripe_id!;
  switch (row.kind) {
    case 'charge': {
      const intent = await stripe.paymentIntents.retrieve(id);
      return intent.status === 'succeeded' ? intent.amount_received : `payment ${intent.status}`;
    }
    case 'transfer': {
      const transfer = await stripe.transfers.retrieve(id);
      return transfer.amount - transfer.amount_reversed;
    }
    case 'refund': {
      const refund = await stripe.refunds.retrieve(id);
      return refund.status === 'succeeded' || refund.status === 'pending'
        ? refund.amount
        : `refund ${refund.status}`;
    }
    default:
      // The fee is part of its charge; disputes are followed in Stripe's dashboard.
      return null;
  }
}

/**
 * Compares the ledger with Stripe's objects and says what differs: every ledger row against its
 * Stripe object (missing, failed, another amount), claims Stripe never confirmed, transfers,
 * refunds and paid Checkout sessions naming a deal that the ledger lacks, and deals whose status
 * does not follow from their rows. Changes nothing (`resume` sends pending claims again).
 */
export async function reconcile(ctx: PaymentsContext): Promise<Reconciliation> {
  const { stripe } = ctx;
  if (!stripe) throw paymentsOff();
  const differences: Difference[] = [];
  const differ = (d: Partial<Difference> & Pick<Difference, 'kind' | 'problem'>) =>
    differences.push({ dealId: null, stripeId: null, ledgerCents: null, stripeCents: null, ...d });

  const rows = await ctx.query<LedgerRow>(
    `select deal_id::text, kind, amount_cents, stripe_id from payment_ledger order by id`,
  );
  const known = new Set(rows.map((r) => r.stripe_id).filter(Boolean));
  for (const row of rows) {
    const base = { dealId: row.deal_id, kind: row.kind, ledgerCents: row.amount_cents };
    if (!row.stripe_id) {
      differ({ ...base, problem: 'claimed in the ledger, not confirmed by Stripe' });
      continue;
    }
    let amount: number | string | null;
    try {
      amount = await stripeAmount(stripe, row);
    } catch (err) {
      const missing = (err as { statusCode?: number }).statusCode === 404;
      differ({
        ...base,
        stripeId: row.stripe_id,
        problem: missing ? 'not found in Stripe' : `not read from Stripe: ${String(err)}`,
      });
      continue;
    }
    if (typeof amount === 'string') differ({ ...base, stripeId: row.stripe_id, problem: amount });
    else if (amount !== null && amount !== row.amount_cents)
      differ({ ...base, stripeId: row.stripe_id, stripeCents: amount, problem: 'amounts differ' });
  }

  const missing = (kind: string, id: string, dealId: string, cents: number) =>
    differ({
      dealId,
      kind,
      stripeId: id,
      stripeCents: cents,
      problem: 'in Stripe, not in the ledger',
    });
  for await (const transfer of stripe.transfers.list({ limit: 100 }))
    if (transfer.metadata?.deal_id && !known.has(transfer.id))
      missing('transfer', transfer.id, transfer.metadata.deal_id, transfer.amount);
  for await (const refund of stripe.refunds.list({ limit: 100 }))
    if (refund.metadata?.deal_id && !known.has(refund.id))
      missing('refund', refund.id, refund.metadata.deal_id, refund.amount);
  for await (const session of stripe.checkout.sessions.list({ limit: 100, status: 'complete' })) {
    const intent =
      typeof session.payment_intent === 'string'
        ? session.payment_intent
        : session.payment_intent?.id;
    if (
      session.metadata?.deal_id &&
      session.payment_status === 'paid' &&
      intent &&
      !known.has(intent)
    )
      missing('charge', intent, session.metadata.deal_id, session.amount_total ?? 0);
  }

  // A payment's status follows from its rows.
  const states = await ctx.query<{ deal_id: string; status: string; problem: string }>(
    `select * from (select p.deal_id::text, p.status,
       case
         when p.status in ('paid', 'released', 'refunded') and l.charge is null
           then 'no charge in the ledger'
         when p.status = 'released' and l.transfer is null then 'released without a transfer'
         when p.status = 'refunded' and l.refund is null then 'refunded without a refund'
         when p.status in ('due', 'void') and l.charge is not null then 'charged but not paid'
       end as problem
     from deal_payments p left join lateral (
       select sum(amount_cents) filter (where kind = 'charge') as charge,
         sum(amount_cents) filter (where kind = 'transfer' and stripe_id is not null) as transfer,
         sum(amount_cents) filter (where kind = 'refund' and stripe_id is not null) as refund
       from payment_ledger where deal_id = p.deal_id) l on true) s
     where problem is not null order by deal_id`,
  );
  for (const s of states)
    differ({ dealId: s.deal_id, kind: `status ${s.status}`, problem: s.problem });

  return { checked: rows.length, differences };
}
