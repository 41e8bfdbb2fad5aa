import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app';
import { bothConfirm, openDealBetween } from '../../test/deals';
import { createListing } from '../../test/listings';
import { expectRefusal, createMember, type Member } from '../../test/members';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

let t: TestApp, req: Requester;
let seller: Member, buyer: Member, other: Member;

beforeAll(async () => {
  ({ t, req, seller, buyer, other } = await appWithMembers({
    seller: { username: 'dora_deals', displayName: 'Dora Deals' },
    buyer: { username: 'bert_buys', displayName: 'Bert Buys' },
    other: { username: 'otto_other', displayName: 'Otto Other' },
  }));
}, SIGN_UP_TIMEOUT);

const listingStatus = async (id: string) =>
  (await req('GET', `/api/listings/${id}`)).json().status as string;

describe('a deal', () => {
  it('opens when an offer is accepted: hand to hand without shipping, with a step in the chat', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const res = await req('GET', `/api/deals/${d.dealId}`, buyer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deal).toMatchObject({
      id: d.dealId,
      offerId: d.offerId,
      roomId: d.roomId,
      method: 'hand',
      status: 'open',
      role: 'buyer',
      buyer: { id: buyer.id, displayName: 'Bert Buys' },
      seller: { id: seller.id, displayName: 'Dora Deals' },
      amount: 10,
      shippingAmount: null,
      total: 10,
      currency: 'EUR',
      post: null,
      meeting: {},
    });
    expect(res.json().deal.listings).toEqual([expect.objectContaining({ id: d.listingId })]);
    expect((await req('GET', `/api/deals/${d.dealId}`, seller)).json().deal.role).toBe('seller');
    const page = (await req('GET', `/api/chats/rooms/${d.roomId}/messages`, buyer)).json();
    expect(page.items.at(-1)).toMatchObject({
      type: 'deal',
      content: 'deal.opened',
      senderId: seller.id,
      deal: { id: d.dealId, method: 'hand', status: 'open' },
    });
    const offerCard = page.items.find((m: { offer?: { id: string } }) => m.offer?.id === d.offerId);
    expect(offerCard.offer).toMatchObject({ status: 'accepted', dealId: d.dealId });
    // The seller was told, live and in the bell.
    const bell = (await req('GET', '/api/notifications', buyer)).json();
    expect(bell.items[0]).toMatchObject({ type: 'offer.answered' });
  });

  it('goes by post when the listing ships: the shipping cost joins the total', async () => {
    const d = await openDealBetween(t, seller, buyer, { listing: { shippingCost: 4.5 } });
    const deal = (await req('GET', `/api/deals/${d.dealId}`, seller)).json().deal;
    expect(deal).toMatchObject({
      method: 'post',
      amount: 10,
      shippingAmount: 4.5,
      total: 14.5,
      post: {},
      meeting: null,
    });
    // The buyer may still ask to collect it by hand: no shipping then.
    const hand = await openDealBetween(t, seller, buyer, {
      listing: { shippingCost: 4.5 },
      delivery: 'hand',
    });
    expect((await req('GET', `/api/deals/${hand.dealId}`, buyer)).json().deal).toMatchObject({
      method: 'hand',
      shippingAmount: null,
      total: 10,
    });
  });

  it('cannot go by post when the listing does not ship (400, in the member’s language)', async () => {
    const listing = await createListing(t, seller, { title: 'Senza spedizione' });
    const contact = await req('POST', '/api/chats/contact', buyer, {
      listingId: listing.id,
      content: 'Me lo spedisci?',
    });
    await expectRefusal(
      t,
      [
        'POST',
        `/api/chats/rooms/${contact.json().roomId}/offers`,
        buyer,
        { listingId: listing.id, amount: 5, delivery: 'post' },
      ],
      {
        status: 400,
        en: 'This book is not shipped: arrange to hand it over',
        it: 'Questo libro non viene spedito: accordatevi per consegnarlo a mano',
      },
    );
    const bad = await req('POST', `/api/chats/rooms/${contact.json().roomId}/offers`, buyer, {
      listingId: listing.id,
      amount: 5,
      delivery: 'drone\u0000',
    });
    expect(bad.statusCode).toBe(400);
    expect(await listingStatus(listing.id)).toBe('available');
  });

  it('is read by its two sides only: 401 for visitors, 404 for anyone else and for nonsense ids', async () => {
    const d = await openDealBetween(t, seller, buyer);
    expect((await req('GET', `/api/deals/${d.dealId}`)).statusCode).toBe(401);
    expect((await req('GET', `/api/deals/${d.dealId}`, other)).statusCode).toBe(404);
    expect((await req('GET', '/api/deals/not-a-uuid', buyer)).statusCode).toBe(404);
    expect((await req('GET', `/api/deals/${'x'.repeat(65)}`, buyer)).statusCode).toBe(400);
    expect(
      (await req('GET', '/api/deals/00000000-0000-4000-8000-000000000000', buyer)).statusCode,
    ).toBe(404);
  });

  it('lists a member’s deals, newest first, by role and status, paged by the database', async () => {
    const fresh = await createMember(t, { username: 'fay_fresh', displayName: 'Fay Fresh' });
    const a = await openDealBetween(t, seller, fresh);
    const b = await openDealBetween(t, fresh, buyer);
    const all = (await req('GET', '/api/deals', fresh)).json();
    expect(all).toMatchObject({ page: 1, pageSize: 20, total: 2 });
    expect(all.items.map((d: { id: string }) => d.id)).toEqual([b.dealId, a.dealId]);
    expect(all.items.map((d: { role: string }) => d.role)).toEqual(['seller', 'buyer']);
    const bought = (await req('GET', '/api/deals?role=buyer', fresh)).json();
    expect(bought.items.map((d: { id: string }) => d.id)).toEqual([a.dealId]);
    expect((await req('GET', '/api/deals?status=completed', fresh)).json().total).toBe(0);
    expect((await req('GET', '/api/deals?status=nope', fresh)).statusCode).toBe(400);
    expect((await req('GET', '/api/deals?page=0', fresh)).statusCode).toBe(400);
    expect((await req('GET', '/api/deals')).statusCode).toBe(401);
    // Nobody else's deals leak into a list.
    expect((await req('GET', '/api/deals', other)).json().total).toBe(0);
  });
});

