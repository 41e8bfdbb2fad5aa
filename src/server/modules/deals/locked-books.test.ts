import { describe, expect, it } from 'vitest';
import { expectRefusal } from '../../test/members';
import {
  t,
  req,
  a,
  admin,
  LOCKED,
  step,
  ok,
  postCase,
  bundle,
  readDeal,
  listingRow,
  walkListingRoutes,
  OPEN_STATES,
  setUpWorld,
} from './locked-books.fixture';

/** A book in an open deal is locked (issue 32); the deal shows its books as agreed. */
setUpWorld();

describe('a book in an open deal is locked', () => {
  it.each(OPEN_STATES)(
    '%s: every listing route is refused (409) and the deal is unchanged',
    async (_, make) => {
      const c = await make();
      const before = await readDeal(c);
      const rows = await Promise.all(c.books.map((x) => listingRow(x.id)));
      const answers = await walkListingRoutes(c, 409);
      // Each refusal says why, in the member's language (complete keeps its own words).
      expect(
        answers.filter((x) => x.route !== 'complete').map((x) => JSON.parse(x.body).error.message),
      ).toEqual(answers.filter((x) => x.route !== 'complete').map(() => LOCKED.en));
      await expectRefusal(
        t,
        ['DELETE', `/api/listings/${c.books[0].id}`, c.books[0].owner, undefined],
        LOCKED,
      );
      expect(await readDeal(c)).toEqual(before);
      expect(await Promise.all(c.books.map((x) => listingRow(x.id)))).toEqual(rows);
      for (const x of rows) expect(x.status).toBe('reserved');
    },
  );

  it('an open case stays open and the admin can still close it after the seller tried everything', async () => {
    const c = await postCase();
    await walkListingRoutes(c, 409);
    const queue = (await ok(await req('GET', '/api/admin/deal-cases', admin))).json();
    expect(queue.items.find((x: { dealId: string }) => x.dealId === c.dealId)).toMatchObject({
      outcome: null,
      titles: ['Shipped, signed'],
    });
    const buyerView = await readDeal(c);
    expect(buyerView.status).toBe('open');
    expect(buyerView.post.case).toMatchObject({ reason: 'not_arrived', outcome: null });
    await ok(await step(c, 'case/outcome', admin, { outcome: 'cancelled' }));
    expect((await readDeal(c)).status).toBe('cancelled');
    // The case's outcome makes the book unavailable; the seller may now put it back on sale.
    expect((await listingRow(c.books[0].id)).status).toBe('unavailable');
    await ok(
      await req('POST', `/api/listings/${c.books[0].id}/status`, a, { status: 'available' }),
    );
  });
});

describe('what was agreed stays agreed', () => {
  it('the deal shows the books as they were when the offer was accepted', async () => {
    const c = await bundle();
    const deal = await readDeal(c);
    expect(deal).toMatchObject({ total: 32, amount: 28, shippingAmount: 4 });
    expect(deal.listings).toEqual([
      expect.objectContaining({
        id: c.books[0].id,
        title: 'Bundle one',
        author: 'Italo Calvino',
        condition: 'good',
        description: 'Edizione Einaudi, come nuovo.',
        price: 10,
        currency: 'EUR',
        shippingCost: 3,
        ownerId: a.id,
      }),
      expect.objectContaining({ id: c.books[1].id, title: 'Bundle two', price: 15 }),
    ]);
    // Listed the same way for both sides and in the list of deals.
    expect((await readDeal(c, a)).listings).toEqual(deal.listings);
    const list = (await ok(await req('GET', '/api/deals', a))).json();
    expect(list.items.find((x: { id: string }) => x.id === c.dealId).listings).toEqual(
      deal.listings,
    );
  });
});
