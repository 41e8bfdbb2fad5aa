import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { grantAdmin } from '../moderation';
import { createListing } from '../../test/listings';
import { requester, createMember, type Member } from '../../test/members';

/**
 * Who may reach a listing or a seller (issue 32 item 5, platform/reach.ts, decision 0087): a
 * listing hidden by a moderator, a suspended seller and a blocked pair answer every route that
 * acts on a listing exactly as the listing's page answers (404, same code and message), and
 * nothing is created. Tested as an attacker works: a room made before the cut, the ids of another
 * member's listings, a suspended buyer's cookie, races.
 */
let clock = new Date('2026-07-01T10:00:00Z').getTime();
let t: TestApp;
let req: ReturnType<typeof requester>;
let admin: Member;
let buyer: Member;
const reason = { reason: 'Violates the rules on scams (section 2).' };

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => new Date(clock) } });
  req = requester(t);
  [admin, buyer] = await Promise.all([
    createMember(t, { displayName: 'Ada Admin' }),
    createMember(t, { username: 'bruno_reach', displayName: 'Bruno Buyer' }),
  ]);
  expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
}, 120_000);

let n = 0;
/**
 * A seller with three listings for sale or trade, the buyer's own tradeable book and their room
 * (made by contacting the seller before anything is cut off).
 */
async function scene() {
  const seller = await createMember(t, { displayName: `Sara Seller ${++n}` });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++)
    ids.push(
      (await createListing(t, seller, { title: `Libro ${n}.${i}`, listingType: 'both' })).id,
    );
  const own = (await createListing(t, buyer, { title: `Mio ${n}`, listingType: 'both' })).id;
  const contact = await req('POST', '/api/chats/contact', buyer, {
    listingId: ids[2],
    content: 'Ciao!',
  });
  expect(contact.statusCode, contact.body).toBe(201);
  return { seller, ids, own, roomId: contact.json().roomId as string };
}

/** What the attempts could have created: offers, messages, the seller's notifications. */
async function traces(sellerId: string) {
  const [row] = await t.database.query<{ offers: number; messages: number; notices: number }>(
    `select (select count(*)::int from offers where seller_id = $1) as offers,
       (select count(*)::int from chat_messages m join chat_participants p
          on p.room_id = m.room_id and p.user_id = $1) as messages,
       (select count(*)::int from notifications where recipient_id = $1) as notices`,
    [sellerId],
  );
  return row;
}

/** Every route that acts on `listingId` (and its seller), as `who`, in `lang`. */
function attempts(
  who: Member,
  s: { ids: string[]; own: string; roomId: string },
  listingId: string,
  lang = 'en',
) {
  const other = s.ids.find((id) => id !== listingId)!;
  return {
    contact: () => req('POST', '/api/chats/contact', who, { listingId, content: 'Ciao' }, lang),
    offer: () =>
      req('POST', `/api/chats/rooms/${s.roomId}/offers`, who, { listingId, amount: 5 }, lang),
    tradeOffer: () =>
      req(
        'POST',
        `/api/chats/rooms/${s.roomId}/trade-offers`,
        who,
        { listingId, offeredListingIds: [s.own] },
        lang,
      ),
    bundleQuote: () =>
      req('POST', '/api/bundles/quote', who, { listingIds: [listingId, other] }, lang),
    bundleOffer: () =>
      req(
        'POST',
        '/api/chats/bundles',
        who,
        { listingIds: [listingId, other], amount: 15, delivery: 'hand' },
        lang,
      ),
  };
}

/** Every route answers as the listing's page does, in both languages, and creates nothing. */
async function expectAllAsPage(
  s: { seller: Member; ids: string[]; own: string; roomId: string },
  listingId: string,
) {
  const before = await traces(s.seller.id);
  for (const lang of ['en', 'it']) {
    const page = await req('GET', `/api/listings/${listingId}`, buyer, undefined, lang);
    expect(page.statusCode).toBe(404);
    for (const [name, attempt] of Object.entries(attempts(buyer, s, listingId, lang))) {
      const res = await attempt();
      expect([name, res.statusCode, res.json()], res.body).toEqual([name, 404, page.json()]);
    }
  }
  expect(await traces(s.seller.id)).toEqual(before);
}

const suspend = (who: Member) => req('POST', `/api/admin/members/${who.id}/suspend`, admin, reason);
const hide = (listingId: string) =>
  req('POST', `/api/admin/items/listing/${listingId}/hide`, admin, reason);

