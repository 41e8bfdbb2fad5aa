import type Stripe from 'stripe';
import type { PaymentsOverview } from '@shared/schemas/payments';
import { conflict } from '../../platform/errors';
import type { Query } from '../../db/tx';
import { loadAccount, type PaymentsContext } from './queries';
import { providerFailed } from './stripe';

export const paymentsOff = () => conflict('payments.errors.off');

/** What Stripe says of a connected account, as we keep it. */
function accountFacts(account: Stripe.Account) {
  return {
    detailsSubmitted: account.details_submitted === true,
    payoutsEnabled: account.payouts_enabled === true,
    transfersActive: account.capabilities?.transfers === 'active',
  };
}

/**
 * Keeps a connected account's state as Stripe told it (account.updated, or a fresh read). When it
 * becomes able to receive transfers, its seller's deals waiting for payment get the whole time
 * limit from now: their buyers could not pay before.
 */
export async function recordAccount(
  q: Query,
  account: Stripe.Account,
  now: Date,
  payWithinHours: number,
): Promise<boolean> {
  const facts = accountFacts(account);
  const [row] = await q<{ user_id: string; was: boolean }>(
    // The join reads the row as it was before this update: whether it could receive transfers.
    `update payment_accounts a set details_submitted = $2, payouts_enabled = $3,
       transfers_active = $4, updated_at = now()
     from payment_accounts old
     where old.user_id = a.user_id and a.stripe_account_id = $1
     returning a.user_id, old.transfers_active as was`,
    [account.id, facts.detailsSubmitted, facts.payoutsEnabled, facts.transfersActive],
  );
  if (!row) return false;
  if (facts.transfersActive && !row.was)
    await q(
      `update deal_payments p set due_by = greatest(p.due_by, $2::timestamptz)
       from deals d
       where d.id = p.deal_id and d.seller_id = $1 and d.status = 'open'
         and p.status = 'due' and p.due_by is not null`,
      [row.user_id, new Date(now.getTime() + payWithinHours * 3_600_000)],
    );
  return true;
}

/**
 * The seller's onboarding link: their Express account is created once (the idempotency key
 * covers a retry after a lost answer), then a fresh single-use account link to Stripe's hosted
 * onboarding, which sends them back to their payments page.
 */
export async function onboardingLink(
  ctx: PaymentsContext,
  user: { id: string; email: string },
): Promise<string> {
  const { stripe, settings, query } = ctx;
  if (!stripe || !settings) throw paymentsOff();
  try {
    let account = await loadAccount(query, user.id);
    if (!account) {
      const created = await stripe.accounts.create(
        {
          type: 'express',
          country: settings.accountCountry,
          email: user.email,
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          metadata: { user_id: user.id },
        },
        { idempotencyKey: `account-${user.id}` },
      );
      await query(
        `insert into payment_accounts (user_id, stripe_account_id) values ($1, $2)
         on conflict (user_id) do nothing`,
        [user.id, created.id],
      );
      account = (await loadAccount(query, user.id))!;
    }
    const page = `${ctx.publicUrl}/profile/${encodeURIComponent(user.id)}/payments`;
    const link = await stripe.accountLinks.create({
      account: account.stripe_account_id,
      type: 'account_onboarding',
      refresh_url: `${page}?onboarding=refresh`,
      return_url: `${page}?onboarding=return`,
    });
    return link.url;
  } catch (err) {
    ctx.log.warn({ err, userId: user.id }, 'payments: onboarding link failed');
    throw providerFailed();
  }
}

/**
 * A single-use link to the seller's Stripe Express dashboard (their balance, payouts and bank
 * details at Stripe): 409 until their onboarding is finished, as Stripe refuses before.
 */
export async function dashboardLink(ctx: PaymentsContext, userId: string): Promise<string> {
  const { stripe } = ctx;
  if (!stripe) throw paymentsOff();
  const account = await loadAccount(ctx.query, userId);
  if (!account?.details_submitted) throw conflict('payments.errors.noDashboard');
  try {
    return (await stripe.accounts.createLoginLink(account.stripe_account_id)).url;
  } catch (err) {
    ctx.log.warn({ err, userId }, 'payments: dashboard link failed');
    throw providerFailed();
  }
}

/**
 * A seller's payments page: the account's state (read again from Stripe; the stored one when
 * Stripe does not answer) and their money by currency, from the ledger and the deals' payments.
 */
export async function overview(ctx: PaymentsContext, userId: string): Promise<PaymentsOverview> {
  const { stripe, settings, query } = ctx;
  let account = await loadAccount(query, userId);
  if (account && stripe && settings) {
    try {
      const fresh = await stripe.accounts.retrieve(account.stripe_account_id);
      await recordAccount(query, fresh, ctx.now(), settings.payWithinHours);
      account = await loadAccount(query, userId);
    } catch (err) {
      ctx.log.warn({ err, userId }, 'payments: account state not refreshed');
    }
  }
  const money = await query<{
    currency: PaymentsOverview['money'][number]['currency'];
    held: number;
    released: number;
    refunded: number;
  }>(
    `select p.currency,
       coalesce(sum(p.total_cents - p.fee_cents) filter (where p.status = 'paid'), 0)::int
         - coalesce(sum(l.refund) filter (where p.status = 'paid'), 0)::int as held,
       coalesce(sum(l.transfer), 0)::int as released,
       coalesce(sum(l.refund), 0)::int as refunded
     from deal_payments p join deals d on d.id = p.deal_id
     left join lateral (
       select sum(amount_cents) filter (where kind = 'transfer') as transfer,
         sum(amount_cents) filter (where kind = 'refund') as refund
       from payment_ledger where deal_id = p.deal_id) l on true
     where d.seller_id = $1 and p.status in ('paid', 'released', 'refunded')
     group by p.currency order by p.currency`,
    [userId],
  );
  return {
    enabled: !!settings,
    fee: settings
      ? { percent: settings.buyerFeePercent, fixedCents: settings.buyerFeeFixedCents }
      : null,
    account: {
      state: !account ? 'none' : account.transfers_active ? 'ready' : 'pending',
      detailsSubmitted: account?.details_submitted ?? false,
      payoutsEnabled: account?.payouts_enabled ?? false,
    },
    money: money.map((m) => ({
      currency: m.currency,
      heldCents: Number(m.held),
      releasedCents: Number(m.released),
      refundedCents: Number(m.refunded),
    })),
  };
}
