import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import type { Member } from '../../../test/members';
import { createListing } from '../../../test/listings';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../../test/harness';

/**
 * A bundle's shipping by the seller's rule (decision 0076, issue 33 item 7): a bundle price the
 * seller set is their promise for the whole parcel, so post holds at that price even when a book
 * alone is handed over only; without one, post needs every book to ship, and a refusal names the
 * books that do not.
 */
let t: TestApp, req: Requester;
let seller: Member, buyer: Member, stranger: Member;

beforeAll(async () => {
  ({ t, req, seller, buyer, stranger } = await appWithMembers({
    seller: { username: 'sandra_rule', displayName: 'Sandra Rule' },
    buyer: { username: 'bruno_post', displayName: 'Bruno Post' },
    stranger: { username: 'stella_x', displayName: 'Stella X' },
  }));
}, SIGN_UP_TIMEOUT);

/** Books of the seller for sale at 10: a shipping cost each, or null (hand to hand only). */
async function books(list: [title: string, shipping: number | null][]) {
  const ids: string[] = [];
  for (const [title, cost] of list) {
    const l = await createListing(t, seller, {
      title,
      price: 10,
      ...(cost === null ? {} : { shippingCost: cost }),
    });
    ids.push(l.id);
  }
  return ids;
}

const setRule = (shippingAmount: number | null) =>
  req('PUT', '/api/bundles/rule', seller, { shippingAmount });

async function withdrawOpen() {
  const open = await t.database.query<{ id: string }>(
    `select id::text from offers where buyer_id = $1 and status = 'pending'`,
    [buyer.id],
  );
  for (const o of open) await req('POST', `/api/chats/offers/${o.id}/withdraw`, buyer);
}

const offerCount = async (ids: string[]) =>
  (
    await t.database.query<{ n: number }>(
      `select count(*)::int as n from offer_listings where listing_id = any($1::uuid[])`,
      [ids],
    )
  )[0].n;

