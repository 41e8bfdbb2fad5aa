import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import { createListing } from '../../../test/listings';
import { offerFrom } from '../../../test/deals';
import type { Member } from '../../../test/members';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../../test/harness';

/** A listing has at most one accepted offer, whatever the timing of the seller's accepts. */
let t: TestApp, req: Requester;
let seller: Member, anna: Member, bruno: Member;

beforeAll(async () => {
  ({ t, req, seller, anna, bruno } = await appWithMembers({
    seller: { displayName: 'Sara Seller' },
    anna: { displayName: 'Anna Buyer' },
    bruno: { displayName: 'Bruno Buyer' },
  }));
}, SIGN_UP_TIMEOUT);

const accepted = async (listingId: string) =>
  t.database.query<{ id: string }>(
    `select id from offers where listing_id = $1 and status = 'accepted'`,
    [listingId],
  );

describe('accepting offers on one listing', () => {
  it('two accepts at the same moment: one 200, one 409, never 500, one accepted offer', async () => {
    for (let round = 0; round < 4; round++) {
      const listing = await createListing(t, seller, { title: `Il Gattopardo ${round}` });
      const a = await offerFrom(t, anna, listing.id, 10);
      const b = await offerFrom(t, bruno, listing.id, 11);
      const answers = await Promise.all([
        req('POST', `/api/chats/offers/${a}/accept`, seller),
        req('POST', `/api/chats/offers/${b}/accept`, seller),
      ]);
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes, answers.map((r) => r.body).join('\n')).toEqual([200, 409]);
      const loser = answers.find((r) => r.statusCode === 409)!;
      expect(loser.json().error.message).toMatch(
        /already been answered|no longer available|accepted at the same moment/,
      );
      expect(await accepted(listing.id)).toHaveLength(1);
    }
  });

  it('a book in an open deal is not put back on sale; once the deal is cancelled a new offer may be accepted', async () => {
    const listing = await createListing(t, seller, { title: 'Il deserto dei Tartari' });
    const first = await offerFrom(t, anna, listing.id, 10);
    const opened = await req('POST', `/api/chats/offers/${first}/accept`, seller);
    expect(opened.statusCode).toBe(200);
    // Issue 32: the deal's own steps are the only way to change its book.
    const back = await req('POST', `/api/listings/${listing.id}/status`, seller, {
      status: 'available',
    });
    expect(back.statusCode).toBe(409);
    const dealId = opened.json().message.offer.dealId as string;
    expect((await req('POST', `/api/deals/${dealId}/cancel`, seller)).statusCode).toBe(200);
    const second = await offerFrom(t, bruno, listing.id, 12);
    const res = await req('POST', `/api/chats/offers/${second}/accept`, seller);
    expect(res.statusCode, res.body).toBe(200);
    expect((await accepted(listing.id)).map((o) => o.id)).toEqual([second]);
    const [earlier] = await t.database.query<{ status: string }>(
      'select status from offers where id = $1',
      [first],
    );
    expect(earlier.status).toBe('cancelled');
  });

  it('the database itself refuses a second accepted offer on a listing', async () => {
    const listing = await createListing(t, seller, { title: 'La noia' });
    const a = await offerFrom(t, anna, listing.id, 10);
    const b = await offerFrom(t, bruno, listing.id, 10);
    await t.database.query(`update offers set status = 'accepted' where id = $1`, [a]);
    await expect(
      t.database.query(`update offers set status = 'accepted' where id = $1`, [b]),
    ).rejects.toThrow(/offers_one_accepted_idx|unique/);
  });
});
