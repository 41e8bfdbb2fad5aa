import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../../test/members';
import { eventually } from '../../test/app';
import {
  address,
  createPaymentsWorld,
  onboard,
  pay,
  postDeal,
  type PaymentsWorld,
} from './world.fixture';

/**
 * Receipts by e-mail (issue 36), through the app's mailer (the outbox here, SMTP in production),
 * in each member's language with the money written as they read it: paid (the buyer's receipt
 * with books, shipping, fee and total; the seller's notice), released (the seller), refunded
 * (the buyer, with the amount). Each movement is told once, with a line in the conversation.
 */
let w: PaymentsWorld;
let seller: Member;
let buyer: Member;
const NBSP = '\u00a0';

beforeAll(async () => {
  w = await createPaymentsWorld();
  [seller, buyer] = await Promise.all([
    createMember(w.t, { displayName: 'Sara Vende' }),
    createMember(w.t, { displayName: 'Bruno Compra' }),
  ]);
  await w.t.database.query(`update users set preferred_language = 'it' where id = $1`, [seller.id]);
  await w.t.database.query(`update users set preferred_language = 'en' where id = $1`, [buyer.id]);
  await onboard(w, seller);
}, 120_000);

/** The payment e-mails to a member (not the missed-message e-mails of the same deals). */
const outbox = async (to: Member) =>
  (
    await w.t.database.query<{ subject: string; text: string; html: string }>(
      'select subject, text, html from mail_outbox where "to" = $1 order by id',
      [to.email],
    )
  ).filter((m) =>
    /pagat|paid|inviati|sent to|rimborsat|refunded|receipt|ricevuta/i.test(m.subject),
  );
const steps = async (dealId: string) =>
  (
    await w.t.database.query<{ content: string }>(
      `select content from chat_messages where deal_id = $1 and content like 'payment.%'
       order by created_at, id`,
      [dealId],
    )
  ).map((r) => r.content);

async function shipped(dealId: string) {
  expect((await w.req('POST', `/api/deals/${dealId}/address`, buyer, { address })).statusCode).toBe(
    200,
  );
  const res = await w.req('POST', `/api/deals/${dealId}/ship`, seller, {
    carrier: 'brt',
    tracking: 'BRT-1',
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('receipts', () => {
  it('for a payment: the buyer’s receipt in English, the seller’s notice in Italian', async () => {
    const buyerBefore = (await outbox(buyer)).length;
    const sellerBefore = (await outbox(seller)).length;
    const d = await postDeal(w, seller, buyer);
    await pay(w, buyer, d.dealId);
    const receipt = await eventually(async () => {
      const mails = (await outbox(buyer)).slice(buyerBefore);
      expect(mails).toHaveLength(1);
      return mails[0];
    });
    expect(receipt.subject).toBe('Your receipt: €15.40 paid on Scaffale');
    expect(receipt.text).toContain('You paid €15.40 for');
    expect(receipt.text).toContain('sold by Sara Vende');
    expect(receipt.text).toMatch(/Books \(“[^”]+”\): €10\.00\nShipping: €4\.00\n/);
    expect(receipt.text).toContain('Buyer protection: €1.40\nTotal paid: €15.40');
    expect(receipt.html).toContain('Total paid: €15.40');
    const notice = (await outbox(seller)).slice(sellerBefore);
    expect(notice).toHaveLength(1);
    expect(notice[0].subject).toMatch(/^Bruno Compra ha pagato “/);
    expect(notice[0].text).toContain(`poi ricevi 14,00${NBSP}€`);
    expect(await steps(d.dealId)).toEqual(['payment.paid']);

    // A replayed event tells nobody again.
    const event = w.fake.deliveries.find(
      (x) =>
        x.event.type === 'checkout.session.completed' &&
        (x.event.data as { object: { metadata: { deal_id: string } } }).object.metadata.deal_id ===
          d.dealId,
    )!;
    await w.fake.send('checkout.session.completed', (event.event.data as { object: never }).object);
    expect((await outbox(buyer)).slice(buyerBefore)).toHaveLength(1);
    expect(await steps(d.dealId)).toEqual(['payment.paid']);

    // Released: the seller hears of the money sent, in Italian.
    await shipped(d.dealId);
    const before = (await outbox(seller)).length;
    expect((await w.req('POST', `/api/deals/${d.dealId}/confirm`, buyer)).statusCode).toBe(200);
    const released = (await outbox(seller)).slice(before);
    expect(released).toHaveLength(1);
    expect(released[0].subject).toMatch(new RegExp(`^14,00${NBSP}€ inviati a te per “`));
    expect(released[0].text).toContain('con Bruno Compra');
    expect(await steps(d.dealId)).toEqual(['payment.paid', 'payment.released']);
  }, 90_000);

  it('for a refund: the buyer, with the amount', async () => {
    const d = await postDeal(w, seller, buyer);
    await pay(w, buyer, d.dealId);
    const before = (await outbox(buyer)).length;
    expect((await w.req('POST', `/api/deals/${d.dealId}/cancel`, seller)).statusCode).toBe(200);
    const mails = (await outbox(buyer)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^€15\.40 refunded for “/);
    expect(mails[0].text).toContain('We refunded €15.40 of your payment');
    expect(await steps(d.dealId)).toEqual(['payment.paid', 'payment.refunded']);
  }, 90_000);
});
