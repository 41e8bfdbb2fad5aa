import { describe, expect, it } from 'vitest';
import { expectRefusal } from '../../test/members';
import { createListing } from '../../test/listings';
import {
  t,
  req,
  a,
  b,
  d,
  LOCKED,
  step,
  ok,
  contact,
  handOpen,
  handConfirmedOnce,
  readDeal,
  listingRow,
  setUpWorld,
} from './locked-books.fixture';

/** A book in an open deal, attacked: a second account, races, another member (issue 32). */
setUpWorld();

describe('attackers', () => {
  it('D’s pending offer on a book of B’s open deal cannot be accepted, even when the book reads available', async () => {
    const c = await handOpen();
    const listingId = c.books[0].id;
    const before = await readDeal(c);
    // The state the old status route allowed: the book back on sale and D offering on it.
    await t.database.query(`update book_listings set status = 'available' where id = $1`, [
      listingId,
    ]);
    const roomId = await contact(d, listingId);
    const offer = await ok(
      await req('POST', `/api/chats/rooms/${roomId}/offers`, d, { listingId, amount: 11 }),
      201,
    );
    const offerId = offer.json().message.offer.id as string;
    await expectRefusal(t, ['POST', `/api/chats/offers/${offerId}/accept`, a, undefined], LOCKED);
    const after = await readDeal(c);
    expect(after.status).toBe('open');
    expect(after.listings).toEqual(before.listings);
    const [row] = await t.database.query<{ status: string }>(
      'select status from offers where id = $1',
      [offerId],
    );
    expect(row.status).toBe('pending');
  });

  it('a race of status changes, an edit and a delete against the buyer’s confirmation: the deal decides', async () => {
    const c = await handConfirmedOnce();
    const id = c.books[0].id;
    const answers = await Promise.all([
      req('POST', `/api/listings/${id}/status`, a, { status: 'available' }),
      step(c, 'meeting/confirm', a),
      req('POST', `/api/listings/${id}/status`, a, { status: 'sold' }),
      req('PATCH', `/api/listings/${id}`, a, { title: 'Paperback reprint' }),
      req('DELETE', `/api/listings/${id}`, a),
    ]);
    expect(answers[1].statusCode, answers[1].body).toBe(200);
    for (const res of [answers[0], answers[2], answers[3], answers[4]])
      // Before the confirmation: locked (409). After it the book is sold and its own again.
      expect([200, 204, 409], res.body).toContain(res.statusCode);
    const deal = await readDeal(c);
    expect(deal.status).toBe('completed');
    expect(deal.listings.map((l: { title: string }) => l.title)).toEqual([
      'Handed over, confirmed once',
    ]);
    const [sale] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from transactions where deal_id = $1 and status = 'completed'`,
      [c.dealId],
    );
    expect(sale.n).toBe(1);
  });

  it('two accepts on one book at once: one deal, the other refused', async () => {
    const listing = await createListing(t, a, { title: 'Two offers', price: 12 });
    const offers: string[] = [];
    for (const who of [b, d]) {
      const roomId = await contact(who, listing.id);
      const res = await ok(
        await req('POST', `/api/chats/rooms/${roomId}/offers`, who, {
          listingId: listing.id,
          amount: 10,
        }),
        201,
      );
      offers.push(res.json().message.offer.id);
    }
    const answers = await Promise.all(
      offers.map((o) => req('POST', `/api/chats/offers/${o}/accept`, a)),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [open] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from deals dl join offer_listings ol on ol.offer_id = dl.offer_id
       where ol.listing_id = $1 and dl.status = 'open'`,
      [listing.id],
    );
    expect(open.n).toBe(1);
  });

  it('an accept racing the listing’s deletion: either the deal with its book, or neither', async () => {
    const listing = await createListing(t, a, { title: 'Accept or delete', price: 12 });
    const roomId = await contact(b, listing.id);
    const offer = await ok(
      await req('POST', `/api/chats/rooms/${roomId}/offers`, b, {
        listingId: listing.id,
        amount: 10,
      }),
      201,
    );
    const [accepted, deleted] = await Promise.all([
      req('POST', `/api/chats/offers/${offer.json().message.offer.id}/accept`, a),
      req('DELETE', `/api/listings/${listing.id}`, a),
    ]);
    expect(accepted.statusCode).toBeLessThan(500);
    if (accepted.statusCode === 200) {
      expect(deleted.statusCode).toBe(409);
      expect((await listingRow(listing.id)).status).toBe('reserved');
    } else expect(deleted.statusCode).toBe(204);
    const deals = await t.database.query<{ status: string }>(
      `select dl.status from deals dl join deal_books db on db.deal_id = dl.id
       where db.title = 'Accept or delete'`,
    );
    expect(deals.map((x) => x.status)).toEqual(accepted.statusCode === 200 ? ['open'] : []);
  });

  it('another member gets 404 on the book and changes nothing', async () => {
    const c = await handOpen();
    const before = await readDeal(c);
    for (const res of [
      await req('POST', `/api/listings/${c.books[0].id}/status`, d, { status: 'available' }),
      await req('PATCH', `/api/listings/${c.books[0].id}`, d, { title: 'x' }),
      await req('DELETE', `/api/listings/${c.books[0].id}`, d),
    ])
      expect(res.statusCode).toBe(404);
    expect(await readDeal(c)).toEqual(before);
  });
});