describe('a listing out of reach answers every route as its page does', () => {
  it('a suspended seller: 404 everywhere, nothing created', async () => {
    const s = await scene();
    expect((await suspend(s.seller)).statusCode).toBe(200);
    await expectAllAsPage(s, s.ids[0]);
  });

  it('a listing hidden by a moderator: 404 everywhere, even beside visible ones', async () => {
    const s = await scene();
    expect((await hide(s.ids[0])).statusCode).toBe(200);
    await expectAllAsPage(s, s.ids[0]);
    // The seller's other books are still offered: the rule is the listing's.
    const ok = await req('POST', `/api/chats/rooms/${s.roomId}/offers`, buyer, {
      listingId: s.ids[1],
      amount: 5,
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('a blocked pair, either way: 404 everywhere, nothing created', async () => {
    const s = await scene();
    expect((await req('PUT', `/api/blocks/${buyer.id}`, s.seller)).statusCode).toBe(200);
    await expectAllAsPage(s, s.ids[0]);
    expect((await req('DELETE', `/api/blocks/${buyer.id}`, s.seller)).statusCode).toBe(200);
    const other = await scene();
    expect((await req('PUT', `/api/blocks/${other.seller.id}`, buyer)).statusCode).toBe(200);
    await expectAllAsPage(other, other.ids[0]);
    expect((await req('DELETE', `/api/blocks/${other.seller.id}`, buyer)).statusCode).toBe(200);
  });

  it('another seller’s hidden listing offered in my room is 404, not "seller not in the room"', async () => {
    const mine = await scene();
    const theirs = await scene();
    expect((await hide(theirs.ids[0])).statusCode).toBe(200);
    const page = await req('GET', `/api/listings/${theirs.ids[0]}`, buyer);
    for (const path of ['offers', 'trade-offers']) {
      const res = await req('POST', `/api/chats/rooms/${mine.roomId}/${path}`, buyer, {
        listingId: theirs.ids[0],
        amount: 5,
        offeredListingIds: [mine.own],
      });
      expect([res.statusCode, res.json()]).toEqual([404, page.json()]);
    }
    // A visible listing of a seller outside the room is still the 400 it was.
    const visible = await req('POST', `/api/chats/rooms/${mine.roomId}/offers`, buyer, {
      listingId: theirs.ids[1],
      amount: 5,
    });
    expect(visible.statusCode).toBe(400);
  });

  it('opening the direct room with a suspended member is 404, as an unknown member', async () => {
    const s = await scene();
    expect((await suspend(s.seller)).statusCode).toBe(200);
    const res = await req('POST', '/api/chats/direct', buyer, { userId: s.seller.id });
    const unknown = await req('POST', '/api/chats/direct', buyer, { userId: 'nobody-at-all' });
    expect([res.statusCode, res.json()]).toEqual([404, unknown.json()]);
  });
});

describe('a suspended buyer cannot act at all', () => {
  it('their cookie stops working: 401 on every route, nothing created', async () => {
    const s = await scene();
    const bad = await createMember(t, { displayName: 'Tino Truffa' });
    const own = (await createListing(t, bad, { title: 'Suo', listingType: 'both' })).id;
    const room = await req('POST', '/api/chats/contact', bad, {
      listingId: s.ids[0],
      content: 'Ciao',
    });
    expect(room.statusCode).toBe(201);
    expect((await suspend(bad)).statusCode).toBe(200);
    const before = await traces(s.seller.id);
    const as = { ...s, own, roomId: room.json().roomId };
    for (const [name, attempt] of Object.entries(attempts(bad, as, s.ids[0])))
      expect([name, (await attempt()).statusCode]).toEqual([name, 401]);
    expect(await traces(s.seller.id)).toEqual(before);
  });
});

describe('races', () => {
  it('suspending the seller while offers are made: each offer is stored before or refused 404', async () => {
    for (let i = 0; i < 3; i++) {
      const s = await scene();
      const [suspended, offer, bundle] = await Promise.all([
        suspend(s.seller),
        req('POST', `/api/chats/rooms/${s.roomId}/offers`, buyer, {
          listingId: s.ids[0],
          amount: 5,
        }),
        req('POST', '/api/chats/bundles', buyer, {
          listingIds: [s.ids[1], s.ids[2]],
          amount: 15,
          delivery: 'hand',
        }),
      ]);
      expect(suspended.statusCode).toBe(200);
      for (const res of [offer, bundle]) expect([201, 404], res.body).toContain(res.statusCode);
      // Whatever was stored was stored before the suspension: afterwards, nothing gets in.
      const stored = (await traces(s.seller.id)).offers;
      expect(stored).toBe([offer, bundle].filter((r) => r.statusCode === 201).length);
      const after = await req('POST', `/api/chats/rooms/${s.roomId}/offers`, buyer, {
        listingId: s.ids[0],
        amount: 6,
      });
      expect(after.statusCode).toBe(404);
      expect((await traces(s.seller.id)).offers).toBe(stored);
    }
  });

  it('hiding the listing while it is offered: stored before or refused 404, never a 500', async () => {
    const s = await scene();
    const [hidden, ...offers] = await Promise.all([
      hide(s.ids[0]),
      ...[5, 6].map((amount) =>
        req('POST', `/api/chats/contact`, buyer, { listingId: s.ids[0], content: `${amount}?` }),
      ),
      req('POST', `/api/chats/rooms/${s.roomId}/offers`, buyer, {
        listingId: s.ids[0],
        amount: 5,
      }),
    ]);
    expect(hidden.statusCode).toBe(200);
    for (const res of offers) expect([201, 404], res.body).toContain(res.statusCode);
    expect((await req('GET', `/api/listings/${s.ids[0]}`, buyer)).statusCode).toBe(404);
  });
});

describe('a seller on holiday takes no offers (decision 0087)', () => {
  const DAY = 24 * 60 * 60 * 1000;

  it('offers, trade offers and bundle offers are 409 naming the last day away; contact still works', async () => {
    const s = await scene();
    const away = await req('PUT', '/api/me/holiday', s.seller, { awayUntil: '2026-07-05' });
    expect(away.statusCode, away.body).toBe(200);
    const before = await traces(s.seller.id);
    const expected = {
      en: 'The seller is on holiday until 07/05/2026: you can make an offer when they are back.',
      it: "Chi vende è in vacanza fino al giorno 05/07/2026: potrai fare un'offerta al suo ritorno.",
    };
    for (const lang of ['en', 'it'] as const) {
      const tries = attempts(buyer, s, s.ids[0], lang);
      for (const name of ['offer', 'tradeOffer', 'bundleOffer'] as const) {
        const res = await tries[name]();
        expect([name, res.statusCode, res.json().error], res.body).toEqual([
          name,
          409,
          { code: 'seller_away', message: expected[lang] },
        ]);
      }
      // The page and the quote still answer (the book page says when the seller is back).
      expect((await req('GET', `/api/listings/${s.ids[0]}`, buyer)).statusCode).toBe(200);
      expect((await tries.bundleQuote()).statusCode).toBe(200);
    }
    expect(await traces(s.seller.id)).toEqual(before);

    // A question can still be asked: the holiday's automatic reply says when they are back.
    const asked = await req('POST', '/api/chats/contact', buyer, {
      listingId: s.ids[0],
      content: 'Quando torni?',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const page = (await req('GET', `/api/chats/rooms/${s.roomId}/messages`, buyer)).json();
    expect(page.items.at(-1)).toMatchObject({ type: 'system', content: 'holiday|2026-07-05|' });
    expect((await traces(s.seller.id)).offers).toBe(0);

    // Back on the day after the last day away: offers are taken again.
    clock += 5 * DAY;
    const back = await req('POST', `/api/chats/rooms/${s.roomId}/offers`, buyer, {
      listingId: s.ids[0],
      amount: 5,
    });
    expect(back.statusCode, back.body).toBe(201);
  });

  it('going on holiday while an offer is made: stored before or refused 409', async () => {
    const s = await scene();
    const until = new Date(clock + 3 * DAY).toISOString().slice(0, 10);
    const [away, offer] = await Promise.all([
      req('PUT', '/api/me/holiday', s.seller, { awayUntil: until }),
      req('POST', `/api/chats/rooms/${s.roomId}/offers`, buyer, {
        listingId: s.ids[0],
        amount: 5,
      }),
    ]);
    expect(away.statusCode).toBe(200);
    expect([201, 409], offer.body).toContain(offer.statusCode);
    const after = await req('POST', `/api/chats/rooms/${s.roomId}/offers`, buyer, {
      listingId: s.ids[1],
      amount: 5,
    });
    expect(after.statusCode).toBe(409);
    await req('DELETE', '/api/me/holiday', s.seller);
  });
});
