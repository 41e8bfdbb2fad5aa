import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, makeAdmin, type Member } from '../../test/members';
import { bothConfirm } from '../../test/deals';
import { openDealBetween } from '../../test/deals';
import { runJob } from '../../platform/jobs';
import { refund, release, resume, settle } from './settle';
import { reconcile } from './reconcile';
import {
  accountOf,
  calls,
  ledger,
  pay,
  paymentOf,
  postDeal,
  type PaymentsWorld,
  worldWithSeller,
  paidAndShipped,
} from './world.fixture';

/**
 * The money follows the deal's end (issue 36): the seller's share is transferred once when the
 * deal completes, even under concurrent calls; a cancelled deal is refunded in full; a case may
 * refund part and release the rest; a payment after the deal ended goes back; a crash between
 * Stripe's answer and the ledger is recovered with nothing lost or doubled.
 */
let w: PaymentsWorld, seller: Member, buyer: Member;
let account: string;
const DAY = 24 * 3_600_000;

beforeAll(async () => {
  [w, seller, buyer] = await worldWithSeller(2);
  account = await accountOf(w, seller);
}, 120_000);

/** A paid deal by post, shipped. */
async function shippedAndPaid() {
  const d = await paidAndShipped(w, seller, buyer, 'BRT-9');
  return d;
}

const transfersOf = (dealId: string) =>
  calls(w, 'POST', '/v1/transfers').filter((c) => c.idempotencyKey === `release-${dealId}`);
const refundsOf = (dealId: string) =>
  calls(w, 'POST', '/v1/refunds').filter((c) => c.idempotencyKey === `refund-${dealId}`);

describe('release', () => {
  it('sends the seller’s share when the buyer says all is fine', async () => {
    const d = await shippedAndPaid();
    const confirmed = await w.req('POST', `/api/deals/${d.dealId}/confirm`, buyer);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const sent = transfersOf(d.dealId);
    expect(sent).toHaveLength(1);
    expect(sent[0].params).toMatchObject({
      amount: '1400',
      currency: 'eur',
      destination: account,
      transfer_group: `deal_${d.dealId}`,
      metadata: { deal_id: d.dealId },
    });
    expect(String(sent[0].params.source_transaction)).toMatch(/^ch_/);
    expect(await paymentOf(w, d.dealId, seller)).toMatchObject({
      status: 'released',
      releasedCents: 1400,
      refundedCents: 0,
    });
    const rows = await ledger(w, d.dealId);
    expect(rows.map((r) => [r.kind, r.amount_cents])).toEqual([
      ['charge', 1540],
      ['fee', 140],
      ['transfer', 1400],
    ]);
    expect(rows[2].stripe_id).toMatch(/^tr_/);
    const overview = (await w.req('GET', '/api/payments/account', seller)).json();
    expect(overview.money[0].releasedCents).toBeGreaterThanOrEqual(1400);
  });

  it('follows the post window closing without a problem', async () => {
    const d = await shippedAndPaid();
    expect(await runJob(w.t.app, 'post window', new Date(Date.now() + 13 * DAY))).not.toContain(
      d.dealId,
    );
    expect(transfersOf(d.dealId)).toHaveLength(0);
    expect(await runJob(w.t.app, 'post window', new Date(Date.now() + 15 * DAY))).toContain(
      d.dealId,
    );
    expect(transfersOf(d.dealId).map((c) => c.params.amount)).toEqual(['1400']);
    expect((await paymentOf(w, d.dealId, seller)).status).toBe('released');
  });

  it('happens once under concurrent calls', async () => {
    const d = await shippedAndPaid();
    // The deal completed, its money not yet moved (as if the process stopped after the commit).
    await w.t.database.query(`update deals set status = 'completed' where id = $1`, [d.dealId]);
    const moved = await Promise.all([
      release(w.ctx, d.dealId),
      release(w.ctx, d.dealId),
      release(w.ctx, d.dealId),
      settle(w.ctx, d.dealId),
    ]);
    expect(moved.filter((m) => m === true)).toHaveLength(1);
    expect(transfersOf(d.dealId)).toHaveLength(1);
    expect((await ledger(w, d.dealId)).filter((r) => r.kind === 'transfer')).toHaveLength(1);
    expect(await release(w.ctx, d.dealId)).toBe(false);
  });

  it('never happens before the deal completes', async () => {
    const d = await shippedAndPaid();
    expect(await release(w.ctx, d.dealId)).toBe(false);
    await settle(w.ctx, d.dealId);
    expect(transfersOf(d.dealId)).toHaveLength(0);
    expect((await paymentOf(w, d.dealId, seller)).status).toBe('paid');
  });

  it('follows a meeting both sides confirm', async () => {
    const d = await openDealBetween(w.t, seller, buyer, { amount: 8 });
    await pay(w, buyer, d.dealId);
    await bothConfirm(w.t, seller, buyer, d.dealId);
    expect(transfersOf(d.dealId)).toHaveLength(1);
    // 8.00 + 5% (0.40) + 0.70: the seller gets the 8.00.
    expect(await paymentOf(w, d.dealId, seller)).toMatchObject({
      status: 'released',
      totalCents: 910,
      releasedCents: 800,
    });
  });

  it('of a deal hand to hand paid in person moves nothing', async () => {
    const d = await openDealBetween(w.t, seller, buyer, { amount: 8 });
    await bothConfirm(w.t, seller, buyer, d.dealId);
    expect((await paymentOf(w, d.dealId, seller)).status).toBe('void');
    expect(transfersOf(d.dealId)).toHaveLength(0);
  });
});

