import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app';
import { createListing, saleListing } from '../../test/listings';
import type { Member } from '../../test/members';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

/**
 * Money is stored in cents: fractions of a cent, more than two decimals, numbers JSON cannot
 * carry exactly, negatives and huge values answer 400 with a message, never 500 nor a silently
 * rounded amount.
 */
let t: TestApp, req: Requester;
let seller: Member, buyer: Member;

beforeAll(async () => {
  ({ t, req, seller, buyer } = await appWithMembers({
    seller: { displayName: 'Sara Seller' },
    buyer: { displayName: 'Bruno Buyer' },
  }));
}, SIGN_UP_TIMEOUT);

/** A body sent as raw JSON text, so it can hold numbers such as 1e400 (Infinity once parsed). */
const raw = (method: 'POST' | 'PATCH', url: string, who: Member, body: string) =>
  t.inject({
    method,
    url,
    headers: { cookie: who.cookie, 'content-type': 'application/json', 'accept-language': 'en' },
    payload: body,
  });

const BELOW_A_CENT = [0.001, 0.005, 0.009, 1e-9, 5e-324];
const TOO_PRECISE = [12.345, 0.011, 99.999];
const HUGE = [1e6, 1e21, 1e308, Number.MAX_SAFE_INTEGER];

describe('offer amounts', () => {
  let roomId: string;
  let listingId: string;
  beforeAll(async () => {
    listingId = (await createListing(t, seller, { title: 'Il nome della rosa' })).id;
    const contact = await req('POST', '/api/chats/contact', buyer, { listingId, content: 'Ciao' });
    roomId = contact.json().roomId;
  });
  const offer = (amount: unknown) =>
    req('POST', `/api/chats/rooms/${roomId}/offers`, buyer, { listingId, amount });

  it('below one cent, with more than two decimals, not positive or too high: 400', async () => {
    const cases: Array<[unknown, string]> = [
      ...BELOW_A_CENT.map((n): [unknown, string] => [n, 'Use at most two decimals']),
      ...TOO_PRECISE.map((n): [unknown, string] => [n, 'Use at most two decimals']),
      ...HUGE.map((n): [unknown, string] => [n, 'The offer is too high']),
      [0, 'The offer must be greater than 0'],
      [-0.01, 'The offer must be greater than 0'],
      [-1e308, 'The offer must be greater than 0'],
      ['NaN', 'Enter an amount'],
      ['Infinity', 'Enter an amount'],
      ['12', 'Enter an amount'],
      [null, 'Enter an amount'],
      [{ value: 1 }, 'Enter an amount'],
    ];
    for (const [amount, message] of cases) {
      const res = await offer(amount);
      expect(res.statusCode, `${String(amount)}: ${res.body}`).toBe(400);
      expect(res.json().error.fields.amount, String(amount)).toBe(message);
    }
    for (const text of ['1e400', '-1e400']) {
      const res = await raw(
        'POST',
        `/api/chats/rooms/${roomId}/offers`,
        buyer,
        `{"listingId":"${listingId}","amount":${text}}`,
      );
      expect(res.statusCode, `${text}: ${res.body}`).toBe(400);
    }
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from offers where listing_id = $1',
      [listingId],
    );
    expect(n).toBe(0);
    // One cent is a valid offer.
    const cent = await offer(0.01);
    expect(cent.statusCode, cent.body).toBe(201);
    expect(cent.json().message.offer.amount).toBe(0.01);
  });
});

describe('listing prices and shipping costs', () => {
  it('the full form, quick sell and an edit refuse fractions of a cent and other bad money', async () => {
    const full = (price: unknown, shippingCost: unknown = 3) =>
      req('POST', '/api/listings', seller, { ...saleListing, price, shippingCost });
    for (const price of [...BELOW_A_CENT, ...TOO_PRECISE]) {
      const res = await full(price);
      expect(res.statusCode, `${price}: ${res.body}`).toBe(400);
      expect(res.json().error.fields.price).toBe('Use at most two decimals (steps of 0.01)');
    }
    for (const price of HUGE) {
      const res = await full(price);
      expect(res.statusCode, String(price)).toBe(400);
      expect(res.json().error.fields.price).toBe('Price is too high');
    }
    expect((await full(-0.01)).json().error.fields.price).toBe('Price cannot be negative');
    for (const price of ['NaN', 'Infinity', 'dodici', true])
      expect((await full(price)).json().error.fields.price, String(price)).toBe(
        'Price must be a number',
      );
    for (const cost of [1e-9, 0.001, 4.999]) {
      const res = await full(10, cost);
      expect(res.statusCode, String(cost)).toBe(400);
      expect(res.json().error.fields.shippingCost).toBe('Use at most two decimals (steps of 0.01)');
    }
    const infinite = await raw(
      'POST',
      '/api/listings',
      seller,
      JSON.stringify({ ...saleListing, price: 1 }).replace('"price":1', '"price":1e400'),
    );
    expect(infinite.statusCode, infinite.body).toBe(400);

    for (const price of [1e-9, 0.001, 2.345]) {
      const res = await req('POST', '/api/listings', seller, {
        mode: 'quickSell',
        title: 'Se questo è un uomo',
        author: 'Primo Levi',
        price,
      });
      expect(res.statusCode, String(price)).toBe(400);
      expect(res.json().error.fields.price).toBe('Use at most two decimals (steps of 0.01)');
    }

    const listing = await createListing(t, seller, { title: 'La tregua', price: 7 });
    const edit = await req('PATCH', `/api/listings/${listing.id}`, seller, {
      ...saleListing,
      title: 'La tregua',
      price: 1e-9,
    });
    expect(edit.statusCode).toBe(400);
    expect((await req('GET', `/api/listings/${listing.id}`)).json().price).toBe(7);

    // Zero (a free book, free shipping) and whole cents stay valid.
    const free = await full(0, 0);
    expect(free.statusCode, free.body).toBe(201);
    expect(free.json()).toMatchObject({ price: 0, shippingCost: 0 });
    expect((await full(12.99, 4.9)).json()).toMatchObject({ price: 12.99, shippingCost: 4.9 });
  });
});
