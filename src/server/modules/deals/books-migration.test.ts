import { beforeAll, describe, expect, it } from 'vitest';
import { listMigrations } from '../../db/migrate';
import type { TestApp } from '../../test/app';
import { requester, type Member } from '../../test/members';
import { openDealBetween } from '../../test/deals';
import { appWithMembers, SIGN_UP_TIMEOUT } from '../../test/harness';

/**
 * Migration 0047 on deals opened before it: each gets its books as agreed from the listings as
 * they are, and an offer that opened a deal outlives its listing from then on.
 */
let t: TestApp;
let seller: Member, buyer: Member;
const migration = listMigrations().find((m) => m.name.startsWith('0047_'))!;

beforeAll(async () => {
  ({ t, seller, buyer } = await appWithMembers({
    seller: { displayName: 'Sara Seller' },
    buyer: { displayName: 'Bruno Buyer' },
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
    await t.database.exec(migration.sql);

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
