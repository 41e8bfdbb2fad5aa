import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import { createListing } from '../../../test/listings';
import { expectRefusal, type Member } from '../../../test/members';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../../test/harness';

let t: TestApp, req: Requester;
let seller: Member, buyer: Member, rival: Member;

beforeAll(async () => {
  ({ t, req, seller, buyer, rival } = await appWithMembers({
    seller: { username: 'sara_sells', displayName: 'Sara Seller' },
    buyer: { username: 'bruno_buys', displayName: 'Bruno Buyer' },
    rival: { username: 'rita_rival', displayName: 'Rita Rival' },
  }));
}, SIGN_UP_TIMEOUT);

async function contact(who: Member, listingId: string, content = 'È ancora disponibile?') {
  const res = await req('POST', '/api/chats/contact', who, { listingId, content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { roomId: string; message: { id: string } };
}

async function offer(who: Member, roomId: string, listingId: string, amount: unknown, lang = 'en') {
  return req('POST', `/api/chats/rooms/${roomId}/offers`, who, { listingId, amount }, lang);
}

const listingStatus = async (id: string) =>
  (await req('GET', `/api/listings/${id}`)).json().status as string;

describe('contacting a seller', () => {
  it('opens the direct room with a card of the listing, then the text', async () => {
    const listing = await createListing(t, seller, { title: 'Marcovaldo', price: 8.5 });
    const res = await req('POST', '/api/chats/contact', buyer, {
      listingId: listing.id,
      content: '  Lo prenderei volentieri.  ',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { roomId, message } = res.json();
    expect(message).toMatchObject({ type: 'text', content: 'Lo prenderei volentieri.', roomId });
    const page = (await req('GET', `/api/chats/rooms/${roomId}/messages`, seller)).json();
    expect(page.items.map((m: { type: string }) => m.type)).toEqual(['listing', 'text']);
    expect(page.items[0].listing).toEqual({
      id: listing.id,
      title: 'Marcovaldo',
      author: 'Italo Calvino',
      price: 8.5,
      currency: 'EUR',
      coverUrl: null,
      listingType: 'sell',
      status: 'available',
    });
    const room = (await req('GET', `/api/chats/rooms/${roomId}`, seller)).json();
    expect(room.listing).toMatchObject({ id: listing.id });
    // One new message is one unread message: the card travels with it and does not count.
    expect(room.unreadCount).toBe(1);
    expect((await req('GET', '/api/chats/unread', seller)).json()).toEqual({ total: 1 });
    const rooms = (await req('GET', '/api/chats/rooms', seller)).json().items;
    expect(rooms.find((r: { id: string }) => r.id === roomId).unreadCount).toBe(1);

    // The pair's one direct room again, with a new card: one more message, one more unread.
    const other = await createListing(t, seller, { title: 'Palomar' });
    const second = await contact(buyer, other.id, 'E questo?');
    expect(second.roomId).toBe(roomId);
    expect((await req('GET', '/api/chats/unread', seller)).json()).toEqual({ total: 2 });
    // The sender's own messages are never unread to them.
    expect((await req('GET', '/api/chats/unread', buyer)).json()).toEqual({ total: 0 });
    const direct = await req('POST', '/api/chats/direct', seller, { userId: buyer.id });
    expect(direct.json().room.id).toBe(roomId);
  });

  it('refuses visitors (401), one’s own listing (400), unavailable (409) and unknown (404) listings', async () => {
    const listing = await createListing(t, seller, { title: 'Il visconte dimezzato' });
    const before = (
      await t.database.query<{ n: number }>('select count(*)::int as n from chat_messages')
    )[0].n;
    const visitor = await req('POST', '/api/chats/contact', undefined, {
      listingId: listing.id,
      content: 'Ciao',
    });
    expect(visitor.statusCode).toBe(401);

    const io = { listingId: listing.id, content: 'Io' };
    await expectRefusal(t, ['POST', '/api/chats/contact', seller, io], {
      status: 400,
      en: 'You cannot start a chat about your own listing',
      it: 'Non puoi avviare una chat su un tuo annuncio',
    });

    await req('POST', `/api/listings/${listing.id}/status`, seller, { status: 'unavailable' });
    const ciao = { listingId: listing.id, content: 'Ciao' };
    await expectRefusal(t, ['POST', '/api/chats/contact', buyer, ciao], {
      status: 409,
      en: 'This book is no longer available',
      it: 'Questo libro non è più disponibile',
    });

    const unknown = await req('POST', '/api/chats/contact', buyer, {
      listingId: '22222222-2222-4222-8222-222222222222',
      content: 'Ciao',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Book not found');

    const empty = await req('POST', '/api/chats/contact', buyer, {
      listingId: listing.id,
      content: ' ',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ content: 'Write a message before sending' });
    const after = (
      await t.database.query<{ n: number }>('select count(*)::int as n from chat_messages')
    )[0].n;
    expect(after).toBe(before);
  });
});

describe('offers', () => {
  let forSale: { id: string };
  let both: { id: string };
  let tradeOnly: { id: string };
  let buyerRoom: string;
  let rivalRoom: string;

  beforeAll(async () => {
    forSale = await createListing(t, seller, { title: 'Il sentiero dei nidi di ragno', price: 20 });
    both = await createListing(t, seller, {
      title: 'Le città invisibili',
      listingType: 'both',
      price: 12,
      currency: 'GBP',
    });
    tradeOnly = await createListing(t, seller, {
      title: 'Fiabe italiane',
      listingType: 'trade',
      price: undefined,
    });
    buyerRoom = (await contact(buyer, forSale.id)).roomId;
    rivalRoom = (await contact(rival, forSale.id)).roomId;
  });

  it('are made by the buyer, in the listing’s currency, as messages of their own type', async () => {
    const res = await offer(buyer, buyerRoom, both.id, 10.5);
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json().message;
    expect(message).toMatchObject({
      type: 'offer',
      senderId: buyer.id,
      roomId: buyerRoom,
      listing: { id: both.id, title: 'Le città invisibili' },
      offer: {
        listingId: both.id,
        buyerId: buyer.id,
        sellerId: seller.id,
        amount: 10.5,
        currency: 'GBP',
        status: 'pending',
        answeredAt: null,
      },
    });
    const room = (await req('GET', `/api/chats/rooms/${buyerRoom}`, seller)).json();
    expect(room.lastMessage.id).toBe(message.id);
  });

  it('are refused to the seller, on trade-only and unknown listings, and to non-participants', async () => {
    const own = await offer(seller, buyerRoom, forSale.id, 15);
    expect(own.statusCode).toBe(400);
    expect(own.json().error.message).toBe('You cannot make an offer on your own listing');
    const trade = await offer(buyer, buyerRoom, tradeOnly.id, 5);
    expect(trade.statusCode).toBe(400);
    expect(trade.json().error.message).toBe('This book is offered for trade only');
    const tradeIt = await offer(buyer, buyerRoom, tradeOnly.id, 5, 'it');
    expect(tradeIt.json().error.message).toBe('Questo libro è offerto solo in scambio');
    const unknown = await offer(buyer, buyerRoom, '33333333-3333-4333-8333-333333333333', 5);
    expect(unknown.statusCode).toBe(404);
    const intruder = await offer(rival, buyerRoom, forSale.id, 15);
    expect(intruder.statusCode).toBe(403);
    expect(intruder.json().error.message).toBe('Access denied');
    // A room the seller is not in.
    const elsewhere = (await req('POST', '/api/chats/direct', buyer, { userId: rival.id })).json()
      .room.id;
    const noSeller = await offer(buyer, elsewhere, forSale.id, 15);
    expect(noSeller.statusCode).toBe(400);
    expect(noSeller.json().error.message).toBe(
      'The seller of this book is not in this conversation',
    );
    const { n } = (
      await t.database.query<{ n: number }>(
        'select count(*)::int as n from offers where listing_id in ($1, $2)',
        [forSale.id, tradeOnly.id],
      )
    )[0];
    expect(n).toBe(0);
  });

  it('need an amount above 0 with at most two decimals, in both languages', async () => {
    const cases: Array<[unknown, string, string]> = [
      [0, 'The offer must be greater than 0', "L'offerta deve essere maggiore di 0"],
      [-3, 'The offer must be greater than 0', "L'offerta deve essere maggiore di 0"],
      [1.234, 'Use at most two decimals', 'Usa al massimo due decimali'],
      ['dieci', 'Enter an amount', 'Inserisci un importo'],
      [1_000_000, 'The offer is too high', "L'offerta è troppo alta"],
    ];
    for (const [amount, en, it_] of cases) {
      const res = await offer(buyer, buyerRoom, forSale.id, amount);
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.json().error.fields).toEqual({ amount: en });
      const resIt = await offer(buyer, buyerRoom, forSale.id, amount, 'it');
      expect(resIt.json().error.fields).toEqual({ amount: it_ });
    }
  });

  it('one open offer per buyer and listing: a second one, even at the same moment, is 409', async () => {
    const [a, b] = await Promise.all([
      offer(rival, rivalRoom, forSale.id, 14),
      offer(rival, rivalRoom, forSale.id, 15),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json().error.message).toBe('You already have an open offer on this book');
    const again = await offer(rival, rivalRoom, forSale.id, 16, 'it');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe("Hai già un'offerta aperta su questo libro");
  });

  it('only the seller answers; accepting reserves the listing and declines the other open offers', async () => {
    const made = (await offer(buyer, buyerRoom, forSale.id, 18)).json().message;
    const offerId = made.offer.id;
    const byBuyer = await req('POST', `/api/chats/offers/${offerId}/accept`, buyer);
    expect(byBuyer.statusCode).toBe(403);
    expect(byBuyer.json().error.message).toBe('Only the seller can answer this offer');
    const byStranger = await req('POST', `/api/chats/offers/${offerId}/accept`, rival);
    expect(byStranger.statusCode).toBe(403);
    expect(byStranger.json().error.message).toBe('Access denied');
    const declineByBuyer = await req('POST', `/api/chats/offers/${offerId}/decline`, buyer);
    expect(declineByBuyer.statusCode).toBe(403);
    expect(await listingStatus(forSale.id)).toBe('available');

    const accepted = await req('POST', `/api/chats/offers/${offerId}/accept`, seller);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().message).toMatchObject({
      id: made.id,
      offer: { status: 'accepted', amount: 18 },
    });
    expect(accepted.json().message.offer.answeredAt).not.toBeNull();
    expect(await listingStatus(forSale.id)).toBe('reserved');
    const rivals = await t.database.query<{ status: string }>(
      'select status from offers where listing_id = $1 and buyer_id = $2',
      [forSale.id, rival.id],
    );
    expect(rivals.map((o) => o.status)).toEqual(['declined']);

    const late = await offer(rival, rivalRoom, forSale.id, 25);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe('This book is no longer available');
    const twice = await req('POST', `/api/chats/offers/${offerId}/accept`, seller);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe('This offer has already been answered');
    const withdrawLate = await req('POST', `/api/chats/offers/${offerId}/withdraw`, buyer);
    expect(withdrawLate.statusCode).toBe(409);

    // Completing: nobody alone (decision 0083). The chat has no "mark as sold" any more; the
    // seller's word leaves the book reserved, the buyer's completes the sale.
    const dealId = accepted.json().message.offer.dealId;
    expect((await req('POST', `/api/chats/offers/${offerId}/complete`, seller)).statusCode).toBe(
      404,
    );
    const confirm = (who: Member) => req('POST', `/api/deals/${dealId}/meeting/confirm`, who);
    expect((await confirm(rival)).statusCode).toBe(404);
    expect((await confirm(seller)).statusCode).toBe(200);
    expect(await listingStatus(forSale.id)).toBe('reserved');
    const byHand = await req('POST', `/api/listings/${forSale.id}/complete`, seller, {
      kind: 'sale',
      counterpartUsername: 'bruno_buys',
    });
    expect(byHand.statusCode).toBe(409);
    expect(byHand.json().error.message).toBe(
      'This book has an accepted offer: the deal completes in your conversation with the buyer',
    );
    expect((await confirm(buyer)).statusCode).toBe(200);
    expect(await listingStatus(forSale.id)).toBe('sold');
    const [own] = await t.database.query<{ status: string }>(
      'select status from offers where id = $1',
      [offerId],
    );
    expect(own.status).toBe('completed');
    const deals = await t.database.query(
      'select buyer_id, seller_id, kind, status from transactions where listing_id = $1',
      [forSale.id],
    );
    expect(deals).toEqual([
      { buyer_id: buyer.id, seller_id: seller.id, kind: 'sale', status: 'completed' },
    ]);
    const profile = (await req('GET', `/api/users/${seller.id}/profile`)).json();
    // The sale counts; only reviews rate (none yet): no figure.
    expect(profile).toMatchObject({ totalTrades: 1, rating: null, reviewCount: 0 });
    expect((await confirm(seller)).statusCode).toBe(409);
  });

  it('can be declined by the seller and withdrawn by the buyer', async () => {
    const pending = (
      await t.database.query<{ id: string }>(
        "select id from offers where listing_id = $1 and status = 'pending'",
        [both.id],
      )
    )[0].id;
    const byOther = await req('POST', `/api/chats/offers/${pending}/withdraw`, seller);
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().error.message).toBe('Only the buyer can withdraw this offer');
    const declined = await req('POST', `/api/chats/offers/${pending}/decline`, seller);
    expect(declined.json().message.offer.status).toBe('declined');
    expect(await listingStatus(both.id)).toBe('available');

    const next = (await offer(buyer, buyerRoom, both.id, 11)).json().message.offer.id;
    const withdrawn = await req('POST', `/api/chats/offers/${next}/withdraw`, buyer);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().message.offer.status).toBe('withdrawn');
    const unknown = await req(
      'POST',
      '/api/chats/offers/44444444-4444-4444-8444-444444444444/accept',
      seller,
    );
    expect(unknown.statusCode).toBe(403);
  });
});

describe('a listing a moderator hid', () => {
  it('takes no sale offer: 404 as its page answers (platform/reach.ts), nothing stored', async () => {
    const listing = await createListing(t, seller, { title: 'Il sentiero dei nidi di ragno' });
    const { roomId } = (
      await req('POST', '/api/chats/contact', rival, { listingId: listing.id, content: 'Ciao' })
    ).json();
    await t.database.query('update book_listings set hidden_at = now() where id = $1', [
      listing.id,
    ]);
    const res = await offer(rival, roomId, listing.id, 5);
    const page = await req('GET', `/api/listings/${listing.id}`, rival);
    expect([res.statusCode, res.json()], res.body).toEqual([404, page.json()]);
    expect(page.statusCode).toBe(404);
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from offers where listing_id = $1',
      [listing.id],
    );
    expect(n).toBe(0);
  });
});
