import { beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import type { Member } from '../../test/members';
import { stripeSignature } from '../../test/stripe/fake-stripe';
import {
  CONNECT_WEBHOOK_SECRET,
  WEBHOOK_SECRET,
  deliver,
  ledger,
  pay,
  paymentOf,
  postDeal,
  type PaymentsWorld,
  worldWithSeller,
} from './world.fixture';

/**
 * Stripe's webhook as an attacker and as a flaky network see it: a forged, altered or unsigned
 * event is a 400 that changes nothing; a replayed or twice-delivered event counts once; an event
 * the app does not use is acknowledged and ignored; a signed event whose amount is not the one
 * due does not mark the deal paid.
 */
let w: PaymentsWorld, seller: Member, buyer: Member;

beforeAll(async () => {
  [w, seller, buyer] = await worldWithSeller(2);
}, 120_000);

const now = () => Math.floor(Date.now() / 1000);
const eventOf = (type: string, object: object, id = `evt_test_${Math.random()}`) =>
  JSON.stringify({ id, object: 'event', type, api_version: '2026-11-18.endive', data: { object } });

/** A Checkout session completed for `dealId`, as Stripe would describe it. */
const completed = (dealId: string, amount: number) => ({
  id: `cs_test_${Math.random().toString(36).slice(2)}`,
  object: 'checkout.session',
  mode: 'payment',
  status: 'complete',
  payment_status: 'paid',
  amount_total: amount,
  currency: 'eur',
  metadata: { deal_id: dealId },
  payment_intent: `pi_${Math.random().toString(36).slice(2)}`,
});

describe('a forged event', () => {
  it('is refused (400) when its signature is of another secret, missing, or of other words', async () => {
    const d = await postDeal(w, seller, buyer);
    const payload = eventOf('checkout.session.completed', completed(d.dealId, 1540));
    const forged = stripeSignature(payload, 'whsec_attacker', now());
    for (const [body, signature] of [
      [payload, forged],
      [payload, undefined],
      [payload, 'garbage'],
      [payload.replace('1540', '1541'), stripeSignature(payload, WEBHOOK_SECRET, now())],
      // A genuine signature too old to be replayed (Stripe's tolerance: 5 minutes).
      [payload, stripeSignature(payload, WEBHOOK_SECRET, now() - 3600)],
    ] as const) {
      const res = await deliver(w.t, body, signature);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toBe('La firma dell’evento non è valida');
    }
    expect((await paymentOf(w, d.dealId, buyer)).status).toBe('due');
    expect(await ledger(w, d.dealId)).toEqual([]);
  });

  it('says why in the error format', async () => {
    const res = await deliver(w.t, eventOf('account.updated', {}), 't=1,v1=00');
    expect(res.json()).toEqual({
      error: { code: 'bad_request', message: 'La firma dell’evento non è valida' },
    });
  });

  it('signs as Stripe’s own library does', () => {
    const payload = eventOf('account.updated', {});
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: 1_700_000_000,
    });
    expect(stripeSignature(payload, WEBHOOK_SECRET, 1_700_000_000)).toBe(header);
  });
});

describe('a genuine event', () => {
  it('counts once: a replay of it changes nothing', async () => {
    const d = await postDeal(w, seller, buyer);
    await pay(w, buyer, d.dealId);
    const sent = w.fake.deliveries.at(-1)!;
    expect(sent.status).toBe(200);
    const rows = await ledger(w, d.dealId);
    expect(rows).toHaveLength(2);
    const payload = JSON.stringify(sent.event, null, 2);
    const replay = await deliver(w.t, payload, w.fake.sign(payload));
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await ledger(w, d.dealId)).toEqual(rows);
  });

  it('delivered twice at once still counts once', async () => {
    const d = await postDeal(w, seller, buyer);
    const [payment] = await w.t.database.query<{ total_cents: number }>(
      'select total_cents from deal_payments where deal_id = $1',
      [d.dealId],
    );
    const payload = eventOf('checkout.session.completed', completed(d.dealId, payment.total_cents));
    const signature = w.fake.sign(payload);
    const answers = await Promise.all([
      deliver(w.t, payload, signature),
      deliver(w.t, payload, signature),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json().duplicate).sort()).toEqual([false, true]);
    expect((await ledger(w, d.dealId)).map((r) => r.kind)).toEqual(['charge', 'fee']);
    expect((await paymentOf(w, d.dealId, buyer)).status).toBe('paid');
  });

  it('does not mark a deal paid for another amount than the one due', async () => {
    const d = await postDeal(w, seller, buyer);
    const payload = eventOf('checkout.session.completed', completed(d.dealId, 50));
    const res = await deliver(w.t, payload, w.fake.sign(payload));
    expect(res.statusCode).toBe(200);
    expect((await paymentOf(w, d.dealId, buyer)).status).toBe('due');
    expect(await ledger(w, d.dealId)).toEqual([]);
  });

  it('may be signed by the Connect endpoint’s secret', async () => {
    const payload = eventOf('account.updated', { id: 'acct_other', object: 'account' });
    const signed = stripeSignature(payload, CONNECT_WEBHOOK_SECRET, now());
    expect((await deliver(w.t, payload, signed)).statusCode).toBe(200);
  });

  it('of a type the app does not use is acknowledged and ignored', async () => {
    const payload = eventOf('customer.created', { id: 'cus_1', object: 'customer' });
    const res = await deliver(w.t, payload, w.fake.sign(payload));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    const unknownAccount = eventOf('account.updated', {
      id: 'acct_unknown',
      object: 'account',
      details_submitted: true,
      capabilities: { transfers: 'active' },
    });
    expect((await deliver(w.t, unknownAccount, w.fake.sign(unknownAccount))).statusCode).toBe(200);
  });

  it('records a dispute on a deal’s payment in the ledger', async () => {
    const d = await postDeal(w, seller, buyer);
    await pay(w, buyer, d.dealId);
    const [{ payment_intent_id }] = await w.t.database.query<{ payment_intent_id: string }>(
      'select payment_intent_id from deal_payments where deal_id = $1',
      [d.dealId],
    );
    const dispute = await w.fake.dispute(payment_intent_id);
    expect(w.fake.deliveries.at(-1)!.status).toBe(200);
    expect((await ledger(w, d.dealId)).at(-1)).toEqual({
      kind: 'dispute',
      amount_cents: 1540,
      stripe_id: dispute.id,
    });
  });
});
