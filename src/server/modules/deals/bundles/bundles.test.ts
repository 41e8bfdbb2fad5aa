import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import { createListing } from '../../../test/listings';
import { expectRefusal, type Member } from '../../../test/members';
import { offerFrom } from '../../../test/deals';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../../test/harness';

let t: TestApp, req: Requester;
let seller: Member, buyer: Member, other: Member, blocked: Member;

beforeAll(async () => {
  ({ t, req, seller, buyer, other, blocked } = await appWithMembers({
    seller: { username: 'sara_shelf', displayName: 'Sara Shelf' },
    buyer: { username: 'bea_bundle', displayName: 'Bea Bundle' },
    other: { username: 'oreste_other', displayName: 'Oreste Other' },
    blocked: { username: 'bianca_block', displayName: 'Bianca Block' },
  }));
}, SIGN_UP_TIMEOUT);

let n = 0;
/** `count` books of `who` for sale at 10, 12, 14...; shipping costs when given. */
async function books(who: Member, count: number, shipping: (number | null)[] = []) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const cost = shipping[i];
    const l = await createListing(t, who, {
      title: `Libro ${++n}`,
      price: 10 + 2 * i,
      ...(cost !== undefined && cost !== null ? { shippingCost: cost } : {}),
    });
    ids.push(l.id);
  }
  return ids;
}

const status = async (ids: string[]) =>
  Promise.all(ids.map(async (id) => (await req('GET', `/api/listings/${id}`)).json().status));

const offerBundle = (who: Member | undefined, body: object) =>
  req('POST', '/api/chats/bundles', who, body);

/** The buyer withdraws their open offers to `to` (one open bundle offer per pair at a time). */
async function withdrawOpen(who: Member, to: Member) {
  const open = await t.database.query<{ id: string }>(
    `select id::text from offers where buyer_id = $1 and seller_id = $2 and status = 'pending'`,
    [who.id, to.id],
  );
  for (const o of open) await req('POST', `/api/chats/offers/${o.id}/withdraw`, who);
}

/** A 400 whose `listingIds` field says `en` and `it` in each language. */
async function expectFieldRefusal(body: object, en: string, it: string) {
  for (const [lang, text] of [
    ['en', en],
    ['it', it],
  ] as const) {
    const res = await req('POST', '/api/chats/bundles', buyer, body, lang);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.fields.listingIds).toBe(text);
  }
}

