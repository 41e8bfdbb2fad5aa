import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, makeAdmin, type Member } from '../../test/members';
import {
  calls,
  createPaymentsWorld,
  ledger,
  onboard,
  paymentOf,
  postDeal,
  type PaymentsWorld,
  paidAndShipped,
} from './world.fixture';

/**
 * A problem's case closed by an admin moves the deal's money (issue 36): completed releases it,
 * cancelled refunds it all, completed with `refundCents` refunds that part of the seller's share
 * and releases the rest — claimed in the case's own transaction, so two admins closing at once
 * make one refund, and a case never leaves money in limbo. Attacked as an attacker would: not an
 * admin, amounts out of bounds or of another type, a refund with a cancel.
 */
let w: PaymentsWorld;
let seller: Member;
let buyer: Member;
let admin: Member;
let stranger: Member;

beforeAll(async () => {
  w = await createPaymentsWorld();
  [seller, buyer, admin, stranger] = await Promise.all([
    createMember(w.t),
    createMember(w.t),
    createMember(w.t),
    createMember(w.t),
  ]);
  await makeAdmin(w.t, admin);
  await onboard(w, seller);
}, 120_000);

/** A deal by post (10 + 4 shipping + 1.40 fee), paid, shipped, with a problem reported. */
async function caseOpen() {
  const d = await paidAndShipped(w, seller, buyer, 'BRT-7');
  const problem = await w.req('POST', `/api/deals/${d.dealId}/problem`, buyer, {
    reason: 'damaged',
    message: 'La copertina è strappata',
  });
  expect(problem.statusCode, problem.body).toBe(200);
  return d;
}

const close = (dealId: string, who: Member | undefined, body: object, lang?: string) =>
  w.req('POST', `/api/deals/${dealId}/case/outcome`, who, body, lang);
const refundsOf = (dealId: string) =>
  calls(w, 'POST', '/v1/refunds').filter((c) => c.idempotencyKey === `refund-${dealId}`);
const transfersOf = (dealId: string) =>
  calls(w, 'POST', '/v1/transfers').filter((c) => c.idempotencyKey === `release-${dealId}`);
const caseOutcome = async (dealId: string) =>
  (
    await w.t.database.query<{ outcome: string | null }>(
      'select outcome from deal_cases where deal_id = $1',
      [dealId],
    )
  )[0].outcome;

describe('the admin’s view of a case', () => {
  it('shows what was paid to an admin, and to nobody else but the two sides', async () => {
    const d = await caseOpen();
    const seen = await w.req('GET', `/api/deals/${d.dealId}/payment`, admin);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().payment).toMatchObject({
      status: 'paid',
      booksCents: 1000,
      shippingCents: 400,
      feeCents: 140,
      totalCents: 1540,
    });
    expect((await w.req('GET', `/api/deals/${d.dealId}/payment`, stranger)).statusCode).toBe(404);
    expect((await w.req('GET', `/api/deals/${d.dealId}/payment`)).statusCode).toBe(401);
    // Without a case an admin is nobody to the deal.
    const plain = await postDeal(w, seller, buyer);
    expect((await w.req('GET', `/api/deals/${plain.dealId}/payment`, admin)).statusCode).toBe(404);
  }, 90_000);
});

