import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app';
import { createListing } from '../../test/listings';
import { createMember, type Member } from '../../test/members';
import { saleThroughChat } from '../../test/deals';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

let t: TestApp, req: Requester;
let seller: Member, buyer: Member, stranger: Member;
let clock = new Date('2026-11-01T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  ({ t, req, seller, buyer, stranger } = await appWithMembers(
    {
      seller: { displayName: 'Silvia Seller' },
      buyer: { displayName: 'Bianca Buyer' },
      stranger: { displayName: 'Stefano Stranger' },
    },
    { deps: { now: () => clock } },
  ));
}, SIGN_UP_TIMEOUT);

/**
 * A sale completed through the chat's offer flow: contact, offer, accept, complete; agreed at the
 * test clock's time (the 14 days of the reviews count from it).
 */
const completeSale = async (s: Member, b: Member, title: string): Promise<string> => {
  const { transactionId } = await saleThroughChat(t, s, b, { title, content: 'Lo compro' });
  await t.database.query('update transactions set agreed_at = $2 where id = $1', [
    transactionId,
    clock,
  ]);
  return transactionId;
};

describe('reviews after a trade', () => {
  let txId: string;
  beforeAll(async () => {
    txId = await completeSale(seller, buyer, 'La coscienza di Zeno');
  });

  it('a member with a trade but no review is a new member: no rating figure', async () => {
    const profile = (await req('GET', `/api/users/${seller.id}/profile`)).json();
    expect(profile.totalTrades).toBe(1);
    expect(profile.rating).toBeNull();
    expect(profile.reviewCount).toBe(0);
    const reviews = (await req('GET', `/api/users/${seller.id}/reviews`)).json();
    expect(reviews).toMatchObject({ items: [], total: 0, average: null, page: 1 });
  });

  it('lets only the parties of a completed transaction review, each once', async () => {
    const payload = { transactionId: txId, rating: 5, text: 'Libro perfetto, spedito subito.' };
    expect((await req('POST', '/api/reviews', undefined, payload)).statusCode).toBe(401);
    const byStranger = await req('POST', '/api/reviews', stranger, payload);
    expect(byStranger.statusCode).toBe(404);
    expect(
      (await req('POST', '/api/reviews', buyer, { ...payload, transactionId: 'nope' })).statusCode,
    ).toBe(404);
    for (const rating of [0, 6, 2.5]) {
      const bad = await req('POST', '/api/reviews', buyer, { ...payload, rating });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.rating).toBe('Choose from 1 to 5 stars');
    }
    const long = await req('POST', '/api/reviews', buyer, { ...payload, text: 'x'.repeat(1001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields.text).toBe('A review can be at most 1,000 characters');

    const created = await req('POST', '/api/reviews', buyer, payload);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      rating: 5,
      text: 'Libro perfetto, spedito subito.',
      author: { id: buyer.id, displayName: 'Bianca Buyer' },
      subjectId: seller.id,
      listingTitle: 'La coscienza di Zeno',
      kind: 'sale',
      editableUntil: new Date(clock.getTime() + 14 * DAY).toISOString(),
      // Written alone: pending until the seller writes theirs, or 14 days after the sale.
      published: false,
      publishedAt: new Date(clock.getTime() + 14 * DAY).toISOString(),
    });
    const twice = await req('POST', '/api/reviews', buyer, { ...payload, rating: 1 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(
      'You have already reviewed this transaction: edit your review instead.',
    );
    const bySeller = await req('POST', '/api/reviews', seller, {
      transactionId: txId,
      rating: 4,
    });
    expect(bySeller.statusCode).toBe(201);
    // The second review publishes both, together.
    expect(bySeller.json()).toMatchObject({ subjectId: buyer.id, text: '', published: true });
    const rows = await t.database.query('select 1 from reviews where transaction_id = $1', [txId]);
    expect(rows).toHaveLength(2);
  });

  it('refuses a transaction that is not completed', async () => {
    const listing = await createListing(t, seller, { title: 'Pending one' });
    const [pending] = await t.database.query<{ id: string }>(
      `insert into transactions (listing_id, buyer_id, seller_id, kind, status)
       values ($1, $2, $3, 'sale', 'pending') returning id`,
      [listing.id, buyer.id, seller.id],
    );
    const res = await req('POST', '/api/reviews', buyer, { transactionId: pending.id, rating: 3 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('You can review only a completed transaction');
  });

  it('shows the reviews and their average on the profile, which replaces the formula', async () => {
    const other = await createMember(t, { displayName: 'Olga Other' });
    const second = await completeSale(seller, other, 'Se una notte');
    clock = new Date(clock.getTime() + 60_000);
    expect(
      (await req('POST', '/api/reviews', other, { transactionId: second, rating: 2 })).statusCode,
    ).toBe(201);
    // Olga's waits for Silvia's: neither in the list nor in the figures.
    const before = (await req('GET', `/api/users/${seller.id}/reviews`)).json();
    expect(before).toMatchObject({ total: 1, average: 5 });
    expect((await req('GET', `/api/users/${seller.id}/profile`)).json().rating).toBe(5);
    expect(
      (await req('POST', '/api/reviews', seller, { transactionId: second, rating: 5 })).statusCode,
    ).toBe(201);
    const page = (await req('GET', `/api/users/${seller.id}/reviews`)).json();
    expect(page.total).toBe(2);
    expect(page.average).toBe(3.5);
    expect(page.items.map((r: { rating: number }) => r.rating)).toEqual([2, 5]);
    const profile = (await req('GET', `/api/users/${seller.id}/profile`)).json();
    expect(profile.rating).toBe(3.5);
    expect(profile.reviewCount).toBe(2);
    const buyerProfile = (await req('GET', `/api/users/${buyer.id}/profile`)).json();
    expect(buyerProfile.rating).toBe(4);
    expect((await req('GET', '/api/users/nobody/reviews')).statusCode).toBe(404);
    expect((await req('GET', `/api/users/${seller.id}/reviews?page=0`)).statusCode).toBe(400);
  });

  it('pages a member’s reviews, newest first', async () => {
    const popular = await createMember(t, { displayName: 'Paola Popular' });
    for (let i = 0; i < 12; i++) {
      const [tx] = await t.database.query<{ id: string }>(
        `insert into transactions (buyer_id, seller_id, kind, agreed_at)
         values ($1, $2, 'sale', $3) returning id`,
        [buyer.id, popular.id, clock],
      );
      clock = new Date(clock.getTime() + 1000);
      await req('POST', '/api/reviews', buyer, { transactionId: tx.id, rating: (i % 5) + 1 });
      // Published when Paola reviews back.
      await req('POST', '/api/reviews', popular, { transactionId: tx.id, rating: 5 });
    }
    const first = (await req('GET', `/api/users/${popular.id}/reviews`)).json();
    const second = (await req('GET', `/api/users/${popular.id}/reviews?page=2`)).json();
    expect(first.items).toHaveLength(10);
    expect(second.items).toHaveLength(2);
    expect(first.total).toBe(12);
    expect(first.average).toBe(2.8);
    const dates = [...first.items, ...second.items].map((r: { createdAt: string }) => r.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('lets its author edit the sent fields while it waits, nobody else', async () => {
    const third = await completeSale(seller, buyer, 'Il giardino dei Finzi-Contini');
    const written = await req('POST', '/api/reviews', buyer, {
      transactionId: third,
      rating: 5,
      text: 'Libro perfetto, spedito subito.',
    });
    expect(written.statusCode, written.body).toBe(201);
    const mine = written.json() as { id: string };
    const url = `/api/reviews/${mine.id}`;
    expect((await req('PATCH', url, undefined, { rating: 1 })).statusCode).toBe(401);
    const byOther = await req('PATCH', url, seller, { rating: 1 });
    expect(byOther.statusCode).toBe(403);
    expect((await req('PATCH', url, buyer, {})).statusCode).toBe(400);
    clock = new Date(clock.getTime() + 13 * DAY);
    const edited = await req('PATCH', url, buyer, { rating: 4 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ rating: 4, text: 'Libro perfetto, spedito subito.' });
    // 14 days after the sale it is published, and final.
    clock = new Date(clock.getTime() + 2 * DAY);
    const late = await req('PATCH', url, buyer, { text: 'changed my mind' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe('This review is published and can no longer be changed');
    const [row] = await t.database.query<{ rating: number; text: string }>(
      'select rating, text from reviews where id = $1',
      [mine.id],
    );
    expect(row).toEqual({ rating: 4, text: 'Libro perfetto, spedito subito.' });
    expect(
      (
        await req('PATCH', '/api/reviews/00000000-0000-4000-8000-000000000000', buyer, {
          rating: 2,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('lists my completed trades with my review, for the review action', async () => {
    expect((await req('GET', '/api/reviews/trades')).statusCode).toBe(401);
    const trades = (await req('GET', '/api/reviews/trades', seller)).json();
    const zeno = trades.items.find((i: { transactionId: string }) => i.transactionId === txId);
    expect(zeno).toMatchObject({
      role: 'seller',
      kind: 'sale',
      listingTitle: 'La coscienza di Zeno',
      other: { id: buyer.id, displayName: 'Bianca Buyer' },
      myReview: { rating: 4, subjectId: buyer.id, published: true },
      theirReview: { rating: 5, author: { id: buyer.id }, text: 'Libro perfetto, spedito subito.' },
      theirReviewWaiting: false,
    });
    const [{ listing_id: listingId }] = await t.database.query<{ listing_id: string }>(
      'select listing_id from transactions where id = $1',
      [txId],
    );
    const one = (await req('GET', `/api/reviews/trades?listingId=${listingId}`, buyer)).json();
    expect(one.items.map((i: { transactionId: string }) => i.transactionId)).toEqual([txId]);
    const none = (await req('GET', '/api/reviews/trades', stranger)).json();
    expect(none).toMatchObject({ items: [], total: 0 });
  });

  it('refuses to review a member who deleted their account, in both languages', async () => {
    const leaving = await createMember(t, { displayName: 'Leo Leaving' });
    const stays = await createMember(t, { displayName: 'Sara Stays' });
    const tx = await completeSale(leaving, stays, 'Il sentiero dei nidi di ragno');
    const erased = await req('POST', '/api/me/delete', leaving, { password: leaving.password });
    expect(erased.statusCode, erased.body).toBe(200);
    // The trade stays in the history, without the review action.
    const trades = (await req('GET', '/api/reviews/trades', stays)).json();
    expect(trades.items).toEqual([
      expect.objectContaining({
        transactionId: tx,
        reviewable: false,
        other: expect.objectContaining({ deleted: true }),
      }),
    ]);
    const payload = { transactionId: tx, rating: 1, text: 'Sparito.' };
    const inEnglish = await req('POST', '/api/reviews', stays, payload);
    expect(inEnglish.statusCode).toBe(409);
    expect(inEnglish.json().error.message).toBe(
      'This member deleted their account and can no longer be reviewed.',
    );
    const inItalian = await req('POST', '/api/reviews', stays, payload, 'it');
    expect(inItalian.statusCode).toBe(409);
    expect(inItalian.json().error.message).toBe(
      'Questo membro ha eliminato il suo account: non può più essere recensito.',
    );
    expect((await req('POST', '/api/reviews', undefined, payload)).statusCode).toBe(401);
    expect((await req('POST', '/api/reviews', stranger, payload)).statusCode).toBe(404);
    const rows = await t.database.query('select 1 from reviews where transaction_id = $1', [tx]);
    expect(rows).toHaveLength(0);
  });

  it('leaves out the reviews of suspended members', async () => {
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [
      buyer.id,
    ]);
    const page = (await req('GET', `/api/users/${seller.id}/reviews`)).json();
    expect(page.items.map((r: { author: { id: string } }) => r.author.id)).not.toContain(buyer.id);
    expect(page.total).toBe(1);
    expect(page.average).toBe(2);
    await t.database.query(`update users set account_status = 'active' where id = $1`, [buyer.id]);
  });
});

describe('the reviews write limit', () => {
  it('is per member: two members behind one address each get their own budget', async () => {
    // Every injected request comes from 127.0.0.1; a bad body is refused but still counted.
    const first = await createMember(t, { displayName: 'Prima Persona' });
    const second = await createMember(t, { displayName: 'Seconda Persona' });
    for (let i = 0; i < 30; i++)
      expect((await req('POST', '/api/reviews', first, {})).statusCode).toBe(400);
    expect((await req('POST', '/api/reviews', first, {})).statusCode).toBe(429);
    expect((await req('POST', '/api/reviews', second, {})).statusCode).toBe(400);
  });
});
