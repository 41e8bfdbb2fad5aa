import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app';
import { bothConfirm } from '../../test/deals';
import { createListing } from '../../test/listings';
import type { Member } from '../../test/members';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

/**
 * A seller cannot make up a sale: naming a member records nothing as done until that member
 * confirms (or had an accepted offer), and only an agreed sale can be reviewed.
 */
let t: TestApp, req: Requester;
let seller: Member, victim: Member, stranger: Member;

beforeAll(async () => {
  ({ t, req, seller, victim, stranger } = await appWithMembers({
    seller: { username: 'sly_seller', displayName: 'Sly Seller' },
    victim: { username: 'vera_victim', displayName: 'Vera Victim' },
    stranger: { username: 'stan_stranger', displayName: 'Stan Stranger' },
  }));
}, SIGN_UP_TIMEOUT);

const completeTo = (who: Member | undefined, listingId: string, username: string, kind = 'sale') =>
  req('POST', `/api/listings/${listingId}/complete`, who, { kind, counterpartUsername: username });

const completed = async (listingId: string) =>
  (
    await t.database.query<{ n: number }>(
      `select count(*)::int as n from transactions where listing_id = $1 and status = 'completed'`,
      [listingId],
    )
  )[0].n;

const transactionOf = async (listingId: string) =>
  (
    await t.database.query<{ id: string; status: string }>(
      'select id, status from transactions where listing_id = $1 order by created_at desc limit 1',
      [listingId],
    )
  )[0];

const review = (who: Member, transactionId: string, rating = 1) =>
  req('POST', '/api/reviews', who, { transactionId, rating, text: 'Truffatore' });

