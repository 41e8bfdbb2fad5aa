import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createListing } from '../../test/listings';
import { expectRefusal, requester, createMember, type Member } from '../../test/members';

/**
 * Trades through the deal flow (decision 0080): a trade offer of one's own books for the room's
 * listing, accepted into a hand deal, the meeting of 0075, both confirmations -> one trade
 * transaction (issue 33 item 8); cancelling puts every book back.
 */
const HOUR = 60 * 60 * 1000;
let t: TestApp;
let req: ReturnType<typeof requester>;
let owner: Member;
let proposer: Member;
let third: Member;
let clock = Date.parse('2026-11-26T10:00:00Z');

beforeAll(async () => {
  let tick = 0;
  t = await createTestApp({ deps: { now: () => new Date(clock + ++tick) } });
  req = requester(t);
  owner = await createMember(t, { username: 'olivia_owns', displayName: 'Olivia Owns' });
  proposer = await createMember(t, { username: 'piero_swaps', displayName: 'Piero Swaps' });
  third = await createMember(t, { username: 'terzo_t', displayName: 'Terzo Terzi' });
}, 120_000);

const tradeBook = (title: string, over: object = {}) => ({
  title,
  listingType: 'trade',
  price: undefined,
  ...over,
});

/** The owner lists a trade book; the proposer lists `mine` (trade books) and contacts the owner. */
async function setup(mine = 1, over: object = {}) {
  const wanted = await createListing(
    t,
    owner,
    tradeBook(`Il nome della rosa ${Math.random()}`, over),
  );
  const offered: string[] = [];
  for (let i = 0; i < mine; i++)
    offered.push((await createListing(t, proposer, tradeBook(`Le città invisibili ${i}`))).id);
  const contact = await req('POST', '/api/chats/contact', proposer, {
    listingId: wanted.id,
    content: 'Facciamo uno scambio?',
  });
  expect(contact.statusCode, contact.body).toBe(201);
  return { wanted: wanted.id, offered, roomId: contact.json().roomId as string };
}

const propose = (s: { roomId: string; wanted: string }, ids: string[], who = proposer) =>
  req('POST', `/api/chats/rooms/${s.roomId}/trade-offers`, who, {
    listingId: s.wanted,
    offeredListingIds: ids,
  });

const statusOf = async (id: string) =>
  (
    await t.database.query<{ status: string }>('select status from book_listings where id = $1', [
      id,
    ])
  )[0].status;

async function accepted(s: Awaited<ReturnType<typeof setup>>) {
  const made = await propose(s, s.offered);
  expect(made.statusCode, made.body).toBe(201);
  const offerId = made.json().message.offer.id as string;
  const res = await req('POST', `/api/chats/offers/${offerId}/accept`, owner);
  expect(res.statusCode, res.body).toBe(200);
  return { offerId, dealId: res.json().message.offer.dealId as string };
}