describe('a bundle offer', () => {
  it('needs a session: anonymous is 401 and nothing is stored', async () => {
    const ids = await books(seller, 2);
    const res = await offerBundle(undefined, { listingIds: ids, amount: 15 });
    expect(res.statusCode).toBe(401);
    const [row] = await t.database.query<{ c: number }>(
      'select count(*)::int as c from offers where listing_id = any($1::uuid[])',
      [ids],
    );
    expect(row.c).toBe(0);
  });

  it('offers once for three books: a card of each, the offer, shipping by the highest cost; the seller accepts, all reserved, completed as one', async () => {
    const ids = await books(seller, 3, [3, 5.5, 4]);
    const res = await offerBundle(buyer, { listingIds: ids, amount: 30 });
    expect(res.statusCode, res.body).toBe(201);
    const { roomId, message } = res.json();
    expect(message).toMatchObject({
      type: 'offer',
      senderId: buyer.id,
      offer: {
        listingId: ids[0],
        amount: 30,
        shippingAmount: 5.5,
        status: 'pending',
        sellerId: seller.id,
      },
    });
    const page = (await req('GET', `/api/chats/rooms/${roomId}/messages`, seller)).json();
    const cards = page.items.filter((m: { type: string }) => m.type === 'listing');
    expect(cards.map((m: { listing: { id: string } }) => m.listing.id)).toEqual(ids);
    expect(page.items.at(-1).id).toBe(message.id);
    // The seller is told of the offer, naming the first book and how many more.
    const bell = (await req('GET', '/api/notifications', seller)).json();
    expect(bell.items[0]).toMatchObject({ type: 'offer.received' });
    expect(JSON.stringify(bell.items[0])).toContain('(+2)');

    const accepted = await req('POST', `/api/chats/offers/${message.offer.id}/accept`, seller);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const dealId = accepted.json().message.offer.dealId;
    expect(await status(ids)).toEqual(['reserved', 'reserved', 'reserved']);
    const deal = (await req('GET', `/api/deals/${dealId}`, buyer)).json().deal;
    expect(deal).toMatchObject({ method: 'post', amount: 30, shippingAmount: 5.5, total: 35.5 });
    expect(deal.listings.map((l: { id: string }) => l.id).sort()).toEqual([...ids].sort());

    // The seller cannot mark one of the bundle's books sold alone: the deal completes them all.
    const marked = await req('POST', `/api/listings/${ids[2]}/complete`, seller, {
      kind: 'sale',
      counterpartUsername: 'bea_bundle',
    });
    expect(marked.statusCode).toBe(409);
    const address = {
      name: 'Bruno Compratore',
      street: 'Via Roma 1',
      postalCode: '00184',
      city: 'Roma',
      region: 'RM',
      country: 'IT',
    };
    for (const [who, path, body] of [
      [buyer, 'address', { address }],
      [seller, 'ship', { carrier: 'poste_italiane', tracking: 'RR123456789IT' }],
      [buyer, 'received', undefined],
      [buyer, 'confirm', undefined],
    ] as const) {
      const res = await req('POST', `/api/deals/${dealId}/${path}`, who, body);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    expect(await status(ids)).toEqual(['sold', 'sold', 'sold']);
    const txs = await t.database.query<{ listing_id: string; deal_id: string; status: string }>(
      `select listing_id::text, deal_id::text, status from transactions
       where listing_id = any($1::uuid[])`,
      [ids],
    );
    expect(txs).toHaveLength(3);
    expect(txs.every((x) => x.deal_id === dealId && x.status === 'completed')).toBe(true);
  });

  it('uses the seller’s bundle shipping price when they set one, and hand delivery when asked', async () => {
    const setRule = await req('PUT', '/api/bundles/rule', seller, { shippingAmount: 6 });
    expect(setRule.statusCode, setRule.body).toBe(200);
    expect(setRule.json().rule).toEqual({ shippingAmount: 6 });
    expect((await req('GET', '/api/bundles/rule', seller)).json().rule.shippingAmount).toBe(6);
    const ids = await books(seller, 2, [4, 9]);
    const quote = await req('POST', '/api/bundles/quote', buyer, { listingIds: ids });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({
      seller: { id: seller.id, displayName: 'Sara Shelf' },
      rule: { shippingAmount: 6 },
      booksTotal: 22,
      shipping: 6,
      currency: 'EUR',
    });
    await withdrawOpen(buyer, seller);
    const res = await offerBundle(buyer, { listingIds: ids, amount: 18 });
    expect(res.json().message.offer.shippingAmount).toBe(6);
    await withdrawOpen(buyer, seller);
    // Back to the highest single cost for the rest of the tests.
    await req('PUT', '/api/bundles/rule', seller, { shippingAmount: null });
    const hand = await books(seller, 2, [4, 9]);
    const collected = await offerBundle(buyer, { listingIds: hand, amount: 18, delivery: 'hand' });
    expect(collected.json().message.offer.shippingAmount).toBeNull();
  });

  it('refuses books of several sellers, in both languages, and stores nothing', async () => {
    const [a] = await books(seller, 1);
    const [b] = await books(other, 1);
    await expectRefusal(
      t,
      ['POST', '/api/chats/bundles', buyer, { listingIds: [a, b], amount: 9 }],
      {
        status: 400,
        en: 'A bundle holds books of one seller only',
        it: 'Un pacchetto contiene libri di un solo venditore',
      },
    );
    const [row] = await t.database.query<{ c: number }>(
      'select count(*)::int as c from offers where listing_id = any($1::uuid[])',
      [[a, b]],
    );
    expect(row.c).toBe(0);
  });

  it('refuses a book not available (409), hidden (404), the buyer’s own (400), for trade (400)', async () => {
    const [a, b] = await books(seller, 2);
    await t.database.query(`update book_listings set status = 'reserved' where id = $1`, [b]);
    await expectRefusal(
      t,
      ['POST', '/api/chats/bundles', buyer, { listingIds: [a, b], amount: 9 }],
      {
        status: 409,
        en: 'This book is no longer available',
        it: 'Questo libro non è più disponibile',
      },
    );
    await t.database.query(
      `update book_listings set status = 'available', hidden_at = now() where id = $1`,
      [b],
    );
    expect((await offerBundle(buyer, { listingIds: [a, b], amount: 9 })).statusCode).toBe(404);
    // The buyer's own books, or the seller offering on their own bundle.
    const own = await books(buyer, 2);
    const mine = await offerBundle(buyer, { listingIds: own, amount: 9 });
    expect(mine.statusCode).toBe(400);
    expect(mine.json().error.message).toBe('You cannot make an offer on your own listing');
    const trade = await createListing(t, seller, {
      title: 'Solo scambio',
      listingType: 'trade',
      price: undefined,
    });
    const [c] = await books(seller, 1);
    const traded = await offerBundle(buyer, { listingIds: [c, trade.id], amount: 9 });
    expect(traded.statusCode, traded.body).toBe(400);
  });

  it('refuses a blocked member’s books as missing, either way round', async () => {
    const ids = await books(blocked, 2);
    expect((await req('PUT', `/api/blocks/${buyer.id}`, blocked)).statusCode).toBeLessThan(300);
    const res = await offerBundle(buyer, { listingIds: ids, amount: 9 });
    expect(res.statusCode).toBe(404);
    const quote = await req('POST', '/api/bundles/quote', buyer, { listingIds: ids });
    expect(quote.statusCode).toBe(404);
    await req('DELETE', `/api/blocks/${buyer.id}`, blocked);
  });

  it('holds 2 to 20 books; duplicates, others’ ids, huge arrays and NUL bytes are clear 4xx errors', async () => {
    const [one] = await books(seller, 1);
    await expectFieldRefusal(
      { listingIds: [one], amount: 9 },
      'A bundle has at least 2 books',
      'Un pacchetto ha almeno 2 libri',
    );
    const many = Array.from({ length: 21 }, () => one);
    await expectFieldRefusal(
      { listingIds: many, amount: 9 },
      'A bundle has at most 20 books',
      'Un pacchetto ha al massimo 20 libri',
    );
    const huge = await offerBundle(buyer, {
      listingIds: Array.from({ length: 100_000 }, () => one),
      amount: 9,
    });
    expect([400, 413]).toContain(huge.statusCode);
    await expectRefusal(
      t,
      ['POST', '/api/chats/bundles', buyer, { listingIds: [one, one.toUpperCase()], amount: 9 }],
      {
        status: 400,
        en: 'A book is in the bundle twice',
        it: 'Un libro è due volte nel pacchetto',
      },
    );
    const nul = await offerBundle(buyer, { listingIds: [one, 'abc\u0000def'], amount: 9 });
    expect([400, 404]).toContain(nul.statusCode);
    const nulUuid = await offerBundle(buyer, { listingIds: [one, `${one}\u0000`], amount: 9 });
    expect([400, 404]).toContain(nulUuid.statusCode);
    const missing = await offerBundle(buyer, {
      listingIds: [one, '00000000-0000-4000-8000-000000000000'],
      amount: 9,
    });
    expect(missing.statusCode).toBe(404);
    for (const amount of [1e12, -1, 0, 'dieci\u0000', 9.999]) {
      const res = await offerBundle(buyer, { listingIds: [one, one], amount });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.fields.amount).toBeTruthy();
    }
    const quoteNul = await req('POST', '/api/bundles/quote', buyer, { listingIds: ['\u0000'] });
    expect([400, 404]).toContain(quoteNul.statusCode);
    const bad = await offerBundle(buyer, { listingIds: 'nope', amount: -1 });
    expect(bad.statusCode).toBe(400);
    const rule = await req('PUT', '/api/bundles/rule', seller, { shippingAmount: 1e9 });
    expect(rule.statusCode).toBe(400);
    expect(rule.json().error.fields.shippingAmount).toBe(
      'Enter a shipping price from 0 to 1,000, with at most two decimals',
    );
    expect(
      (await req('PUT', '/api/bundles/rule', undefined, { shippingAmount: 1 })).statusCode,
    ).toBe(401);
  });

  it('one open bundle offer per buyer and seller; an open offer of the buyer on a book comes first', async () => {
    const ids = await books(other, 4);
    const first = await offerBundle(buyer, { listingIds: ids.slice(0, 2), amount: 9 });
    expect(first.statusCode, first.body).toBe(201);
    await expectRefusal(
      t,
      ['POST', '/api/chats/bundles', buyer, { listingIds: ids.slice(2), amount: 9 }],
      {
        status: 409,
        en: 'You already have an open offer on one of these books, or an open bundle offer to this seller: withdraw it first',
        it: "Hai già un'offerta aperta su uno di questi libri, o un'offerta per un pacchetto a questo venditore: ritirala prima",
      },
    );
    // Withdrawn, the next one may go.
    const offerId = first.json().message.offer.id;
    expect((await req('POST', `/api/chats/offers/${offerId}/withdraw`, buyer)).statusCode).toBe(
      200,
    );
    // A single open offer on a book of the bundle comes first.
    await offerFrom(t, buyer, ids[3], 5);
    expect((await offerBundle(buyer, { listingIds: ids.slice(2), amount: 9 })).statusCode).toBe(
      409,
    );
    expect((await offerBundle(buyer, { listingIds: ids.slice(0, 2), amount: 9 })).statusCode).toBe(
      201,
    );
    // Two sends at once: one 201, one 409, never a 500.
    const more = await books(seller, 4);
    await withdrawOpen(buyer, seller);
    const both = await Promise.all([
      offerBundle(buyer, { listingIds: more.slice(0, 2), amount: 9 }),
      offerBundle(buyer, { listingIds: more.slice(2), amount: 9 }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('accepting reserves all or none: a race with a single offer on one of the books, one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const ids = await books(seller, 3);
      await withdrawOpen(buyer, seller);
      const bundle = await offerBundle(buyer, { listingIds: ids, amount: 25 });
      expect(bundle.statusCode, bundle.body).toBe(201);
      const bundleOffer = bundle.json().message.offer.id;
      const single = await offerFrom(t, other, ids[1], 11);
      const answers = await Promise.all([
        req('POST', `/api/chats/offers/${bundleOffer}/accept`, seller),
        req('POST', `/api/chats/offers/${single}/accept`, seller),
      ]);
      const codes = answers.map((r) => r.statusCode);
      expect([...codes].sort(), answers.map((r) => r.body).join('\n')).toEqual([200, 409]);
      const states = await status(ids);
      if (codes[0] === 200) expect(states).toEqual(['reserved', 'reserved', 'reserved']);
      else expect(states).toEqual(['available', 'reserved', 'available']);
    }
  });

  it('cancelling the deal makes every book available again; a stranger cannot cancel it', async () => {
    const ids = await books(seller, 3);
    await withdrawOpen(buyer, seller);
    const bundle = await offerBundle(buyer, { listingIds: ids, amount: 25 });
    const offerId = bundle.json().message.offer.id;
    // Only the seller accepts; the buyer and a stranger cannot, and nothing changes.
    expect((await req('POST', `/api/chats/offers/${offerId}/accept`, buyer)).statusCode).toBe(403);
    expect((await req('POST', `/api/chats/offers/${offerId}/accept`, other)).statusCode).toBe(403);
    expect(await status(ids)).toEqual(['available', 'available', 'available']);
    const accepted = await req('POST', `/api/chats/offers/${offerId}/accept`, seller);
    const dealId = accepted.json().message.offer.dealId;
    expect((await req('POST', `/api/deals/${dealId}/cancel`, other)).statusCode).toBe(404);
    expect(await status(ids)).toEqual(['reserved', 'reserved', 'reserved']);
    const res = await req('POST', `/api/deals/${dealId}/cancel`, buyer);
    expect(res.statusCode, res.body).toBe(200);
    expect(await status(ids)).toEqual(['available', 'available', 'available']);
  });

  it('quotes a bundle being built: books no longer available are flagged, nothing changes', async () => {
    const ids = await books(seller, 2, [2, 3]);
    await t.database.query(`update book_listings set status = 'sold' where id = $1`, [ids[1]]);
    const res = await req('POST', '/api/bundles/quote', buyer, { listingIds: ids });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().listings.map((l: { available: boolean }) => l.available)).toEqual([
      true,
      false,
    ]);
    expect(res.json().shipping).toBe(3);
    expect(
      (await req('POST', '/api/bundles/quote', undefined, { listingIds: ids })).statusCode,
    ).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it('lists the bundle routes with their errors', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/chats/bundles'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '404', '409']),
    );
    expect(doc.paths['/api/bundles/rule'].put).toBeTruthy();
    expect(doc.paths['/api/bundles/quote'].post).toBeTruthy();
  });
});