describe('closing a case with a refund', () => {
  it('refunds part, releases the rest, and both sides see it', async () => {
    const d = await caseOpen();
    const closed = await close(d.dealId, admin, { outcome: 'completed', refundCents: 500 });
    expect(closed.statusCode, closed.body).toBe(200);
    const refunds = refundsOf(d.dealId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].params).toMatchObject({ amount: '500', metadata: { deal_id: d.dealId } });
    expect(transfersOf(d.dealId).map((c) => c.params.amount)).toEqual(['900']);
    const rows = await ledger(w, d.dealId);
    expect(rows.map((r) => [r.kind, r.amount_cents])).toEqual([
      ['charge', 1540],
      ['fee', 140],
      ['refund', 500],
      ['transfer', 900],
    ]);
    expect(rows[2].stripe_id).toMatch(/^re_/);
    expect(rows[3].stripe_id).toMatch(/^tr_/);
    expect(await paymentOf(w, d.dealId, buyer)).toMatchObject({
      status: 'released',
      refundedCents: 500,
      releasedCents: 900,
    });
    expect(await caseOutcome(d.dealId)).toBe('completed');
    // The conversation says where the money went.
    const lines = await w.t.database.query<{ content: string }>(
      `select content from chat_messages where deal_id = $1 and type = 'deal' order by created_at, id`,
      [d.dealId],
    );
    expect(lines.map((l) => l.content)).toEqual(
      expect.arrayContaining(['payment.paid', 'payment.refunded', 'payment.released']),
    );
  }, 90_000);

  it('refunds everything when the admin cancels the deal', async () => {
    const d = await caseOpen();
    const closed = await close(d.dealId, admin, { outcome: 'cancelled' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(refundsOf(d.dealId).map((c) => c.params.amount)).toEqual(['1540']);
    expect(transfersOf(d.dealId)).toHaveLength(0);
    expect(await paymentOf(w, d.dealId, buyer)).toMatchObject({
      status: 'refunded',
      refundedCents: 1540,
    });
  }, 90_000);

  it('refunding the whole share leaves nothing to release, and nothing in limbo', async () => {
    const d = await caseOpen();
    expect(
      (await close(d.dealId, admin, { outcome: 'completed', refundCents: 1400 })).statusCode,
    ).toBe(200);
    expect(transfersOf(d.dealId)).toHaveLength(0);
    expect(await paymentOf(w, d.dealId, seller)).toMatchObject({
      status: 'refunded',
      refundedCents: 1400,
      releasedCents: 0,
    });
  }, 90_000);

  it('happens once when two admins close the case at the same time', async () => {
    const d = await caseOpen();
    const other = await createMember(w.t);
    await makeAdmin(w.t, other);
    const answers = await Promise.all([
      close(d.dealId, admin, { outcome: 'completed', refundCents: 300 }),
      close(d.dealId, other, { outcome: 'completed', refundCents: 400 }),
      close(d.dealId, admin, { outcome: 'cancelled' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const refunds = refundsOf(d.dealId);
    expect(refunds.length).toBeLessThanOrEqual(1);
    const rows = await ledger(w, d.dealId);
    expect(rows.filter((r) => r.kind === 'refund').length).toBe(refunds.length);
    expect(rows.filter((r) => r.kind === 'transfer').length).toBeLessThanOrEqual(1);
    // Whatever won, the money all went somewhere.
    const p = await paymentOf(w, d.dealId, buyer);
    expect(['released', 'refunded']).toContain(p.status);
    const feeKept = p.refundedCents === 1540 ? 0 : 140;
    expect(p.refundedCents + p.releasedCents + feeKept).toBe(1540);
  }, 90_000);
});

describe('an attacker closing a case', () => {
  it('is refused: anonymous 401, the sides 403, anyone else 404, and nothing moves', async () => {
    const d = await caseOpen();
    const body = { outcome: 'completed', refundCents: 1400 };
    expect((await close(d.dealId, undefined, body)).statusCode).toBe(401);
    expect((await close(d.dealId, buyer, body)).statusCode).toBe(403);
    expect((await close(d.dealId, seller, { outcome: 'cancelled' })).statusCode).toBe(403);
    expect((await close(d.dealId, stranger, body)).statusCode).toBe(404);
    expect(refundsOf(d.dealId)).toHaveLength(0);
    expect(await caseOutcome(d.dealId)).toBeNull();
    expect((await paymentOf(w, d.dealId, buyer)).status).toBe('paid');
  }, 90_000);

  it('cannot tamper with the amount: each is a 400 in the reader’s language', async () => {
    const d = await caseOpen();
    const tooMuch = await close(d.dealId, admin, { outcome: 'completed', refundCents: 1401 }, 'it');
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.message).toBe(
      'Un rimborso parziale deve essere più di 0 e al massimo 14,00\u00a0€, la somma custodita per chi vende',
    );
    const en = await close(d.dealId, admin, { outcome: 'completed', refundCents: 1540 }, 'en');
    expect(en.statusCode).toBe(400);
    expect(en.json().error.message).toContain('at most €14.00');
    for (const refundCents of [0, -500, 10.5, '500', 1e12, null, 'DROP\u0000'])
      expect(
        (await close(d.dealId, admin, { outcome: 'completed', refundCents })).statusCode,
        String(refundCents),
      ).toBe(400);
    const withCancel = await close(
      d.dealId,
      admin,
      { outcome: 'cancelled', refundCents: 500 },
      'en',
    );
    expect(withCancel.statusCode).toBe(400);
    expect(withCancel.json().error.message).toMatch(/Cancelling the deal refunds everything/);
    expect(refundsOf(d.dealId)).toHaveLength(0);
    expect((await ledger(w, d.dealId)).map((r) => r.kind)).toEqual(['charge', 'fee']);
    expect(await caseOutcome(d.dealId)).toBeNull();
    // The case is still open for a valid outcome.
    expect(
      (await close(d.dealId, admin, { outcome: 'completed', refundCents: 1 })).statusCode,
    ).toBe(200);
    expect(transfersOf(d.dealId).map((c) => c.params.amount)).toEqual(['1399']);
  }, 90_000);

  it('cannot refund a deal with nothing held in the app', async () => {
    // As a deal agreed before payments were on, or paid outside the app.
    const d = await caseOpen();
    await w.t.database.query(`update deal_payments set status = 'void' where deal_id = $1`, [
      d.dealId,
    ]);
    const res = await close(d.dealId, admin, { outcome: 'completed', refundCents: 100 }, 'en');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/nothing to refund/);
    expect(await caseOutcome(d.dealId)).toBeNull();
  }, 90_000);
});
