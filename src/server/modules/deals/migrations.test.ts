import { beforeAll, describe, expect, it } from 'vitest';
import { listMigrations } from '../../db/migrate';
import type { TestApp } from '../../test/app';
import { requester, type Member } from '../../test/members';
import { bothConfirm, openDealBetween } from '../../test/deals';
import { openTradeDeal } from '../../test/trades';
import { appWithMembers, SIGN_UP_TIMEOUT } from '../../test/harness';

/**
 * Migrations on deals made before them. 0047: each deal gets its books as agreed from the
 * listings as they are, and an offer that opened a deal outlives its listing from then on. 0048:
 * of a trade completed with a transaction per book, the book asked for's stays, with each
 * member's review of the trade on it; the others go.
 */
let t: TestApp;
let seller: Member, buyer: Member, owner: Member, proposer: Member;
const migration = (number: string) =>
  listMigrations().find((m) => m.name.startsWith(`${number}_`))!;

beforeAll(async () => {
  ({ t, seller, buyer, owner, proposer } = await appWithMembers({
    seller: { displayName: 'Sara Seller' },
    buyer: { displayName: 'Bruno Buyer' },
    owner: { displayName: 'Osvaldo Owner' },
    proposer: { displayName: 'Prisca Proposer' },
  }));
}, SIGN_UP_TIMEOUT);

describe('migration 0047 (deal books as agreed)', () => {
  it('fills the books of existing deals and keeps a deal when its listing is deleted', async () => {
    const open = await openDealBetween(t, seller, buyer, {
      listing: { title: 'Il sistema periodico', shippingCost: 4 },
    });
    const ended = await openDealBetween(t, seller, buyer, { listing: { title: 'La tregua' } });
    // The state before 0047: no books as agreed, offers deleted with their listing.
    await t.database.exec(`drop table deal_books;
      alter table offers drop constraint offers_listing_id_fkey;
      alter table offers add constraint offers_listing_id_fkey
        foreign key (listing_id) references book_listings(id) on delete cascade;
      alter table offers alter column listing_id set not null;`);
    await t.database.exec(migration('0047').sql);

    const rows = await t.database.query<{ deal_id: string; title: string; price: string }>(
      `select deal_id::text, title, price::text, shipping_cost::text as shipping, owner_id,
         position, listing_id::text from deal_books where deal_id = any($1::uuid[])
       order by title`,
      [[open.dealId, ended.dealId]],
    );
    expect(rows).toEqual([
      {
        deal_id: open.dealId,
        title: 'Il sistema periodico',
        price: '12.00',
        shipping: '4.00',
        owner_id: seller.id,
        position: 1,
        listing_id: open.listingId,
      },
      {
        deal_id: ended.dealId,
        title: 'La tregua',
        price: '12.00',
        shipping: null,
        owner_id: seller.id,
        position: 1,
        listing_id: ended.listingId,
      },
    ]);

    const req = requester(t);
    expect((await req('POST', `/api/deals/${ended.dealId}/cancel`, seller)).statusCode).toBe(200);
    expect((await req('DELETE', `/api/listings/${ended.listingId}`, seller)).statusCode).toBe(204);
    const deal = (await req('GET', `/api/deals/${ended.dealId}`, buyer)).json().deal;
    expect(deal).toMatchObject({
      status: 'cancelled',
      listings: [{ id: null, title: 'La tregua' }],
    });
  });
});

describe('migration 0048 (a trade is one transaction)', () => {
  it('merges a trade’s transactions into one, keeping one review each way', async () => {
    const d = await openTradeDeal(t, owner, proposer, { count: 2 });
    await bothConfirm(t, owner, proposer, d.dealId);
    const [kept] = await t.database.query<{ id: string }>(
      'select id::text from transactions where deal_id = $1',
      [d.dealId],
    );
    // The state before 0048: one transaction per offered book too, each book's owner its
    // seller; the owner reviewed the trade twice (once per transaction), the proposer once, on
    // another book's transaction.
    await t.database.exec(`drop table deal_trade_parcels;
      alter table offers drop constraint offers_trade_shipping_check;`);
    const extra: string[] = [];
    for (const listingId of d.offered) {
      const [row] = await t.database.query<{ id: string }>(
        `insert into transactions (listing_id, buyer_id, seller_id, kind, status, agreed_at, deal_id)
         values ($1, $2, $3, 'trade', 'completed', now(), $4) returning id::text`,
        [listingId, owner.id, proposer.id, d.dealId],
      );
      extra.push(row.id);
    }
    const review = (tx: string, author: Member, subject: Member, rating: number) =>
      t.database.query(
        `insert into reviews (transaction_id, author_id, subject_id, rating, text, published_at)
         values ($1, $2, $3, $4, 'r', now() + interval '10 days')`,
        [tx, author.id, subject.id, rating],
      );
    await review(kept.id, owner, proposer, 4);
    await review(extra[0], owner, proposer, 2);
    await review(extra[1], proposer, owner, 5);
    // Another member's trade outside a deal is left alone.
    const [alone] = await t.database.query<{ id: string }>(
      `insert into transactions (buyer_id, seller_id, kind, status, agreed_at)
       values ($1, $2, 'trade', 'completed', now()) returning id::text`,
      [owner.id, proposer.id],
    );

    await t.database.exec(migration('0048').sql);

    const left = await t.database.query<{ id: string; listing_id: string }>(
      'select id::text, listing_id::text from transactions where deal_id = $1',
      [d.dealId],
    );
    expect(left).toEqual([{ id: kept.id, listing_id: d.wanted }]);
    const reviews = await t.database.query<{
      author_id: string;
      rating: number;
      published: boolean;
    }>(
      `select author_id, rating, published_at <= now() as published from reviews
       where transaction_id = $1 order by author_id`,
      [kept.id],
    );
    expect(reviews.sort((a, b) => a.rating - b.rating)).toEqual([
      { author_id: owner.id, rating: 4, published: true },
      { author_id: proposer.id, rating: 5, published: true },
    ]);
    expect(
      (await t.database.query('select 1 from transactions where id = $1', [alone.id])).length,
    ).toBe(1);
    expect(
      (
        await t.database.query<{ n: number }>(
          'select count(*)::int as n from reviews where transaction_id = any($1::uuid[])',
          [extra],
        )
      )[0].n,
    ).toBe(0);
  });
});
