import { describe, expect, it } from 'vitest';
import { createMember } from '../../test/members';
import {
  t,
  seller,
  other,
  buyer,
  advanceClock,
  full,
  req,
  create,
  useFixture,
} from './routes.fixture';

useFixture();

describe('owner-only changes', () => {
  const edit = { ...full, title: 'Il Gattopardo (nuova edizione)', price: 20 };

  it('PATCH: anonymous 401, another member 404 and nothing changes, the owner succeeds', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}`;
    expect((await req('PATCH', url, undefined, edit)).statusCode).toBe(401);
    const foreign = await req('PATCH', url, other, edit);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe('Book not found');
    expect((await req('GET', url)).json()).toEqual(listing);

    const mine = await req('PATCH', url, seller, edit);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ title: 'Il Gattopardo (nuova edizione)', price: 20 });
    expect(Date.parse(mine.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(listing.updatedAt));
    const invalid = await req('PATCH', url, seller, { ...edit, description: '' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields.description).toBe('Description is required');
  });

  it('PATCH changes only the fields sent: a lower price alone, a cleared field, the rules on the result', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}`;
    const { updatedAt: _u, ...before } = listing;
    // Anonymous 401 and another member 404 on a one-field body; nothing changes.
    expect((await req('PATCH', url, undefined, { price: 9 })).statusCode).toBe(401);
    expect((await req('PATCH', url, other, { price: 9 })).statusCode).toBe(404);
    expect((await req('GET', url)).json()).toEqual(listing);

    const cheaper = await req('PATCH', url, seller, { price: 9 });
    expect(cheaper.statusCode, cheaper.body).toBe(200);
    const { updatedAt: _c, ...after } = (await req('GET', url)).json();
    expect(after).toEqual({ ...before, price: 9 });

    // null (or empty text) clears an optional field; the others stay.
    const cleared = await req('PATCH', url, seller, { location: null, language: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ ...after, location: null, language: null });

    // An empty body (or one with only unknown keys) is a 400, nothing changed.
    for (const body of [{}, { mode: 'full' }]) {
      const empty = await req('PATCH', url, seller, body);
      expect(empty.statusCode).toBe(400);
    }
    // Cross-field rules run on the listing as it would be: a sale without a price is refused...
    const noPrice = await req('PATCH', url, seller, { price: null });
    expect(noPrice.statusCode).toBe(400);
    expect(noPrice.json().error.fields.price).toBe('Price is required for sale listings');
    // ...a trade without a price is fine, and selling it again needs a price.
    const trade = await req('PATCH', url, seller, { listingType: 'trade', price: null });
    expect(trade.json()).toMatchObject({ listingType: 'trade', price: null, title: full.title });
    const sell = await req('PATCH', url, seller, { listingType: 'sell' });
    expect(sell.statusCode).toBe(400);
    expect(sell.json().error.fields.price).toBe('Price is required for sale listings');
    expect((await req('GET', url)).json()).toMatchObject({ listingType: 'trade', price: null });

    // The OpenAPI document says so: no field of the body is required.
    const doc = (await req('GET', '/api/openapi.json')).json();
    const body = doc.paths['/api/listings/{id}'].patch.requestBody.content['application/json'];
    expect(body.schema.required ?? []).toEqual([]);
    expect(Object.keys(body.schema.properties)).toEqual(expect.arrayContaining(['price', 'title']));
  });

  it('status: toggles active; others 404; bad status 400', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}/status`;
    expect((await req('POST', url, undefined, { status: 'unavailable' })).statusCode).toBe(401);
    expect((await req('POST', url, other, { status: 'unavailable' })).statusCode).toBe(404);
    expect((await req('GET', `/api/listings/${listing.id}`)).json().isActive).toBe(true);
    const off = await req('POST', url, seller, { status: 'unavailable' });
    expect(off.json()).toMatchObject({ status: 'unavailable', isActive: false });
    const on = await req('POST', url, seller, { status: 'available' });
    expect(on.json()).toMatchObject({ status: 'available', isActive: true });
    const bad = await req('POST', url, seller, { status: 'lost' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.status).toMatch(/^Unknown status/);
  });

  it('DELETE: anonymous 401, another member 404 and the listing stays, the owner deletes', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}`;
    expect((await req('DELETE', url)).statusCode).toBe(401);
    expect((await req('DELETE', url, other)).statusCode).toBe(404);
    expect((await req('GET', url)).statusCode).toBe(200);
    expect((await req('DELETE', url, seller)).statusCode).toBe(204);
    expect((await req('GET', url)).statusCode).toBe(404);
    expect((await req('DELETE', url, seller)).statusCode).toBe(404);
  });
});

