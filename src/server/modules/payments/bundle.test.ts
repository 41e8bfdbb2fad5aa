import { beforeAll, describe, expect, it } from 'vitest';
import { createListing } from '../../test/listings';
import { createMember, type Member } from '../../test/members';
import {
  address,
  calls,
  ledger,
  pay,
  paymentOf,
  worldWithSeller,
  type PaymentsWorld,
} from './world.fixture';

/**
 * A bundle (several books of one seller in one offer, shipped in one parcel) is one deal with one
 * payment (issue 36): the agreed amount for all the books, the bundle's shipping and the fee on
 * both; one Checkout session with every title; one transfer on completion, one refund on a
 * cancel; every book sold or on sale again together.
 */
let w: PaymentsWorld;
let seller: Member;
let buyer: Member;

beforeAll(async () => {
  [w, seller, buyer] = await worldWithSeller(2);
}, 120_000);

let n = 0;
/** Three books of the seller, shipping 3, 5.50 and 4 (the bundle ships by the highest). */
async function bundleDeal(amount: number) {
  const ids: string[] = [];
  for (const shippingCost of [3, 5.5, 4])
    ids.push(
      (await createListing(w.t, seller, { title: `Fascio ${++n}`, price: 12, shippingCost })).id,
    );
  const offer = await w.req('POST', '/api/chats/bundles', buyer, { listingIds: ids, amount });
  expect(offer.statusCode, offer.body).toBe(201);
  const accepted = await w.req(
    'POST',
    `/api/chats/offers/${offer.json().message.offer.id}/accept`,
    seller,
  );
  expect(accepted.statusCode, accepted.body).toBe(200);
  return { ids, dealId: accepted.json().message.offer.dealId as string };
}

const listingStatus = async (ids: string[]) =>
  Promise.all(ids.map(async (id) => (await w.req('GET', `/api/listings/${id}`)).json().status));

describe('a bundle paid in the app', () => {
  it('is one payment for all its books: paid once, released once when the deal completes', async () => {
    const { ids, dealId } = await bundleDeal(30);
    // 30 + 5.50 shipping = 35.50; the fee 5% (1.78) + 0.70 = 2.48; 37.98 in all.
    expect(await paymentOf(w, dealId, buyer)).toMatchObject({
      status: 'due',
      booksCents: 3000,
      shippingCents: 550,
      feeCents: 248,
      totalCents: 3798,
    });
    const shipEarly = await w.req('POST', `/api/deals/${dealId}/ship`, seller, {
      carrier: 'brt',
      tracking: 'BRT-3',
    });
    expect(shipEarly.statusCode).toBe(409);
    const session = await pay(w, buyer, dealId);
    const created = calls(w, 'POST', '/v1/checkout/sessions').find((c) =>
      String(c.idempotencyKey).startsWith(`checkout-${dealId}-`),
    )!;
    const lines = created.params.line_items as { price_data: Record<string, unknown> }[];
    expect(lines.map((l) => l.price_data.unit_amount)).toEqual(['3000', '550', '248']);
    const names = String((lines[0].price_data.product_data as { name: string }).name);
    for (const i of [n - 2, n - 1, n]) expect(names).toContain(`Fascio ${i}`);
    expect(session).toMatch(/^cs_test_/);
    expect((await paymentOf(w, dealId, seller)).status).toBe('paid');

    for (const [who, path, body] of [
      [buyer, 'address', { address }],
      [seller, 'ship', { carrier: 'brt', tracking: 'BRT-4' }],
      [buyer, 'confirm', undefined],
    ] as const) {
      const res = await w.req('POST', `/api/deals/${dealId}/${path}`, who, body);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    const transfers = calls(w, 'POST', '/v1/transfers').filter(
      (c) => c.idempotencyKey === `release-${dealId}`,
    );
    expect(transfers.map((c) => c.params.amount)).toEqual(['3550']);
    expect((await ledger(w, dealId)).map((r) => [r.kind, r.amount_cents])).toEqual([
      ['charge', 3798],
      ['fee', 248],
      ['transfer', 3550],
    ]);
    expect(await listingStatus(ids)).toEqual(['sold', 'sold', 'sold']);
  }, 90_000);

  it('cancelled after payment: refunded in full once, every book on sale again', async () => {
    const { ids, dealId } = await bundleDeal(25);
    await pay(w, buyer, dealId);
    const cancels = await Promise.all([
      w.req('POST', `/api/deals/${dealId}/cancel`, buyer),
      w.req('POST', `/api/deals/${dealId}/cancel`, seller),
    ]);
    expect(cancels.map((c) => c.statusCode).sort()).toEqual([200, 409]);
    const refunds = calls(w, 'POST', '/v1/refunds').filter(
      (c) => c.idempotencyKey === `refund-${dealId}`,
    );
    // 25 + 5.50 = 30.50; fee 1.53 + 0.70 = 2.23; 32.73.
    expect(refunds.map((c) => c.params.amount)).toEqual(['3273']);
    expect(await paymentOf(w, dealId, buyer)).toMatchObject({
      status: 'refunded',
      refundedCents: 3273,
      releasedCents: 0,
    });
    expect(await listingStatus(ids)).toEqual(['available', 'available', 'available']);
  }, 90_000);

  it('cannot be paid by another member, nor its amount changed by the browser', async () => {
    const { dealId } = await bundleDeal(20);
    const stranger = await createMember(w.t);
    expect(
      (await w.req('POST', `/api/deals/${dealId}/payment/checkout`, stranger)).statusCode,
    ).toBe(404);
    expect((await w.req('POST', `/api/deals/${dealId}/payment/checkout`, seller)).statusCode).toBe(
      403,
    );
    const res = await w.req('POST', `/api/deals/${dealId}/payment/checkout`, buyer, {
      amount: 1,
      totalCents: 50,
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = calls(w, 'POST', '/v1/checkout/sessions').filter((c) =>
      String(c.idempotencyKey).startsWith(`checkout-${dealId}-`),
    );
    const lines = created[0].params.line_items as { price_data: { unit_amount: string } }[];
    // 20 + 5.50 = 25.50; fee 1.28 + 0.70 = 1.98.
    expect(lines.map((l) => l.price_data.unit_amount)).toEqual(['2000', '550', '198']);
  }, 90_000);
});
