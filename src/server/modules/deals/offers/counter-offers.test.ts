import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import { createListing } from '../../../test/listings';
import { expectRefusal, type Member } from '../../../test/members';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../../test/harness';

let t: TestApp, req: Requester;
let seller: Member, buyer: Member, rival: Member;

beforeAll(async () => {
  ({ t, req, seller, buyer, rival } = await appWithMembers({
    seller: { username: 'cora_counters', displayName: 'Cora Counters' },
    buyer: { username: 'bice_buys', displayName: 'Bice Buys' },
    rival: { username: 'rino_rival', displayName: 'Rino Rival' },
  }));
}, SIGN_UP_TIMEOUT);

/** A buyer's pending offer (contact, then offer) on a new listing of the seller. */
async function pendingOffer(amount = 6, listing: object = {}) {
  const { id: listingId } = await createListing(t, seller, { price: 10, ...listing });
  const contact = await req('POST', '/api/chats/contact', buyer, { listingId, content: 'Ciao' });
  expect(contact.statusCode, contact.body).toBe(201);
  const roomId = contact.json().roomId as string;
  const res = await req('POST', `/api/chats/rooms/${roomId}/offers`, buyer, { listingId, amount });
  expect(res.statusCode, res.body).toBe(201);
  return { listingId, roomId, offerId: res.json().message.offer.id as string };
}

const counter = (who: Member | undefined, offerId: string, amount: unknown, lang = 'en') =>
  req('POST', `/api/chats/offers/${offerId}/counter`, who, { amount }, lang);

const offerRows = (listingId: string) =>
  t.database.query<{ amount: string; status: string; counter_of: string | null }>(
    `select amount::text, status, counter_of::text from offers where listing_id = $1
     order by created_at, counter_of nulls first`,
    [listingId],
  );

