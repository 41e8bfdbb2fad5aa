import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, type Member } from '../../test/members';
import { createListing, offerFrom, requester } from './test-support';

/** A listing has at most one accepted offer, whatever the timing of the seller's accepts. */
let t: TestApp;
let req: ReturnType<typeof requester>;
let seller: Member;
let anna: Member;
let bruno: Member;

beforeAll(async () => {
  t = await createTestApp();
  req = requester(t);
  seller = await createMember(t, { displayName: 'Sara Seller' });
  anna = await createMember(t, { displayName: 'Anna Buyer' });
  bruno = await createMember(t, { displayName: 'Bruno Buyer' });
}, 120_000);

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

  it('an offer accepted after the listing was made available again replaces the earlier one', async () => {
    const listing = await createListing(t, seller, { title: 'Il deserto dei Tartari' });
    const first = await offerFrom(t, anna, listing.id, 10);
    expect((await req('POST', `/api/chats/offers/${first}/accept`, seller)).statusCode).toBe(200);
    const back = await req('POST', `/api/listings/${listing.id}/status`, seller, {
      status: 'available',
    });
    expect(back.statusCode).toBe(200);
    const second = await offerFrom(t, bruno, listing.id, 12);
    const res = await req('POST', `/api/chats/offers/${second}/accept`, seller);
    expect(res.statusCode, res.body).toBe(200);
    expect((await accepted(listing.id)).map((o) => o.id)).toEqual([second]);
    const [earlier] = await t.database.query<{ status: string }>(
      'select status from offers where id = $1',
      [first],
    );
    expect(earlier.status).toBe('declined');
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