describe('marking a listing sold to a member who never agreed', () => {
  it('records nothing as done, allows no review and asks that member to confirm', async () => {
    const listing = await createListing(t, seller, { title: 'Il fu Mattia Pascal' });
    const res = await completeTo(seller, listing.id, 'vera_victim');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ outcome: 'pending', listing: { status: 'available' } });
    const { transactionId } = res.json();

    expect(await completed(listing.id)).toBe(0);
    expect((await req('GET', `/api/users/${victim.id}/profile`)).json().totalTrades).toBe(0);
    expect((await req('GET', '/api/reviews/trades', seller)).json().total).toBe(0);
    const attempt = await review(seller, transactionId);
    expect(attempt.statusCode).toBe(409);
    expect(attempt.json().error.message).toBe('You can review only a completed transaction');
    expect((await req('GET', `/api/users/${victim.id}/reviews`)).json().total).toBe(0);

    // The named member is told, and sees the request with its buttons' target.
    const notes = (await req('GET', '/api/notifications', victim)).json().items;
    expect(notes[0]).toMatchObject({
      type: 'transaction.confirm',
      link: `/profile/${victim.id}/transactions`,
      data: { title: 'Il fu Mattia Pascal', context: 'sale' },
    });
    const pending = (await req('GET', '/api/transactions/pending', victim)).json().items;
    expect(pending).toEqual([
      expect.objectContaining({
        transactionId,
        role: 'buyer',
        listingTitle: 'Il fu Mattia Pascal',
        other: expect.objectContaining({ id: seller.id, username: 'sly_seller' }),
      }),
    ]);
    const mine = (await req('GET', '/api/transactions/pending', seller)).json().items;
    expect(mine).toEqual([expect.objectContaining({ transactionId, role: 'seller' })]);
    expect((await req('GET', '/api/transactions/pending', stranger)).json().items).toEqual([]);
  });

  it('anonymous 401; other members 404 and nothing changes; ids that are not ids 404', async () => {
    const listing = await createListing(t, seller, { title: 'Uno, nessuno e centomila' });
    const { transactionId } = (await completeTo(seller, listing.id, 'vera_victim')).json();
    expect((await completeTo(undefined, listing.id, 'vera_victim')).statusCode).toBe(401);
    expect((await completeTo(stranger, listing.id, 'vera_victim')).statusCode).toBe(404);
    for (const action of ['confirm', 'decline']) {
      const url = `/api/transactions/${transactionId}/${action}`;
      expect((await req('POST', url)).statusCode).toBe(401);
      const other = await req('POST', url, stranger);
      expect(other.statusCode).toBe(404);
      expect(other.json().error.message).toBe('This sale is not waiting for your answer');
      for (const bad of ['nope', 'x'.repeat(64)])
        expect((await req('POST', `/api/transactions/${bad}/${action}`, victim)).statusCode).toBe(
          404,
        );
      // A NUL byte is refused by the platform's one text check before any route.
      const nul = await req('POST', `/api/transactions/${transactionId}%00/${action}`, victim);
      expect(nul.statusCode).toBe(400);
    }
    // The seller cannot confirm on the named member's behalf.
    expect(
      (await req('POST', `/api/transactions/${transactionId}/confirm`, seller)).statusCode,
    ).toBe(404);
    expect((await req('GET', '/api/transactions/pending')).statusCode).toBe(401);
    expect(await transactionOf(listing.id)).toMatchObject({ status: 'pending' });
    expect(await completed(listing.id)).toBe(0);
  });

  it('the named member confirms: the sale counts and both can review each other', async () => {
    const listing = await createListing(t, seller, { title: 'Sei personaggi in cerca d’autore' });
    const { transactionId } = (await completeTo(seller, listing.id, 'VERA_VICTIM')).json();
    const before = (await req('GET', `/api/users/${seller.id}/profile`)).json().totalTrades;
    const ok = await req('POST', `/api/transactions/${transactionId}/confirm`, victim);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ transactionId, status: 'completed' });
    expect((await req('GET', `/api/listings/${listing.id}`)).json().status).toBe('sold');
    expect(await completed(listing.id)).toBe(1);
    expect((await req('GET', `/api/users/${seller.id}/profile`)).json().totalTrades).toBe(
      before + 1,
    );
    const trades = (await req('GET', `/api/reviews/trades?listingId=${listing.id}`, victim)).json();
    expect(trades.items).toEqual([expect.objectContaining({ transactionId, reviewable: true })]);
    expect((await review(seller, transactionId, 5)).statusCode).toBe(201);
    expect((await review(victim, transactionId, 4)).statusCode).toBe(201);
    // The seller hears of it (beside the reviews published); a second answer finds nothing.
    const notes = (await req('GET', '/api/notifications', seller)).json().items;
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'transaction.answered',
          data: expect.objectContaining({ context: 'confirmed' }),
        }),
      ]),
    );
    expect(
      (await req('POST', `/api/transactions/${transactionId}/confirm`, victim)).statusCode,
    ).toBe(404);
    expect(
      (await req('POST', `/api/transactions/${transactionId}/decline`, victim)).statusCode,
    ).toBe(404);
  });

  it('the named member declines: nothing is recorded and the seller may name someone else', async () => {
    const listing = await createListing(t, seller, { title: 'Il giorno della civetta' });
    const { transactionId } = (await completeTo(seller, listing.id, 'vera_victim')).json();
    const no = await req('POST', `/api/transactions/${transactionId}/decline`, victim);
    expect(no.statusCode).toBe(200);
    expect(no.json()).toEqual({ transactionId, status: 'cancelled' });
    expect(await transactionOf(listing.id)).toMatchObject({ status: 'cancelled' });
    expect((await req('GET', `/api/listings/${listing.id}`)).json().status).toBe('available');
    expect((await review(seller, transactionId)).statusCode).toBe(409);
    const waiting = (await req('GET', '/api/transactions/pending', victim)).json().items;
    expect(waiting.map((p: { transactionId: string }) => p.transactionId)).not.toContain(
      transactionId,
    );
    expect(
      (await req('POST', `/api/transactions/${transactionId}/confirm`, victim)).statusCode,
    ).toBe(404);

    // Naming another member replaces a request still waiting: the first can no longer confirm.
    const first = (await completeTo(seller, listing.id, 'vera_victim')).json().transactionId;
    const second = (await completeTo(seller, listing.id, 'stan_stranger')).json().transactionId;
    expect((await req('POST', `/api/transactions/${first}/confirm`, victim)).statusCode).toBe(404);
    expect((await req('POST', `/api/transactions/${second}/confirm`, stranger)).statusCode).toBe(
      200,
    );
    expect(await completed(listing.id)).toBe(1);
  });

  it('two confirmations at once complete one sale; a listing sold meanwhile answers 409', async () => {
    const listing = await createListing(t, seller, { title: 'Todo modo' });
    const { transactionId } = (await completeTo(seller, listing.id, 'vera_victim')).json();
    const url = `/api/transactions/${transactionId}/confirm`;
    const answers = await Promise.all([req('POST', url, victim), req('POST', url, victim)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
    expect(await completed(listing.id)).toBe(1);

    const other = await createListing(t, seller, { title: 'Il contesto' });
    const late = (await completeTo(seller, other.id, 'vera_victim')).json().transactionId;
    await req('POST', `/api/listings/${other.id}/status`, seller, { status: 'sold' });
    const gone = await req('POST', `/api/transactions/${late}/confirm`, victim);
    expect(gone.statusCode).toBe(409);
    expect(await completed(other.id)).toBe(0);
  });

  it('with an accepted offer the deal completes it: marking it sold alone is refused', async () => {
    const listing = await createListing(t, seller, { title: 'La luna e i falò' });
    const asked = await completeTo(seller, listing.id, 'stan_stranger');
    expect(asked.json().outcome).toBe('pending');
    const { roomId } = (
      await req('POST', '/api/chats/contact', victim, { listingId: listing.id, content: 'Ciao' })
    ).json();
    const made = await req('POST', `/api/chats/rooms/${roomId}/offers`, victim, {
      listingId: listing.id,
      amount: 9.5,
    });
    const offerId = made.json().message.offer.id;
    const accepted = await req('POST', `/api/chats/offers/${offerId}/accept`, seller);
    expect(accepted.statusCode).toBe(200);
    // The request to another member waiting for confirmation gives way to the deal.
    expect((await transactionOf(listing.id)).status).toBe('cancelled');
    expect(
      (await req('POST', `/api/transactions/${asked.json().transactionId}/confirm`, stranger))
        .statusCode,
    ).toBe(404);
    for (const name of ['@vera_victim', 'stan_stranger']) {
      const res = await completeTo(seller, listing.id, name);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.message).toBe(
        'This book has an accepted offer: the deal completes in your conversation with the buyer',
      );
    }
    expect(await completed(listing.id)).toBe(0);
    expect((await req('GET', `/api/listings/${listing.id}`)).json().status).toBe('reserved');
    await bothConfirm(t, seller, victim, accepted.json().message.offer.dealId);
    expect(await completed(listing.id)).toBe(1);
    const [tx] = await t.database.query<{ id: string }>(
      `select id from transactions where listing_id = $1 and status = 'completed'`,
      [listing.id],
    );
    expect((await review(victim, tx.id, 2)).statusCode).toBe(201);
    expect((await completeTo(seller, listing.id, 'vera_victim')).statusCode).toBe(409);
  });

  it('a member asked to confirm cannot take a book promised to another in a deal', async () => {
    const listing = await createListing(t, seller, { title: 'Paesi tuoi' });
    const { roomId } = (
      await req('POST', '/api/chats/contact', victim, { listingId: listing.id, content: 'Ciao' })
    ).json();
    const made = await req('POST', `/api/chats/rooms/${roomId}/offers`, victim, {
      listingId: listing.id,
      amount: 7,
    });
    // A request made while the offer waits; then the seller accepts the offer.
    const asked = await completeTo(seller, listing.id, 'stan_stranger');
    expect(asked.json().outcome).toBe('pending');
    const offerId = made.json().message.offer.id;
    expect((await req('POST', `/api/chats/offers/${offerId}/accept`, seller)).statusCode).toBe(200);
    const confirm = await req(
      'POST',
      `/api/transactions/${asked.json().transactionId}/confirm`,
      stranger,
    );
    expect(confirm.statusCode).toBe(404);
    expect(await completed(listing.id)).toBe(0);
    expect((await req('GET', `/api/listings/${listing.id}`)).json().status).toBe('reserved');
  });

  it('a sale recorded alone before this rule keeps its review but takes no new one', async () => {
    const listing = await createListing(t, seller, { title: 'Ragazzi di vita' });
    const [legacy] = await t.database.query<{ id: string }>(
      `insert into transactions (listing_id, buyer_id, seller_id, kind, status)
       values ($1, $2, $3, 'sale', 'completed') returning id`,
      [listing.id, victim.id, seller.id],
    );
    await t.database.query(
      `insert into reviews (transaction_id, author_id, subject_id, rating, text)
       values ($1, $2, $3, 4, 'Scritta prima')`,
      [legacy.id, victim.id, seller.id],
    );
    const refused = await review(seller, legacy.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/recorded by one member only/);
    const kept = (await req('GET', `/api/users/${seller.id}/reviews`)).json();
    expect(kept.items.map((r: { text: string }) => r.text)).toContain('Scritta prima');
    const trades = (await req('GET', `/api/reviews/trades?listingId=${listing.id}`, seller)).json();
    expect(trades.items).toEqual([
      expect.objectContaining({ transactionId: legacy.id, reviewable: false }),
    ]);
  });

  it('refuses unknown, deleted-looking and oversized usernames with 400', async () => {
    const listing = await createListing(t, seller, { title: 'Il sentiero dei nidi di ragno' });
    for (const name of ['ghost_member', '', 'x'.repeat(51), 'sly_seller']) {
      const res = await completeTo(seller, listing.id, name);
      expect(res.statusCode, name).toBe(400);
    }
    const kind = await completeTo(seller, listing.id, 'vera_victim', 'gift');
    expect(kind.statusCode).toBe(400);
    expect(await transactionOf(listing.id)).toBeUndefined();
  });
});