describe('cancelling a deal', () => {
  it('refuses visitors (401) and other members (404), changing nothing', async () => {
    const d = await openDealBetween(t, seller, buyer);
    expect((await req('POST', `/api/deals/${d.dealId}/cancel`)).statusCode).toBe(401);
    expect((await req('POST', `/api/deals/${d.dealId}/cancel`, other)).statusCode).toBe(404);
    expect((await req('GET', `/api/deals/${d.dealId}`, buyer)).json().deal.status).toBe('open');
    expect(await listingStatus(d.listingId)).toBe('reserved');
  });

  it('by either side puts the book back on sale, once; the other side is told', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const res = await req('POST', `/api/deals/${d.dealId}/cancel`, buyer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deal).toMatchObject({ status: 'cancelled', role: 'buyer' });
    expect(res.json().deal.endedAt).not.toBeNull();
    expect(await listingStatus(d.listingId)).toBe('available');
    const page = (await req('GET', `/api/chats/rooms/${d.roomId}/messages`, seller)).json();
    expect(page.items.at(-1)).toMatchObject({ type: 'deal', content: 'deal.cancelled' });
    const card = page.items.find((m: { offer?: { id: string } }) => m.offer?.id === d.offerId);
    expect(card.offer.status).toBe('cancelled');
    const bell = (await req('GET', '/api/notifications', seller)).json();
    expect(bell.items[0]).toMatchObject({
      type: 'deal.step',
      data: expect.objectContaining({ context: 'deal_cancelled', dealId: d.dealId }),
    });
    await expectRefusal(t, ['POST', `/api/deals/${d.dealId}/cancel`, seller, undefined], {
      status: 409,
      en: 'This deal has already ended',
      it: 'Questa trattativa è già finita',
    });
    // The book can be offered and sold again.
    const again = await openDealBetween(t, seller, other);
    expect(again.dealId).not.toBe(d.dealId);
  });

  it('two cancels at once: one wins, the other is a 409, never a 500', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const answers = await Promise.all([
      req('POST', `/api/deals/${d.dealId}/cancel`, buyer),
      req('POST', `/api/deals/${d.dealId}/cancel`, seller),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });
});

describe('completing a deal', () => {
  it('when both confirm the exchange: the book sold, a transaction naming the deal', async () => {
    const d = await openDealBetween(t, seller, buyer);
    await bothConfirm(t, seller, buyer, d.dealId);
    const [offer] = await t.database.query<{ status: string }>(
      'select status from offers where id = $1',
      [d.offerId],
    );
    expect(offer.status).toBe('completed');
    expect((await req('GET', `/api/deals/${d.dealId}`, buyer)).json().deal.status).toBe(
      'completed',
    );
    expect(await listingStatus(d.listingId)).toBe('sold');
    const rows = await t.database.query<{ deal_id: string; status: string }>(
      'select deal_id::text, status from transactions where listing_id = $1',
      [d.listingId],
    );
    expect(rows).toEqual([{ deal_id: d.dealId, status: 'completed' }]);
    expect((await req('POST', `/api/deals/${d.dealId}/cancel`, buyer)).statusCode).toBe(409);
  });
});

describe('the data export', () => {
  it('lists the member’s deals with the other side by username, and nobody else’s', async () => {
    const d = await openDealBetween(t, seller, buyer);
    const data = (await req('POST', '/api/me/export', buyer)).json();
    const mine = data.deals.find((x: { id: string }) => x.id === d.dealId);
    expect(mine).toMatchObject({
      offerId: d.offerId,
      conversationId: d.roomId,
      role: 'buyer',
      otherParty: 'dora_deals',
      method: 'hand',
      status: 'open',
    });
    const offer = data.offers.find((o: { id: string }) => o.id === d.offerId);
    expect(offer).toMatchObject({ listingIds: [d.listingId], shippingAmount: null });
    const theirs = (await req('POST', '/api/me/export', other)).json();
    expect(theirs.deals.map((x: { id: string }) => x.id)).not.toContain(d.dealId);
  });
});