describe('the seller’s bundle price', () => {
  it('ships a bundle with a hand-only book at the price they set, through to the parcel', async () => {
    expect((await setRule(5)).statusCode).toBe(200);
    const ids = await books([
      ['La luna e i falò', 3],
      ['Il mestiere di vivere', null],
    ]);
    const quote = await req('POST', '/api/bundles/quote', buyer, { listingIds: ids });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({ rule: { shippingAmount: 5 }, shipping: 5, handOnly: [] });

    // By default by post, at the seller's price.
    const res = await req('POST', '/api/chats/bundles', buyer, { listingIds: ids, amount: 17 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message.offer).toMatchObject({ amount: 17, shippingAmount: 5 });
    // A later change of the rule does not change the offer made.
    expect((await setRule(9)).statusCode).toBe(200);
    const accepted = await req(
      'POST',
      `/api/chats/offers/${res.json().message.offer.id}/accept`,
      seller,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    const dealId = accepted.json().message.offer.dealId as string;
    const deal = (await req('GET', `/api/deals/${dealId}`, buyer)).json().deal;
    expect(deal).toMatchObject({ method: 'post', shippingAmount: 5, total: 22 });
    const address = {
      name: 'Bruno Post',
      street: 'Via Po 2',
      postalCode: '10123',
      city: 'Torino',
      country: 'IT',
    };
    for (const [who, path, body] of [
      [buyer, 'address', { address }],
      [seller, 'ship', { carrier: 'brt', tracking: 'BRT-1' }],
      [buyer, 'confirm', undefined],
    ] as const) {
      const step = await req('POST', `/api/deals/${dealId}/${path}`, who, body);
      expect(step.statusCode, `${path}: ${step.body}`).toBe(200);
    }
    for (const id of ids)
      expect((await req('GET', `/api/listings/${id}`)).json().status).toBe('sold');
  });

  it('a bundle price of 0 is free shipping, by post too', async () => {
    await setRule(0);
    const ids = await books([
      ['Paesi tuoi', null],
      ['La casa in collina', null],
    ]);
    const res = await req('POST', '/api/chats/bundles', buyer, {
      listingIds: ids,
      amount: 15,
      delivery: 'post',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message.offer.shippingAmount).toBe(0);
    await withdrawOpen();
  });
});

describe('without a bundle price (the highest single cost)', () => {
  it('post is refused naming the hand-only book, in both languages; nothing stored', async () => {
    await setRule(null);
    const ids = await books([
      ['Il compagno', 4],
      ['Feria d’agosto', null],
    ]);
    const quote = (await req('POST', '/api/bundles/quote', buyer, { listingIds: ids })).json();
    expect(quote).toMatchObject({ shipping: null, handOnly: ['Feria d’agosto'] });
    const body = { listingIds: ids, amount: 12, delivery: 'post' };
    const en = await req('POST', '/api/chats/bundles', buyer, body, 'en');
    expect(en.statusCode, en.body).toBe(400);
    expect(en.json().error.message).toBe(
      'By post not possible: “Feria d’agosto” is hand-to-hand only. Choose hand to hand, or take it out of the bundle',
    );
    expect(en.json().error.fields.delivery).toBe(en.json().error.message);
    const it = await req('POST', '/api/chats/bundles', buyer, body, 'it');
    expect(it.json().error.message).toBe(
      'Per posta non è possibile: «Feria d’agosto» si consegna solo a mano. Scegli la consegna a mano, o togli il libro dal pacchetto',
    );
    expect(await offerCount(ids)).toBe(0);
    // Without a choice it is handed over.
    const hand = await req('POST', '/api/chats/bundles', buyer, { listingIds: ids, amount: 12 });
    expect(hand.statusCode, hand.body).toBe(201);
    expect(hand.json().message.offer.shippingAmount).toBeNull();
    await withdrawOpen();
  });

  it('names every hand-only book (plural)', async () => {
    const ids = await books([
      ['Tra donne sole', null],
      ['Il diavolo sulle colline', 2],
      ['La bella estate', null],
    ]);
    const body = { listingIds: ids, amount: 20, delivery: 'post' };
    const quote = (await req('POST', '/api/bundles/quote', buyer, { listingIds: ids })).json();
    expect(quote.handOnly).toEqual(['Tra donne sole', 'La bella estate']);
    const en = await req('POST', '/api/chats/bundles', buyer, body, 'en');
    expect(en.json().error.message).toBe(
      'By post not possible: “Tra donne sole” and “La bella estate” are hand-to-hand only. Choose hand to hand, or take them out of the bundle',
    );
    const it = await req('POST', '/api/chats/bundles', buyer, body, 'it');
    expect(it.json().error.message).toMatch(
      /^Per posta non è possibile: «Tra donne sole» e «La bella estate» si consegnano solo a mano/,
    );
    expect(await offerCount(ids)).toBe(0);
  });

  it('every book ships: the highest single cost', async () => {
    const ids = await books([
      ['Lavorare stanca', 3],
      ['Dialoghi con Leucò', 6],
    ]);
    const quote = (await req('POST', '/api/bundles/quote', buyer, { listingIds: ids })).json();
    expect(quote).toMatchObject({ shipping: 6, handOnly: [] });
  });
});

describe('the rule’s routes', () => {
  it('anonymous 401; each member reads and sets only their own rule', async () => {
    expect((await req('GET', '/api/bundles/rule')).statusCode).toBe(401);
    expect(
      (await req('PUT', '/api/bundles/rule', undefined, { shippingAmount: 1 })).statusCode,
    ).toBe(401);
    await setRule(7);
    const theirs = await req('PUT', '/api/bundles/rule', stranger, { shippingAmount: 2 });
    expect(theirs.json().rule).toEqual({ shippingAmount: 2 });
    expect((await req('GET', '/api/bundles/rule', seller)).json().rule).toEqual({
      shippingAmount: 7,
    });
    for (const bad of [-1, 1000.01, 1.234, '5', 1e308])
      expect(
        (await req('PUT', '/api/bundles/rule', seller, { shippingAmount: bad })).statusCode,
      ).toBe(400);
    expect((await req('GET', '/api/bundles/rule', seller)).json().rule.shippingAmount).toBe(7);
  });
});