describe('refund', () => {
  it('gives everything back when a paid deal is cancelled, and the book is on sale again', async () => {
    const d = await postDeal(w, seller, buyer);
    await pay(w, buyer, d.dealId);
    expect((await w.req('POST', `/api/deals/${d.dealId}/cancel`, seller)).statusCode).toBe(200);
    const sent = calls(w, 'POST', '/v1/refunds').filter(
      (c) => c.idempotencyKey === `refund-${d.dealId}`,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].params).toMatchObject({ amount: '1540', metadata: { deal_id: d.dealId } });
    expect(await paymentOf(w, d.dealId, buyer)).toMatchObject({
      status: 'refunded',
      refundedCents: 1540,
      releasedCents: 0,
    });
    expect((await w.req('GET', `/api/listings/${d.listingId}`)).json().status).toBe('available');
    expect(transfersOf(d.dealId)).toHaveLength(0);
  });

  it('of part (a case in the buyer’s favour) releases the rest when the deal completes', async () => {
    const d = await shippedAndPaid();
    await expect(refund(w.ctx, d.dealId, 1401)).rejects.toMatchObject({ statusCode: 400 });
    expect(await refund(w.ctx, d.dealId, 500)).toBe(true);
    expect(await refund(w.ctx, d.dealId, 500)).toBe(false);
    expect((await w.req('POST', `/api/deals/${d.dealId}/confirm`, buyer)).statusCode).toBe(200);
    expect(transfersOf(d.dealId)[0].params.amount).toBe('900');
    expect(await paymentOf(w, d.dealId, seller)).toMatchObject({
      status: 'released',
      refundedCents: 500,
      releasedCents: 900,
    });
  });

  it('sends back a payment that arrives after the deal was cancelled', async () => {
    const d = await postDeal(w, seller, buyer);
    const page = (await w.req('POST', `/api/deals/${d.dealId}/payment/checkout`, buyer)).json().url;
    expect((await w.req('POST', `/api/deals/${d.dealId}/cancel`, buyer)).statusCode).toBe(200);
    expect((await paymentOf(w, d.dealId, buyer)).status).toBe('void');
    // The buyer still had the payment page open, and pays.
    expect((await fetch(page, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect(await paymentOf(w, d.dealId, buyer)).toMatchObject({
      status: 'refunded',
      refundedCents: 1540,
    });
  });
});

describe('a meeting paid in the app', () => {
  it('is refunded in full when it is cancelled before the exchange', async () => {
    const d = await openDealBetween(w.t, seller, buyer, { amount: 8 });
    await pay(w, buyer, d.dealId);
    expect((await paymentOf(w, d.dealId, buyer)).status).toBe('paid');
    const cancelled = await w.req('POST', `/api/deals/${d.dealId}/cancel`, buyer);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(refundsOf(d.dealId).map((c) => c.params.amount)).toEqual(['910']);
    expect(transfersOf(d.dealId)).toHaveLength(0);
    expect(await paymentOf(w, d.dealId, seller)).toMatchObject({
      status: 'refunded',
      refundedCents: 910,
      releasedCents: 0,
    });
  });
});

describe('an attacker', () => {
  it('cannot release the money early: the seller’s own steps move nothing', async () => {
    // By post, the seller answers in the buyer's place.
    const d = await shippedAndPaid();
    for (const step of ['confirm', 'received'])
      expect((await w.req('POST', `/api/deals/${d.dealId}/${step}`, seller)).statusCode).toBe(403);
    // Hand to hand, the seller confirms the meeting alone, twice.
    const m = await openDealBetween(w.t, seller, buyer, { amount: 8 });
    await pay(w, buyer, m.dealId);
    expect((await w.req('POST', `/api/deals/${m.dealId}/meeting/confirm`, seller)).statusCode).toBe(
      200,
    );
    expect((await w.req('POST', `/api/deals/${m.dealId}/meeting/confirm`, seller)).statusCode).toBe(
      409,
    );
    for (const id of [d.dealId, m.dealId]) {
      expect(transfersOf(id)).toHaveLength(0);
      expect((await paymentOf(w, id, seller)).status).toBe('paid');
    }
  });

  it('cannot send a refund to another member: it goes back to the charge the buyer paid', async () => {
    const stranger = await createMember(w.t);
    const d = await postDeal(w, seller, buyer);
    await pay(w, buyer, d.dealId);
    // Someone else cancelling the deal is nobody to it.
    expect((await w.req('POST', `/api/deals/${d.dealId}/cancel`, stranger)).statusCode).toBe(404);
    expect(refundsOf(d.dealId)).toHaveLength(0);
    expect((await w.req('POST', `/api/deals/${d.dealId}/cancel`, seller)).statusCode).toBe(200);
    const [charge] = (await ledger(w, d.dealId)).filter((r) => r.kind === 'charge');
    const sent = refundsOf(d.dealId);
    expect(sent).toHaveLength(1);
    // Only the buyer's own payment is named: no other destination, account or card.
    expect(Object.keys(sent[0].params).sort()).toEqual(['amount', 'metadata', 'payment_intent']);
    expect(sent[0].params.payment_intent).toBe(charge.stripe_id);
    // …the payment made on this deal's Checkout page, by its buyer.
    const intent = w.fake.state.objects.get(charge.stripe_id!)!;
    expect(intent.transfer_group).toBe(`deal_${d.dealId}`);
  });
});

describe('a crash between Stripe’s answer and the ledger', () => {
  it('is found by reconciliation and resumed with the same key: nothing lost or doubled', async () => {
    const d = await shippedAndPaid();
    // Stripe makes the transfer, but its answer never reaches us.
    w.fake.loseAnswer('POST', '/v1/transfers');
    expect((await w.req('POST', `/api/deals/${d.dealId}/confirm`, buyer)).statusCode).toBe(200);
    const made = [...w.fake.state.objects.values()].filter(
      (o) => o.object === 'transfer' && (o.metadata as { deal_id?: string }).deal_id === d.dealId,
    );
    expect(made).toHaveLength(1);
    expect((await ledger(w, d.dealId)).at(-1)).toMatchObject({ kind: 'transfer', stripe_id: null });
    expect((await paymentOf(w, d.dealId, seller)).status).toBe('paid');

    const found = (await reconcile(w.ctx)).differences.filter((x) => x.dealId === d.dealId);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'transfer',
          problem: 'claimed in the ledger, not confirmed by Stripe',
        }),
        expect.objectContaining({
          kind: 'transfer',
          stripeId: made[0].id,
          problem: 'in Stripe, not in the ledger',
        }),
      ]),
    );

    expect(await resume(w.ctx, 0)).toBeGreaterThanOrEqual(1);
    expect((await ledger(w, d.dealId)).at(-1)).toMatchObject({
      kind: 'transfer',
      stripe_id: made[0].id,
    });
    expect((await paymentOf(w, d.dealId, seller)).status).toBe('released');
    expect(
      [...w.fake.state.objects.values()].filter(
        (o) => o.object === 'transfer' && (o.metadata as { deal_id?: string }).deal_id === d.dealId,
      ),
    ).toHaveLength(1);
    expect((await reconcile(w.ctx)).differences.filter((x) => x.dealId === d.dealId)).toEqual([]);
  });
});

describe('reconciliation', () => {
  it('finds a ledger amount that is not Stripe’s, and is for admins only', async () => {
    const d = await shippedAndPaid();
    await w.t.database.query(
      `update payment_ledger set amount_cents = 1500 where deal_id = $1 and kind = 'charge'`,
      [d.dealId],
    );
    const { differences } = await reconcile(w.ctx);
    expect(differences.filter((x) => x.dealId === d.dealId)).toEqual([
      {
        dealId: d.dealId,
        kind: 'charge',
        stripeId: expect.stringMatching(/^pi_/),
        ledgerCents: 1500,
        stripeCents: 1540,
        problem: 'amounts differ',
      },
    ]);
    expect((await w.req('GET', '/api/admin/payments/reconciliation')).statusCode).toBe(401);
    expect((await w.req('GET', '/api/admin/payments/reconciliation', buyer)).statusCode).toBe(404);
    const admin = await createMember(w.t);
    await makeAdmin(w.t, admin);
    const report = await w.req('GET', '/api/admin/payments/reconciliation', admin);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().differences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ dealId: d.dealId, problem: 'amounts differ' }),
      ]),
    );
  });
});
