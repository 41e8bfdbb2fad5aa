import { beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../platform/jobs';
import { createMember, type Member } from '../../test/members';
import { openDealBetween } from '../../test/deals';
import {
  onboard,
  pay,
  paymentOf,
  postDeal,
  type PaymentsWorld,
  worldWithSeller,
} from './world.fixture';

/**
 * The time to pay (issue 36): a deal by post not paid within 48 hours of the acceptance is
 * cancelled by the job, its book on sale again, a line in the conversation; a paid deal, a deal
 * hand to hand and a deal whose seller has not set up payments stay open — the seller's set-up
 * gives the buyer the whole time again.
 */
const HOUR = 3_600_000;
let clock = new Date('2026-12-07T09:00:00Z').getTime();
let w: PaymentsWorld, seller: Member, buyer: Member;

beforeAll(async () => {
  [w, seller, buyer] = await worldWithSeller(2, () => new Date(clock));
}, 120_000);

const run = () => runJob(w.t.app, 'payment limit', new Date(clock)) as Promise<string[]>;
const dealOf = async (dealId: string) =>
  (await w.req('GET', `/api/deals/${dealId}`, buyer)).json().deal;
const steps = async (roomId: string, dealId: string) =>
  (await w.req('GET', `/api/chats/rooms/${roomId}/messages`, buyer))
    .json()
    .items.filter((m: { deal?: { id: string } }) => m.deal?.id === dealId)
    .map((m: { content: string }) => m.content);

describe('the time to pay', () => {
  it('cancels an unpaid deal by post once it passed, and only then', async () => {
    const unpaid = await postDeal(w, seller, buyer);
    const paid = await postDeal(w, seller, buyer);
    await pay(w, buyer, paid.dealId);
    const hand = await openDealBetween(w.t, seller, buyer, { amount: 8 });

    clock += 47 * HOUR;
    expect(await run()).toEqual([]);
    clock += 2 * HOUR;
    expect(await run()).toEqual([unpaid.dealId]);
    expect(await run()).toEqual([]);

    expect((await dealOf(unpaid.dealId)).status).toBe('cancelled');
    expect((await paymentOf(w, unpaid.dealId, buyer)).status).toBe('void');
    expect((await w.req('GET', `/api/listings/${unpaid.listingId}`)).json().status).toBe(
      'available',
    );
    expect(await steps(unpaid.roomId, unpaid.dealId)).toEqual(['deal.opened', 'payment.expired']);
    for (const d of [paid, hand]) expect((await dealOf(d.dealId)).status).toBe('open');
  });

  it('waits for a seller who has not set up payments, then gives the buyer the whole time', async () => {
    const late = await createMember(w.t);
    const d = await postDeal(w, late, buyer);
    clock += 72 * HOUR;
    expect(await run()).toEqual([]);
    expect((await dealOf(d.dealId)).status).toBe('open');
    await onboard(w, late);
    expect((await paymentOf(w, d.dealId, buyer)).dueBy).toBe(
      new Date(clock + 48 * HOUR).toISOString(),
    );
    clock += 47 * HOUR;
    expect(await run()).toEqual([]);
    clock += 2 * HOUR;
    expect(await run()).toEqual([d.dealId]);
  });
});
