import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { expectRefusal, requester } from '../../test/members';
import { openDealBetween } from '../../test/deals';
import {
  address,
  calls,
  ledger,
  pay,
  paymentOf,
  postDeal,
  type PaymentsWorld,
  worldWithSeller,
} from './world.fixture';

/**
 * The buyer pays a deal (issue 36): the amount is the server's (agreed books and shipping, plus
 * the fee), through Stripe's hosted Checkout; the seller, others, visitors, a second payment, a
 * seller who has not set up payments and a deal paid outside the app are refused; the parcel
 * leaves once paid.
 */
const HOUR = 3_600_000;
const clock = new Date('2026-12-07T09:00:00Z').getTime();
let w: PaymentsWorld, seller: Member, buyer: Member, other: Member, unready: Member;

beforeAll(async () => {
  [w, seller, buyer, other, unready] = await worldWithSeller(4, () => new Date(clock));
}, 120_000);

const checkout = (dealId: string, who?: Member, body?: unknown, lang = 'en') =>
  w.req('POST', `/api/deals/${dealId}/payment/checkout`, who, body, lang);

describe('what the buyer pays', () => {
  it('is the agreed books and shipping plus the fee, in cents, due within 48 hours by post', async () => {
    const d = await postDeal(w, seller, buyer);
    for (const who of [buyer, seller])
      expect(await paymentOf(w, d.dealId, who)).toEqual({
        status: 'due',
        currency: 'EUR',
        booksCents: 1000,
        shippingCents: 400,
        // 5% of 14.00 is 0.70, plus 0.70.
        feeCents: 140,
        totalCents: 1540,
        dueBy: new Date(clock + 48 * HOUR).toISOString(),
        paidAt: null,
        releasedCents: 0,
        refundedCents: 0,
        sellerReady: true,
      });
  });

  it('is the counter-offer’s amount when one was accepted, never the listing’s price', async () => {
    const d = await openDealBetween(w.t, seller, buyer, { listing: { price: 30 }, amount: 22.5 });
    const payment = await paymentOf(w, d.dealId, buyer);
    expect(payment).toMatchObject({ booksCents: 2250, shippingCents: 0, dueBy: null });
    // 5% of 22.50 is 1.125, rounded to 1.13, plus 0.70.
    expect(payment.feeCents).toBe(183);
  });

  it('is shown to the deal’s two sides only', async () => {
    const d = await postDeal(w, seller, buyer);
    expect((await w.req('GET', `/api/deals/${d.dealId}/payment`)).statusCode).toBe(401);
    await expectRefusal(w.t, ['GET', `/api/deals/${d.dealId}/payment`, other, undefined], {
      status: 404,
      en: 'Deal not found',
      it: 'Trattativa non trovata',
    });
    expect((await w.req('GET', `/api/deals/not-a-uuid/payment`, buyer)).statusCode).toBe(404);
  });
});

describe('the fee, before paying', () => {
  it('is public: whether payments are on, the fee and the time to pay, to a visitor too', async () => {
    const res = await w.req('GET', '/api/payments/fee');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      enabled: true,
      fee: { percent: 5, fixedCents: 70 },
      payWithinHours: 48,
    });
  });

  it('leaves the pages’ policy strict: Stripe’s pages are left for, never loaded in ours', async () => {
    const res = await w.req('GET', '/api/payments/fee');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toMatch(/stripe/i);
  });
});