describe('POST /api/listings/:id/complete', () => {
  it('records a transaction that, once the member confirms, feeds site stats and total trades (not ratings: only reviews rate)', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}/complete`;
    const body = { kind: 'sale', counterpartUsername: 'buyer_one' };
    expect((await req('POST', url, undefined, body)).statusCode).toBe(401);
    expect((await req('POST', url, other, body)).statusCode).toBe(404);
    const unknown = await req('POST', url, seller, { kind: 'sale', counterpartUsername: 'ghost' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('No user found with this username');
    const self = await req('POST', url, seller, {
      kind: 'sale',
      counterpartUsername: 'Seller_One',
    });
    expect(self.statusCode).toBe(400);
    const [{ n: none }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from transactions',
    );
    expect(none).toBe(0);

    const before = (await req('GET', '/api/stats')).json();
    const asked = await req('POST', url, seller, {
      kind: 'sale',
      counterpartUsername: 'BUYER_ONE',
    });
    expect(asked.statusCode).toBe(200);
    // Nothing counts until the buyer confirms (complete.test.ts covers the refusals).
    expect(asked.json()).toMatchObject({ outcome: 'pending', listing: { status: 'available' } });
    const confirmed = await req(
      'POST',
      `/api/transactions/${asked.json().transactionId}/confirm`,
      buyer,
    );
    expect(confirmed.statusCode).toBe(200);
    expect((await req('GET', `/api/listings/${listing.id}`)).json()).toMatchObject({
      status: 'sold',
      isActive: false,
    });
    const [tx] = await t.database.query<{ buyer_id: string; seller_id: string; kind: string }>(
      'select buyer_id, seller_id, kind from transactions where listing_id = $1',
      [listing.id],
    );
    expect(tx).toEqual({ buyer_id: buyer.id, seller_id: seller.id, kind: 'sale' });

    // A second completion of the same listing is refused.
    const twice = await req('POST', url, seller, body);
    expect(twice.statusCode).toBe(409);

    // A trade counts; only reviews rate: without one, both are still new members (no figure).
    const sellerProfile = (await req('GET', `/api/users/${seller.id}/profile`)).json();
    expect(sellerProfile).toMatchObject({ rating: null, reviewCount: 0, totalTrades: 1 });
    const buyerProfile = (await req('GET', `/api/users/${buyer.id}/profile`)).json();
    expect(buyerProfile).toMatchObject({ rating: null, reviewCount: 0, totalTrades: 1 });

    const trade = await create(seller, { ...full, listingType: 'trade', price: null });
    const traded = await req('POST', `/api/listings/${trade.id}/complete`, seller, {
      kind: 'trade',
      counterpartUsername: 'other_one',
    });
    const tradeId = traded.json().transactionId;
    expect((await req('POST', `/api/transactions/${tradeId}/confirm`, other)).statusCode).toBe(200);
    expect((await req('GET', `/api/listings/${trade.id}`)).json().status).toBe('traded');
    expect((await req('GET', `/api/users/${seller.id}/profile`)).json()).toMatchObject({
      rating: null,
      totalTrades: 2,
    });

    // /api/stats caches for 30 s.
    advanceClock(31_000);
    const after = (await req('GET', '/api/stats')).json();
    expect(after.totalTransactions).toBe(before.totalTransactions + 2);
    // one more listed since, two no longer available
    expect(after.booksAvailable).toBe(before.booksAvailable + 1 - 2);
  });
});

describe('my listings', () => {
  it('lists every status newest first and sums the value of active sale listings', async () => {
    const me = await createMember(t, { username: 'counting_me' });
    expect((await req('GET', '/api/me/listings')).statusCode).toBe(401);
    expect((await req('GET', '/api/me/listings/stats')).statusCode).toBe(401);
    const a = await create(me, { ...full, price: 10.4 });
    const b = await create(me, { ...full, listingType: 'both', price: 5.3 });
    const c = await create(me, { ...full, listingType: 'trade', price: null });
    const d = await create(me, { ...full, price: 100 });
    await req('POST', `/api/listings/${d.id}/status`, me, { status: 'reserved' });

    const list = (await req('GET', '/api/me/listings', me)).json();
    expect(list.items.map((i: { id: string }) => i.id)).toEqual([d.id, c.id, b.id, a.id]);
    expect(list.items[0].status).toBe('reserved');
    const stats = (await req('GET', '/api/me/listings/stats', me)).json();
    expect(stats).toEqual({ total: 4, available: 3, totalValue: 16 });
  });
});
