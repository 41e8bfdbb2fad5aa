import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../../test/members';
import {
  address,
  onboard,
  pay,
  postDeal,
  worldWithSeller,
  type PaymentsWorld,
} from './world.fixture';

/**
 * A member's payments and their data rights (issue 36): "Download my data" includes their
 * payments (as buyer or as seller: the deals' amounts and the ledger's rows with Stripe's ids);
 * "Delete my account" keeps the ledger the law requires (amounts, times, Stripe's ids) but no
 * longer linked to the account, and says so.
 */
let w: PaymentsWorld;
let seller: Member;
let buyer: Member;

beforeAll(async () => {
  [w, seller, buyer] = await worldWithSeller(2);
}, 120_000);

/** A sale by post paid, shipped and confirmed: charge, fee and transfer rows. */
async function completedDeal() {
  const d = await postDeal(w, seller, buyer);
  await pay(w, buyer, d.dealId);
  expect(
    (await w.req('POST', `/api/deals/${d.dealId}/address`, buyer, { address })).statusCode,
  ).toBe(200);
  expect(
    (
      await w.req('POST', `/api/deals/${d.dealId}/ship`, seller, {
        carrier: 'brt',
        tracking: 'BRT-2',
      })
    ).statusCode,
  ).toBe(200);
  expect((await w.req('POST', `/api/deals/${d.dealId}/confirm`, buyer)).statusCode).toBe(200);
  return d;
}

const exportOf = async (who: Member) => {
  const res = await w.req('POST', '/api/me/export', who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('payments in the data export', () => {
  it('gives the buyer and the seller their deals’ payments and ledger rows, and no one else’s', async () => {
    const d = await completedDeal();
    const mine = await exportOf(buyer);
    expect(mine.payments.deals).toEqual([
      expect.objectContaining({
        dealId: d.dealId,
        role: 'buyer',
        status: 'released',
        booksCents: 1000,
        shippingCents: 400,
        feeCents: 140,
        totalCents: 1540,
        paymentIntentId: expect.stringMatching(/^pi_/),
      }),
    ]);
    expect(
      mine.payments.ledger.map((r: { kind: string; amountCents: number }) => [
        r.kind,
        r.amountCents,
      ]),
    ).toEqual([
      ['charge', 1540],
      ['fee', 140],
      ['transfer', 1400],
    ]);
    expect(mine.payments.ledger[2].stripeId).toMatch(/^tr_/);
    expect(mine.payments.account).toBeNull();
    const theirs = await exportOf(seller);
    expect(theirs.payments.deals[0]).toMatchObject({ dealId: d.dealId, role: 'seller' });
    expect(theirs.payments.account).toMatchObject({
      stripeAccountId: expect.stringMatching(/^acct_/),
      transfersActive: true,
    });
    const other = await createMember(w.t);
    expect((await exportOf(other)).payments).toEqual({ account: null, deals: [], ledger: [] });
  }, 90_000);
});

describe('deleting an account', () => {
  it('keeps the ledger (amounts, times, Stripe ids) under a pseudonym instead of the account', async () => {
    const gone = await createMember(w.t);
    const d = await postDeal(w, seller, gone);
    await pay(w, gone, d.dealId);
    const before = await w.t.database.query<{
      kind: string;
      amount_cents: number;
      stripe_id: string;
      created_at: Date;
    }>(
      `select kind, amount_cents, stripe_id, created_at from payment_ledger where deal_id = $1
       order by id`,
      [d.dealId],
    );
    const del = await w.req('POST', '/api/me/delete', gone, { password: gone.password });
    expect(del.statusCode, del.body).toBe(200);
    const after = await w.t.database.query<{
      kind: string;
      member_id: string | null;
      amount_cents: number;
      stripe_id: string;
      created_at: Date;
    }>(
      `select kind, member_id, amount_cents, stripe_id, created_at from payment_ledger
       where deal_id = $1 order by id`,
      [d.dealId],
    );
    expect(after.map(({ member_id: _m, ...rest }) => rest)).toEqual(before);
    expect(after[0].member_id).toMatch(/^erased-[0-9a-f-]{36}$/);
    const named = await w.t.database.query('select 1 from payment_ledger where member_id = $1', [
      gone.id,
    ]);
    expect(named).toHaveLength(0);
  }, 90_000);

  it('keeps a seller’s connected account while a deal holds money for them, else drops it', async () => {
    const shop = await createMember(w.t);
    await onboard(w, shop);
    const d = await postDeal(w, shop, buyer);
    await pay(w, buyer, d.dealId);
    expect(
      (await w.req('POST', '/api/me/delete', shop, { password: shop.password })).statusCode,
    ).toBe(200);
    const kept = await w.t.database.query('select 1 from payment_accounts where user_id = $1', [
      shop.id,
    ]);
    expect(kept).toHaveLength(1);

    const idle = await createMember(w.t);
    await onboard(w, idle);
    expect(
      (await w.req('POST', '/api/me/delete', idle, { password: idle.password })).statusCode,
    ).toBe(200);
    const dropped = await w.t.database.query('select 1 from payment_accounts where user_id = $1', [
      idle.id,
    ]);
    expect(dropped).toHaveLength(0);
  }, 90_000);
});