describe('proposing a trade', () => {
  it('names the books of both sides, no amount; the owner is told', async () => {
    const s = await setup(2);
    const res = await propose(s, s.offered);
    expect(res.statusCode, res.body).toBe(201);
    const offer = res.json().message.offer;
    expect(offer).toMatchObject({
      kind: 'trade',
      amount: null,
      listingId: s.wanted,
      buyerId: proposer.id,
      sellerId: owner.id,
      status: 'pending',
    });
    expect(offer.offered.map((l: { id: string }) => l.id).sort()).toEqual([...s.offered].sort());
    expect(offer.offered[0]).toMatchObject({ title: 'Le città invisibili 0', status: 'available' });
    const notices = (await req('GET', '/api/notifications', owner)).json().items;
    const notice = notices.find(
      (n: { type: string; data: { listingId?: string } }) =>
        n.type === 'offer.received' && n.data.listingId === s.wanted,
    );
    expect(notice.data).toMatchObject({
      context: 'trade',
      offered: 'Le città invisibili 0, Le città invisibili 1',
    });
    // A second open offer on the same listing by the same member: 409.
    const again = await propose(s, [s.offered[0]]);
    expect(again.statusCode).toBe(409);
  });

  it('anonymous 401; a third member (not in the room) 403 and nothing saved', async () => {
    const s = await setup();
    expect(
      (
        await req('POST', `/api/chats/rooms/${s.roomId}/trade-offers`, undefined, {
          listingId: s.wanted,
          offeredListingIds: s.offered,
        })
      ).statusCode,
    ).toBe(401);
    const mine = await createListing(t, third, tradeBook('Se una notte d’inverno'));
    const res = await propose(s, [mine.id], third);
    expect(res.statusCode).toBe(403);
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from offers where listing_id = $1',
      [s.wanted],
    );
    expect(n).toBe(0);
  });

  it('refuses another member’s book, a sale-only book, an unavailable or hidden one, with the field', async () => {
    const s = await setup();
    const theirs = await createListing(t, third, tradeBook('Il sistema periodico'));
    await expectRefusal(
      t,
      [
        'POST',
        `/api/chats/rooms/${s.roomId}/trade-offers`,
        proposer,
        { listingId: s.wanted, offeredListingIds: [theirs.id] },
      ],
      {
        status: 400,
        en: 'Choose books you have listed yourself',
        it: 'Scegli libri che hai pubblicato tu',
      },
    );
    // The owner's own book offered back to them: not the proposer's.
    expect((await propose(s, [s.wanted])).json().error.fields).toEqual({
      offeredListingIds: 'Choose books you have listed yourself',
    });
    const forSale = await createListing(t, proposer, { title: 'Solo vendita', price: 9 });
    const sale = await propose(s, [forSale.id]);
    expect(sale.statusCode).toBe(400);
    expect(sale.json().error.fields.offeredListingIds).toMatch(/listed for trade/);
    const sold = await createListing(t, proposer, tradeBook('Già scambiato'));
    await t.database.query(`update book_listings set status = 'reserved' where id = $1`, [sold.id]);
    const reserved = await propose(s, [sold.id]);
    expect(reserved.statusCode).toBe(409);
    expect(reserved.json().error.fields.offeredListingIds).toBe(
      'One of the books you offer is no longer available',
    );
    const hidden = await createListing(t, proposer, tradeBook('Nascosto'));
    await t.database.query('update book_listings set hidden_at = now() where id = $1', [hidden.id]);
    expect((await propose(s, [hidden.id])).statusCode).toBe(409);
    // Bad input: no books, too many, repeated, NUL bytes, huge strings: 400, never 500.
    for (const ids of [
      [],
      ['a', 'b', 'c', 'd'],
      [s.offered[0], s.offered[0]],
      ['\u0000'],
      ['x'.repeat(100_000)],
    ]) {
      const res = await propose(s, ids as string[]);
      expect(res.statusCode, res.body).toBe(400);
    }
    expect(
      (await t.database.query('select 1 from offers where listing_id = $1', [s.wanted])).length,
    ).toBe(0);
  });

  it('a listing for sale only is refused (make an offer); a trade listing still refuses sale offers', async () => {
    const forSale = await createListing(t, owner, { title: 'In vendita', price: 10 });
    const contact = await req('POST', '/api/chats/contact', proposer, {
      listingId: forSale.id,
      content: 'Scambio?',
    });
    const mine = await createListing(t, proposer, tradeBook('Mio'));
    const res = await propose({ roomId: contact.json().roomId, wanted: forSale.id }, [mine.id]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.listingId).toBe(
      'This book is for sale only: make an offer instead',
    );
    const s = await setup();
    const sale = await req('POST', `/api/chats/rooms/${s.roomId}/offers`, proposer, {
      listingId: s.wanted,
      amount: 5,
    });
    expect(sale.statusCode).toBe(400);
    // The owner cannot propose a trade for their own listing.
    const own = await createListing(t, owner, tradeBook('Suo'));
    expect((await propose(s, [own.id], owner)).statusCode).toBe(400);
  });

  it('withdraw (proposer) and decline (owner only) as for sale offers', async () => {
    const s = await setup();
    const made = await propose(s, s.offered);
    const id = made.json().message.offer.id;
    expect((await req('POST', `/api/chats/offers/${id}/decline`, proposer)).statusCode).toBe(403);
    expect((await req('POST', `/api/chats/offers/${id}/accept`, proposer)).statusCode).toBe(403);
    expect((await req('POST', `/api/chats/offers/${id}/accept`, third)).statusCode).toBe(403);
    const w = await req('POST', `/api/chats/offers/${id}/withdraw`, proposer);
    expect(w.statusCode).toBe(200);
    expect(w.json().message.offer.status).toBe('withdrawn');
    const again = await propose(s, s.offered);
    const d = await req(
      'POST',
      `/api/chats/offers/${again.json().message.offer.id}/decline`,
      owner,
    );
    expect(d.json().message.offer.status).toBe('declined');
    expect(await statusOf(s.wanted)).toBe('available');
    expect(await statusOf(s.offered[0])).toBe('available');
  });
});

