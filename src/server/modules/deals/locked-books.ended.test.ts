import { describe, expect, it } from 'vitest';
import {
  t,
  req,
  a,
  b,
  d,
  admin,
  step,
  ok,
  postOpen,
  postCase,
  trade,
  readDeal,
  type Case,
  setUpWorld,
} from './locked-books.fixture';

/** Once the deal ended, the listing routes work again and the deal keeps its books (issue 32). */
setUpWorld();

describe('once the deal ended', () => {
  async function completed(c: Case) {
    await ok(await step(c, 'meeting/confirm', a));
    await ok(await step(c, 'meeting/confirm', b));
    return c;
  }

  it('completed: the book is its owner’s again; deleting it keeps the deal, its books as agreed and the sale', async () => {
    const c = await completed(await trade());
    const before = await readDeal(c);
    expect(before.status).toBe('completed');
    // Already traded: "mark as sold" says so; an edit and the status work again.
    await ok(await req('PATCH', `/api/listings/${c.books[0].id}`, a, { title: 'Renamed later' }));
    const res = await req('POST', `/api/listings/${c.books[0].id}/complete`, a, {
      kind: 'trade',
      counterpartUsername: d.username,
    });
    expect(res.statusCode).toBe(409);
    for (const { id, owner } of c.books)
      await ok(await req('DELETE', `/api/listings/${id}`, owner), 204);
    const after = await readDeal(c);
    expect(after.status).toBe('completed');
    expect(after.listings).toEqual(before.listings.map((l: object) => ({ ...l, id: null })));
    expect(after.listings.map((l: { title: string }) => l.title).sort()).toEqual([
      'Offered in trade',
      'Wanted for trade',
    ]);
    const [sales] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from transactions where deal_id = $1 and status = 'completed'`,
      [c.dealId],
    );
    // A trade is one exchange: one transaction (decision 0092).
    expect(sales.n).toBe(1);
    // The conversation still reads, its offer card without a listing.
    const page = await ok(await req('GET', `/api/chats/rooms/${c.roomId}/messages`, b));
    const offer = page
      .json()
      .items.find((m: { offer?: { dealId: string } }) => m.offer?.dealId === c.dealId);
    expect(offer.offer).toMatchObject({ listingId: null, dealId: c.dealId, status: 'completed' });
  });

  it('cancelled: the routes work again, an edit does not change the deal, and delete keeps it', async () => {
    const c = await postOpen();
    await ok(await step(c, 'cancel', b));
    const before = await readDeal(c);
    expect(before.status).toBe('cancelled');
    const id = c.books[0].id;
    await ok(await req('PATCH', `/api/listings/${id}`, a, { title: 'Paperback reprint' }));
    await ok(await req('POST', `/api/listings/${id}/status`, a, { status: 'unavailable' }));
    await ok(await req('POST', `/api/listings/${id}/status`, a, { status: 'available' }));
    expect((await readDeal(c)).listings[0].title).toBe('First edition, signed');
    await ok(await req('DELETE', `/api/listings/${id}`, a), 204);
    const after = await readDeal(c);
    expect(after).toMatchObject({ status: 'cancelled', post: expect.anything() });
    expect(after.listings).toEqual([{ ...before.listings[0], id: null }]);
    // The buyer's data export lists the deal with its book as agreed.
    const exported = (await ok(await req('POST', '/api/me/export', b))).json();
    expect(exported.deals.find((x: { id: string }) => x.id === c.dealId).booksAsAgreed).toEqual([
      {
        listingId: null,
        title: 'First edition, signed',
        author: 'Italo Calvino',
        condition: 'good',
        price: 12,
        currency: 'EUR',
      },
    ]);
  });

  it('a post deal whose case the admin closed as completed keeps its case after the delete', async () => {
    const c = await postCase();
    await ok(await step(c, 'case/outcome', admin, { outcome: 'completed' }));
    const before = await readDeal(c);
    await ok(await req('DELETE', `/api/listings/${c.books[0].id}`, a), 204);
    const after = await readDeal(c);
    expect(after.post.case).toEqual(before.post.case);
    expect(after.post.tracking ?? after.post.carrier).toEqual(
      before.post.tracking ?? before.post.carrier,
    );
    const adminView = await readDeal(c, admin);
    expect(adminView.listings.map((l: { title: string }) => l.title)).toEqual(['Shipped, signed']);
  });
});