describe('paying', () => {
  it('sends the buyer to Stripe’s Checkout for the server’s amount, whatever the client sends', async () => {
    const d = await postDeal(w, seller, buyer);
    const res = await checkout(d.dealId, buyer, {
      amount: 1,
      totalCents: 1,
      line_items: [{ price_data: { unit_amount: 1 } }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toMatch(new RegExp(`^${w.fake.url}/checkout/pay/cs_test_`));
    const created = calls(w, 'POST', '/v1/checkout/sessions').at(-1)!;
    expect(created.idempotencyKey).toBe(`checkout-${d.dealId}-1`);
    expect(created.params).toMatchObject({
      mode: 'payment',
      metadata: { deal_id: d.dealId },
      client_reference_id: d.dealId,
      payment_intent_data: { transfer_group: `deal_${d.dealId}` },
      locale: 'en',
      line_items: [
        { quantity: '1', price_data: { currency: 'eur', unit_amount: '1000' } },
        { price_data: { unit_amount: '400', product_data: { name: 'Shipping' } } },
        { price_data: { unit_amount: '140', product_data: { name: 'Buyer protection' } } },
      ],
    });
    const session = w.fake.state.objects.get(res.json().url.split('/').pop())!;
    expect(session.amount_total).toBe(1540);
    expect(String(created.params.success_url)).toBe(
      `http://localhost:3000/profile/${buyer.id}/chats?room=${d.roomId}&payment=done`,
    );

    // Asking again while the page is open gives the same page: one payable session at a time.
    const again = await checkout(d.dealId, buyer);
    expect(again.json().url).toBe(res.json().url);
    expect(
      calls(w, 'POST', '/v1/checkout/sessions').filter((c) =>
        c.idempotencyKey?.startsWith(`checkout-${d.dealId}`),
      ),
    ).toHaveLength(1);
  });

  it('marks the deal paid when Stripe says so, with the charge and the fee in the ledger', async () => {
    const d = await postDeal(w, seller, buyer);
    await pay(w, buyer, d.dealId);
    expect(await paymentOf(w, d.dealId, seller)).toMatchObject({
      status: 'paid',
      totalCents: 1540,
      paidAt: new Date(clock).toISOString(),
    });
    const rows = await ledger(w, d.dealId);
    expect(rows.map((r) => [r.kind, r.amount_cents])).toEqual([
      ['charge', 1540],
      ['fee', 140],
    ]);
    expect(rows[0].stripe_id).toMatch(/^pi_/);
    // The seller's page shows the money held for them (books and shipping).
    const overview = (await w.req('GET', '/api/payments/account', seller)).json();
    expect(overview.money).toEqual(
      expect.arrayContaining([expect.objectContaining({ currency: 'EUR' })]),
    );
    expect(overview.money[0].heldCents).toBeGreaterThanOrEqual(1400);

    // Paying twice is refused, and nothing is created in Stripe.
    const before = calls(w, 'POST', '/v1/checkout/sessions').length;
    await expectRefusal(
      w.t,
      ['POST', `/api/deals/${d.dealId}/payment/checkout`, buyer, undefined],
      {
        status: 409,
        en: 'This deal is already paid',
        it: 'Questa trattativa è già pagata',
      },
    );
    expect(calls(w, 'POST', '/v1/checkout/sessions')).toHaveLength(before);
  });

  it('opens a new payment page once the last one expired', async () => {
    const d = await postDeal(w, seller, buyer);
    const first = (await checkout(d.dealId, buyer)).json().url as string;
    w.fake.state.expireSession(first.split('/').pop()!);
    const second = await checkout(d.dealId, buyer, undefined, 'it');
    expect(second.statusCode).toBe(200);
    expect(second.json().url).not.toBe(first);
    expect(calls(w, 'POST', '/v1/checkout/sessions').at(-1)).toMatchObject({
      idempotencyKey: `checkout-${d.dealId}-2`,
      params: {
        locale: 'it',
        line_items: [{}, { price_data: { product_data: { name: 'Spedizione' } } }, {}],
      },
    });
  });

  it('is refused to visitors (401), the seller (403) and other members (404)', async () => {
    const d = await postDeal(w, seller, buyer);
    expect((await checkout(d.dealId)).statusCode).toBe(401);
    await expectRefusal(
      w.t,
      ['POST', `/api/deals/${d.dealId}/payment/checkout`, seller, undefined],
      {
        status: 403,
        en: 'Only the buyer pays for the deal',
        it: 'Solo chi compra paga la trattativa',
      },
    );
    await expectRefusal(
      w.t,
      ['POST', `/api/deals/${d.dealId}/payment/checkout`, other, undefined],
      {
        status: 404,
        en: 'Deal not found',
        it: 'Trattativa non trovata',
      },
    );
    expect((await paymentOf(w, d.dealId, buyer)).status).toBe('due');
  });

  it('waits for a seller who has not set up payments', async () => {
    const d = await postDeal(w, unready, buyer);
    expect((await paymentOf(w, d.dealId, buyer)).sellerReady).toBe(false);
    await expectRefusal(
      w.t,
      ['POST', `/api/deals/${d.dealId}/payment/checkout`, buyer, undefined],
      {
        status: 409,
        en: 'The seller has not set up payments yet: you can pay once they have',
        it: 'Chi vende non ha ancora attivato i pagamenti: potrai pagare appena lo avrà fatto',
      },
    );
  });

  it('is refused once the deal ended, and for a deal paid outside the app', async () => {
    const d = await postDeal(w, seller, buyer);
    expect((await w.req('POST', `/api/deals/${d.dealId}/cancel`, buyer)).statusCode).toBe(200);
    await expectRefusal(
      w.t,
      ['POST', `/api/deals/${d.dealId}/payment/checkout`, buyer, undefined],
      {
        status: 409,
        en: 'This deal has already ended',
        it: 'Questa trattativa è già finita',
      },
    );
    expect((await paymentOf(w, d.dealId, buyer)).status).toBe('void');
    // A deal opened before payments were on has no payment: it is paid as agreed.
    const before = await postDeal(w, seller, buyer);
    await w.t.database.query('delete from deal_payments where deal_id = $1', [before.dealId]);
    await expectRefusal(
      w.t,
      ['POST', `/api/deals/${before.dealId}/payment/checkout`, buyer, undefined],
      {
        status: 409,
        en: 'This deal is not paid in the app: pay as you agreed',
        it: 'Questa trattativa non si paga nell’app: pagate come vi siete accordati',
      },
    );
  });
});

describe('the parcel', () => {
  it('leaves once the buyer has paid', async () => {
    const d = await postDeal(w, seller, buyer);
    expect(
      (await w.req('POST', `/api/deals/${d.dealId}/address`, buyer, { address })).statusCode,
    ).toBe(200);
    const ship = [
      'POST',
      `/api/deals/${d.dealId}/ship`,
      seller,
      { carrier: 'brt', tracking: 'BRT-1' },
    ] as const;
    await expectRefusal(w.t, [...ship], {
      status: 409,
      en: 'The buyer has not paid yet: ship once the payment shows',
      it: 'Chi compra non ha ancora pagato: spedisci quando il pagamento risulta arrivato',
    });
    await pay(w, buyer, d.dealId);
    const shipped = await w.req(...ship);
    expect(shipped.statusCode, shipped.body).toBe(200);
  });
});

describe('with payments off', () => {
  it('leaves deals as they were: no payment, the parcel ships unpaid', async () => {
    const off = await createTestApp();
    const req = requester(off);
    const [s, b] = await Promise.all([createMember(off), createMember(off)]);
    const d = await openDealBetween(off, s, b, { listing: { shippingCost: 4 } });
    expect((await req('GET', `/api/deals/${d.dealId}/payment`, b)).json()).toEqual({
      enabled: false,
      fee: null,
      payment: null,
    });
    // The offer dialog shows no fee, and the deal card how to pay safely (e2e/deal-cards.spec.ts).
    expect((await req('GET', '/api/payments/fee')).json()).toEqual({
      enabled: false,
      fee: null,
      payWithinHours: null,
    });
    expect((await req('POST', `/api/deals/${d.dealId}/payment/checkout`, b)).statusCode).toBe(409);
    expect((await req('POST', `/api/deals/${d.dealId}/address`, b, { address })).statusCode).toBe(
      200,
    );
    const shipped = await req('POST', `/api/deals/${d.dealId}/ship`, s, {
      carrier: 'brt',
      tracking: 'BRT-2',
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
  });
});

it('documents the routes with their errors', async () => {
  const doc = (await w.req('GET', '/api/openapi.json')).json();
  expect(Object.keys(doc.paths['/api/deals/{dealId}/payment/checkout'].post.responses)).toEqual(
    expect.arrayContaining(['200', '401', '403', '404', '409', '503']),
  );
  expect(Object.keys(doc.paths['/api/deals/{dealId}/payment'].get.responses)).toEqual(
    expect.arrayContaining(['200', '401', '404']),
  );
});