describe('a trade deal', () => {
  it('accepting reserves every book of both sides and opens a hand deal shown as a trade', async () => {
    const s = await setup(2);
    const { dealId } = await accepted(s);
    for (const id of [s.wanted, ...s.offered]) expect(await statusOf(id)).toBe('reserved');
    const deal = (await req('GET', `/api/deals/${dealId}`, proposer)).json().deal;
    expect(deal).toMatchObject({ kind: 'trade', method: 'hand', amount: null, total: 0 });
    const owners = Object.fromEntries(
      deal.listings.map((l: { id: string; ownerId: string }) => [l.id, l.ownerId]),
    );
    expect(owners[s.wanted]).toBe(owner.id);
    expect(owners[s.offered[0]]).toBe(proposer.id);
    expect((await req('GET', `/api/deals/${dealId}`, third)).statusCode).toBe(404);
    const notice = (await req('GET', '/api/notifications', proposer))
      .json()
      .items.find(
        (n: { type: string; data: { listingId?: string } }) =>
          n.type === 'offer.answered' && n.data.listingId === s.wanted,
      );
    expect(notice.data.context).toBe('trade_accepted');
  });

  it('the meeting, both confirmations: one trade transaction (the asked book, the proposer its buyer); every book traded', async () => {
    const s = await setup(1);
    const { dealId } = await accepted(s);
    const at = new Date(clock + 2 * HOUR).toISOString();
    const proposed = await req('POST', `/api/deals/${dealId}/meeting`, owner, {
      place: 'Biblioteca Salaborsa',
      at,
    });
    expect(proposed.statusCode, proposed.body).toBe(200);
    const meetingId = proposed.json().deal.meeting.current.id;
    expect(
      (await req('POST', `/api/deals/${dealId}/meeting/accept`, proposer, { meetingId }))
        .statusCode,
    ).toBe(200);
    expect((await req('POST', `/api/deals/${dealId}/meeting/confirm`, owner)).statusCode).toBe(409);
    clock += 3 * HOUR;
    try {
      expect((await req('POST', `/api/deals/${dealId}/meeting/confirm`, owner)).statusCode).toBe(
        200,
      );
      const done = await req('POST', `/api/deals/${dealId}/meeting/confirm`, proposer);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json().deal.status).toBe('completed');
    } finally {
      clock -= 3 * HOUR;
    }
    // The other side is told in a trade's words ("the books have changed hands").
    const completed = (await req('GET', '/api/notifications', owner))
      .json()
      .items.find(
        (n: { type: string; data: { dealId?: string; context?: string } }) =>
          n.type === 'deal.step' && n.data.dealId === dealId && n.data.context === 'deal_completed',
      );
    expect(completed.data.variant).toBe('trade');
    const txs = await t.database.query<{
      listing_id: string;
      seller_id: string;
      buyer_id: string;
      kind: string;
      status: string;
    }>(
      `select listing_id::text, seller_id, buyer_id, kind, status from transactions where deal_id = $1`,
      [dealId],
    );
    expect(txs).toEqual([
      {
        listing_id: s.wanted,
        seller_id: owner.id,
        buyer_id: proposer.id,
        kind: 'trade',
        status: 'completed',
      },
    ]);
    expect(await statusOf(s.wanted)).toBe('traded');
    expect(await statusOf(s.offered[0])).toBe('traded');
    const profile = (await req('GET', `/api/users/${proposer.id}/profile`)).json();
    expect(profile.totalTrades).toBe(1);
  });

  it('cancelling puts every book back to available', async () => {
    const s = await setup(2);
    const { dealId } = await accepted(s);
    expect((await req('POST', `/api/deals/${dealId}/cancel`, third)).statusCode).toBe(404);
    const res = await req('POST', `/api/deals/${dealId}/cancel`, proposer);
    expect(res.statusCode, res.body).toBe(200);
    for (const id of [s.wanted, ...s.offered]) expect(await statusOf(id)).toBe('available');
  });

  it('a book in two open trade offers, both accepted at once: one wins, the other 409', async () => {
    for (let round = 0; round < 3; round++) {
      const mine = await createListing(t, proposer, tradeBook(`Conteso ${round}`));
      const a = await setup(0);
      const second = await createListing(t, owner, tradeBook(`Altro ${round}`));
      const contact = await req('POST', '/api/chats/contact', proposer, {
        listingId: second.id,
        content: 'E questo?',
      });
      const b = { roomId: contact.json().roomId as string, wanted: second.id };
      const offerA = (await propose(a, [mine.id])).json().message.offer.id;
      const offerB = (await propose(b, [mine.id])).json().message.offer.id;
      const answers = await Promise.all([
        req('POST', `/api/chats/offers/${offerA}/accept`, owner),
        req('POST', `/api/chats/offers/${offerB}/accept`, owner),
      ]);
      expect(
        answers.map((r) => r.statusCode).sort(),
        answers.map((r) => r.body).join('\n'),
      ).toEqual([200, 409]);
      const [{ n }] = await t.database.query<{ n: number }>(
        `select count(*)::int as n from offers o join offer_listings ol on ol.offer_id = o.id
         where ol.listing_id = $1 and o.status = 'accepted'`,
        [mine.id],
      );
      expect(n).toBe(1);
      expect(await statusOf(mine.id)).toBe('reserved');
    }
  });
});

describe('the OpenAPI document', () => {
  it('has the trade offer route with its errors and the trade fields of offers and deals', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    const route = doc.paths['/api/chats/rooms/{roomId}/trade-offers'].post;
    expect(Object.keys(route.responses).sort()).toEqual(['201', '400', '401', '403', '404', '409']);
    expect(JSON.stringify(route.requestBody)).toContain('offeredListingIds');
    expect(JSON.stringify(doc)).toContain('"ownerId"');
  });
});