describe('a counter-offer', () => {
  it('the seller counters; the buyer sees the card and accepts: the deal opens at the counter amount', async () => {
    const { listingId, roomId, offerId } = await pendingOffer(6, { shippingCost: 3 });
    const res = await counter(seller, offerId, 8);
    expect(res.statusCode, res.body).toBe(201);
    const card = res.json().message;
    expect(card).toMatchObject({
      type: 'offer',
      senderId: seller.id,
      offer: { amount: 8, status: 'pending', counterOf: offerId, shippingAmount: 3 },
    });
    const counterId = card.offer.id as string;

    // The conversation: the buyer's offer reads countered, the counter follows it.
    const page = (await req('GET', `/api/chats/rooms/${roomId}/messages`, buyer)).json();
    const offers = page.items.filter((m: { type: string }) => m.type === 'offer');
    expect(offers.map((m: { offer: { amount: number; status: string } }) => m.offer)).toEqual([
      expect.objectContaining({ id: offerId, amount: 6, status: 'countered' }),
      expect.objectContaining({ id: counterId, amount: 8, status: 'pending', counterOf: offerId }),
    ]);
    expect(offers[0].offer.counterOf).toBeUndefined();

    // The buyer is told, in the bell.
    const bell = (await req('GET', '/api/notifications', buyer)).json().items;
    expect(bell[0]).toMatchObject({
      type: 'offer.countered',
      actor: { id: seller.id },
      data: { amount: 8, currency: 'EUR', listingId },
    });

    // The seller cannot accept their own counter; the buyer can.
    await expectRefusal(t, ['POST', `/api/chats/offers/${counterId}/accept`, seller, undefined], {
      status: 403,
      en: 'Only the buyer can answer this counter-offer',
      it: "Solo l'acquirente può rispondere a questa controfferta",
    });
    const accepted = await req('POST', `/api/chats/offers/${counterId}/accept`, buyer);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const dealId = accepted.json().message.offer.dealId as string;
    const deal = (await req('GET', `/api/deals/${dealId}`, buyer)).json().deal;
    expect(deal).toMatchObject({ amount: 8, shippingAmount: 3, total: 11, method: 'post' });
    expect((await req('GET', `/api/listings/${listingId}`)).json().status).toBe('reserved');
    // The seller hears the buyer accepted.
    const sellerBell = (await req('GET', '/api/notifications', seller)).json().items;
    expect(sellerBell[0]).toMatchObject({
      type: 'offer.answered',
      actor: { id: buyer.id },
      data: { amount: 8, context: 'counter_accepted' },
    });
  });

  it('the buyer declines it, then may make a new offer; the seller may withdraw one', async () => {
    const { listingId, roomId, offerId } = await pendingOffer(5);
    const counterId = (await counter(seller, offerId, 9)).json().message.offer.id as string;
    // While the counter waits, the buyer has an open offer on the book.
    const again = await req('POST', `/api/chats/rooms/${roomId}/offers`, buyer, {
      listingId,
      amount: 7,
    });
    expect(again.statusCode).toBe(409);
    const declined = await req('POST', `/api/chats/offers/${counterId}/decline`, buyer);
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().message.offer.status).toBe('declined');
    const fresh = await req('POST', `/api/chats/rooms/${roomId}/offers`, buyer, {
      listingId,
      amount: 7,
    });
    expect(fresh.statusCode, fresh.body).toBe(201);
    const second = (await counter(seller, fresh.json().message.offer.id, 8.5)).json().message;
    // Withdrawing is the seller's, on a counter.
    await expectRefusal(
      t,
      ['POST', `/api/chats/offers/${second.offer.id}/withdraw`, buyer, undefined],
      {
        status: 403,
        en: 'Only the seller can withdraw this counter-offer',
        it: 'Solo chi vende può ritirare questa controfferta',
      },
    );
    const withdrawn = await req('POST', `/api/chats/offers/${second.offer.id}/withdraw`, seller);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await offerRows(listingId)).map((o) => [o.amount, o.status])).toEqual([
      ['5.00', 'countered'],
      ['9.00', 'declined'],
      ['7.00', 'countered'],
      ['8.50', 'withdrawn'],
    ]);
  });

  it('refuses visitors (401), the buyer and strangers (403), and changes nothing', async () => {
    const { listingId, offerId } = await pendingOffer(6);
    expect((await counter(undefined, offerId, 8)).statusCode).toBe(401);
    await expectRefusal(t, ['POST', `/api/chats/offers/${offerId}/counter`, buyer, { amount: 8 }], {
      status: 403,
      en: 'Only the seller can answer this offer',
      it: 'Solo il venditore può rispondere a questa offerta',
    });
    // Another member: not in the room, the offer is as unknown to them as a missing one.
    const stranger = await counter(rival, offerId, 8);
    expect(stranger.statusCode).toBe(403);
    expect((await counter(rival, '00000000-0000-4000-8000-000000000000', 8)).statusCode).toBe(403);
    expect((await counter(seller, 'not-a-uuid', 8)).statusCode).toBe(403);
    expect((await offerRows(listingId)).map((o) => [o.amount, o.status])).toEqual([
      ['6.00', 'pending'],
    ]);
  });

  it("refuses bad amounts (400) in the member's language: none, 0, NUL, huge, three decimals, the same", async () => {
    const { listingId, offerId } = await pendingOffer(6);
    for (const [amount, en] of [
      [undefined, 'Enter an amount'],
      ['8', 'Enter an amount'],
      [
        '8\u0000',
        'This value contains a character that is not allowed (a NUL byte or an unpaired surrogate).',
      ],
      [0, 'The offer must be greater than 0'],
      [1e12, 'The offer is too high'],
      [8.125, 'Use at most two decimals'],
    ] as const) {
      const res = await counter(seller, offerId, amount);
      expect(res.statusCode, `${String(amount)}: ${res.body}`).toBe(400);
      expect(res.json().error.fields.amount).toBe(en);
    }
    await expectRefusal(
      t,
      ['POST', `/api/chats/offers/${offerId}/counter`, seller, { amount: 6 }],
      {
        status: 400,
        en: 'The counter-offer must differ from the offer',
        it: "La controfferta deve essere diversa dall'offerta",
      },
    );
    expect((await offerRows(listingId)).map((o) => o.status)).toEqual(['pending']);
  });

  it('answers 409 on an answered offer, 400 on a counter, 409 on a book gone', async () => {
    const { offerId } = await pendingOffer(6);
    const counterId = (await counter(seller, offerId, 8)).json().message.offer.id as string;
    // Countered once: a second counter of the same offer is refused.
    await expectRefusal(
      t,
      ['POST', `/api/chats/offers/${offerId}/counter`, seller, { amount: 9 }],
      {
        status: 409,
        en: 'This offer has already been answered',
        it: 'Questa offerta ha già avuto una risposta',
      },
    );
    // Nor is the seller's own counter countered (the buyer declines it and offers again).
    await expectRefusal(
      t,
      ['POST', `/api/chats/offers/${counterId}/counter`, seller, { amount: 9 }],
      {
        status: 400,
        en: 'This offer cannot be answered with a counter-offer',
        it: 'A questa offerta non si può rispondere con una controfferta',
      },
    );
    expect((await counter(buyer, counterId, 9)).statusCode).toBe(403);
    // The buyer's offer, once countered, cannot be accepted at its first amount either.
    expect((await req('POST', `/api/chats/offers/${offerId}/accept`, seller)).statusCode).toBe(409);

    // A book taken off sale: its offers are answered or the book is gone, a 409 either way.
    const gone = await pendingOffer(6);
    const off = await req('POST', `/api/listings/${gone.listingId}/status`, seller, {
      status: 'unavailable',
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await counter(seller, gone.offerId, 8)).statusCode).toBe(409);
    expect((await offerRows(gone.listingId)).filter((o) => o.counter_of)).toEqual([]);
  });

  it('a race of accept and counter on one offer: one wins, the other is a 409, never a 500', async () => {
    for (let round = 0; round < 3; round++) {
      const { listingId, offerId } = await pendingOffer(6);
      const [accept, countered] = await Promise.all([
        req('POST', `/api/chats/offers/${offerId}/accept`, seller),
        counter(seller, offerId, 8),
      ]);
      // Either the accept (200) or the counter (201) wins; the other finds the offer answered.
      const won = accept.statusCode === 200;
      expect([accept.statusCode, countered.statusCode]).toEqual(won ? [200, 409] : [409, 201]);
      const rows = await offerRows(listingId);
      if (won) expect(rows.map((o) => o.status)).toEqual(['accepted']);
      else expect(rows.map((o) => o.status)).toEqual(['countered', 'pending']);
    }
  });

  it('a race of two counters, and of the buyer accepting while the seller withdraws', async () => {
    const { listingId, offerId } = await pendingOffer(6);
    const both = await Promise.all([counter(seller, offerId, 8), counter(seller, offerId, 9)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await offerRows(listingId)).filter((o) => o.counter_of)).toHaveLength(1);
    const counterId = both.find((r) => r.statusCode === 201)!.json().message.offer.id as string;
    const [accept, withdraw] = await Promise.all([
      req('POST', `/api/chats/offers/${counterId}/accept`, buyer),
      req('POST', `/api/chats/offers/${counterId}/withdraw`, seller),
    ]);
    expect([accept.statusCode, withdraw.statusCode].sort()).toEqual([200, 409]);
  });

  it('is in the OpenAPI document with its errors', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    const route = doc.paths['/api/chats/offers/{offerId}/counter'].post;
    expect(Object.keys(route.responses).sort()).toEqual(['201', '400', '401', '403', '409']);
    expect(route.requestBody.content['application/json'].schema.properties.amount).toBeDefined();
  });
});
