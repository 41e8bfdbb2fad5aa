import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { callAs, createMember, type Member } from '../../test/members';
import type { Notifications, NotifyInput } from '../../platform/notifications/types';
import { createWishlistAlerts, wishlistAlertsSettled } from './alerts';
import { PAIRS_SQL, WISHERS_SQL } from './queries';
import { wishlistSteps } from './steps.fixture';

/** A notification service that records what it was asked to send. */
const sent: NotifyInput[] = [];
const recording: Notifications = {
  defineType() {},
  async notify(input) {
    sent.push(...(Array.isArray(input) ? input : [input as NotifyInput]));
  },
  async removeForSubject() {},
  async forgetBetween() {},
  emailWanted: async () => false,
};

let t: TestApp;
let ada: Member;
let bruno: Member;
let carla: Member;
let alerts: ReturnType<typeof createWishlistAlerts>;

beforeAll(async () => {
  t = await createTestApp({
    config: { dataDir: mkdtempSync(join(tmpdir(), 'scaffale-wish-alerts-')) },
  });
  [ada, bruno, carla] = await Promise.all([
    createMember(t, { username: 'ada_alerts', displayName: 'Ada Alerts' }),
    createMember(t, { username: 'bruno_alerts', displayName: 'Bruno Alerts' }),
    createMember(t, { username: 'carla_alerts', displayName: 'Carla Alerts' }),
  ]);
  alerts = createWishlistAlerts({
    database: t.database,
    notifications: recording,
    log: { warn: () => {} },
  });
});

beforeEach(async () => {
  await wishlistAlertsSettled();
  await t.database.query('delete from wishlist_items');
  await t.database.query('delete from book_listings');
  sent.length = 0;
});

const call = callAs(() => t);
const { wish, listForTrade } = wishlistSteps(call);

async function book(title: string, author: string, isbn13: string | null = null) {
  const [row] = await t.database.query<{ id: string }>(
    'insert into books (title, author, isbn_13) values ($1, $2, $3) returning id',
    [title, author, isbn13],
  );
  return row.id;
}
async function listForSale(who: Member, title: string, author: string, isbn?: string) {
  const res = await call(who, 'POST', '/api/listings', {
    mode: 'full',
    title,
    author,
    genre: 'fiction',
    listingType: 'sell',
    price: 8,
    description: 'Buone condizioni',
    ...(isbn ? { isbn } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
const ofType = (type: string) => sent.filter((n) => n.type === type);
/**
 * A two-way trade: Ada wishes Il nome della rosa and lists Il Gattopardo for trade, Bruno the
 * other way round. Answers Bruno's listing.
 */
async function twoWayTrade() {
  const rosa = await book('Il nome della rosa', 'Umberto Eco');
  const gattopardo = await book('Il Gattopardo', 'Giuseppe Tomasi di Lampedusa');
  await wish(ada, rosa);
  await wish(bruno, gattopardo);
  await listForTrade(ada, gattopardo, 'Il Gattopardo', 'Giuseppe Tomasi di Lampedusa');
  // Ada's alerts are stored before Bruno lists (as seconds apart would): announced while Bruno's
  // listing exists, Ada's own would also find the pair and tell both of it a second time.
  await wishlistAlertsSettled();
  return listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
}

describe('wished book listed', () => {
  it('tells each wisher once, with the listing as subject and key, never the seller', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco', '9788845292613');
    await wish(ada, rosa);
    await wish(carla, rosa);
    await wish(bruno, rosa); // the seller wishes it too: not told of his own listing
    const listing = await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    await alerts.listingAvailable(listing);
    const listed = ofType('wishlist.listed');
    expect(listed.map((n) => n.recipientId).sort()).toEqual([ada.id, carla.id].sort());
    for (const n of listed) {
      expect(n).toMatchObject({
        actorId: bruno.id,
        subject: { type: 'listing', id: listing },
        onceKey: listing,
        data: { title: 'Il nome della rosa' },
      });
    }
  });

  it('matches the same ISBN, and the same title and author written differently', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco', '9788845292613');
    await wish(ada, rosa);
    const byIsbn = await listForSale(bruno, 'The Name of the Rose', 'U. Eco', '9788845292613');
    await alerts.listingAvailable(byIsbn);
    const byTitle = await listForSale(carla, 'IL NOME DELLA ROSA', 'umberto eco');
    await alerts.listingAvailable(byTitle);
    const other = await listForSale(carla, 'Il pendolo di Foucault', 'Umberto Eco');
    await alerts.listingAvailable(other);
    expect(ofType('wishlist.listed').map((n) => n.onceKey)).toEqual([byIsbn, byTitle]);
  });

  it('says nothing about a listing that is not available', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    await wish(ada, rosa);
    const listing = await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    await call(bruno, 'POST', `/api/listings/${listing}/status`, { status: 'reserved' });
    await alerts.listingAvailable(listing);
    expect(sent).toEqual([]);
  });

  it('relisting repeats the same once-key (the service keeps one per wisher and listing)', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    await wish(ada, rosa);
    const listing = await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    await alerts.listingAvailable(listing);
    await alerts.listingAvailable(listing);
    expect(
      new Set(ofType('wishlist.listed').map((n) => `${n.recipientId}:${n.onceKey}`)).size,
    ).toBe(1);
  });
});

describe('through the listings routes and the notification centre', () => {
  // The listings routes answer first and store the alerts right after.
  const rowsOf = async (who: Member) => {
    await wishlistAlertsSettled();
    return t.database.query<{ type: string; subject_id: string; actor_id: string; data: object }>(
      'select type, subject_id, actor_id, data from notifications where recipient_id = $1',
      [who.id],
    );
  };
  beforeEach(() => t.database.query('delete from notifications'));

  it('a new listing notifies the wisher once: editing and relisting repeat nothing', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    await wish(ada, rosa);
    await wish(bruno, rosa);
    const listing = await listForSale(bruno, 'Il nome della rosa', 'Umberto Eco');
    expect(await rowsOf(ada)).toEqual([
      {
        type: 'wishlist.listed',
        subject_id: listing,
        actor_id: bruno.id,
        data: { title: 'Il nome della rosa' },
      },
    ]);
    expect(await rowsOf(bruno)).toEqual([]);
    const edited = await call(bruno, 'PATCH', `/api/listings/${listing}`, {
      title: 'Il nome della rosa',
      author: 'Umberto Eco',
      genre: 'fiction',
      listingType: 'sell',
      price: 7,
      description: 'Prezzo ribassato',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await call(bruno, 'POST', `/api/listings/${listing}/status`, { status: 'reserved' });
    const relisted = await call(bruno, 'POST', `/api/listings/${listing}/status`, {
      status: 'available',
    });
    expect(relisted.statusCode).toBe(200);
    expect(await rowsOf(ada)).toHaveLength(1);
  });

  it('relisting tells a member who wished the book while it was away', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    const listing = await listForSale(bruno, 'Il nome della rosa', 'Umberto Eco');
    await call(bruno, 'POST', `/api/listings/${listing}/status`, { status: 'reserved' });
    await wish(carla, rosa);
    expect(await rowsOf(carla)).toEqual([]);
    await call(bruno, 'POST', `/api/listings/${listing}/status`, { status: 'available' });
    expect((await rowsOf(carla)).map((r) => r.subject_id)).toEqual([listing]);
  });

  it('deleting the listing deletes its notifications', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    await wish(ada, rosa);
    const listing = await listForSale(bruno, 'Il nome della rosa', 'Umberto Eco');
    expect(await rowsOf(ada)).toHaveLength(1);
    expect((await call(bruno, 'DELETE', `/api/listings/${listing}`)).statusCode).toBe(204);
    expect(await rowsOf(ada)).toEqual([]);
  });

  it('two members who each list for trade what the other wishes are both told', async () => {
    const brunos = await twoWayTrade();
    const adas = await rowsOf(ada);
    expect(adas.map((r) => r.type).sort()).toEqual(['trade.match', 'wishlist.listed']);
    expect(adas.find((r) => r.type === 'trade.match')).toMatchObject({
      subject_id: brunos,
      actor_id: bruno.id,
      data: {
        title: 'Il nome della rosa',
        wanted: 'Il nome della rosa',
        offered: 'Il Gattopardo',
        home: ada.id,
        context: 'books',
      },
    });
    const brunoRows = await rowsOf(bruno);
    expect(brunoRows.map((r) => r.type)).toEqual(['wishlist.listed', 'trade.match']);
  });
});

describe('trade matches', () => {
  it('a listing that makes a new two-way trade tells both members; a second one does not', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    const gattopardo = await book('Il Gattopardo', 'Giuseppe Tomasi di Lampedusa');
    await wish(ada, rosa);
    await wish(bruno, gattopardo);
    const adas = await listForTrade(
      ada,
      gattopardo,
      'Il Gattopardo',
      'Giuseppe Tomasi di Lampedusa',
    );
    await alerts.listingAvailable(adas);
    expect(ofType('trade.match')).toEqual([]); // Bruno lists nothing Ada wishes yet
    sent.length = 0;
    const brunos = await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    await alerts.listingAvailable(brunos);
    const matches = ofType('trade.match');
    const key = `${[ada.id, bruno.id].sort().join(':')}:${brunos}`;
    expect(matches).toEqual([
      {
        recipientId: ada.id,
        type: 'trade.match',
        actorId: bruno.id,
        subject: { type: 'listing', id: brunos },
        onceKey: key,
        // Both books, each from its reader's side: the one they wish, the one of theirs wished.
        data: {
          title: 'Il nome della rosa',
          wanted: 'Il nome della rosa',
          offered: 'Il Gattopardo',
          home: ada.id,
          context: 'books',
        },
      },
      {
        recipientId: bruno.id,
        type: 'trade.match',
        actorId: ada.id,
        subject: { type: 'listing', id: brunos },
        onceKey: key,
        data: {
          title: 'Il nome della rosa',
          wanted: 'Il Gattopardo',
          offered: 'Il nome della rosa',
          home: bruno.id,
          context: 'books',
        },
      },
    ]);
    // Another copy from Bruno: the match already existed.
    sent.length = 0;
    const again = await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    await alerts.listingAvailable(again);
    expect(ofType('wishlist.listed')).toHaveLength(1);
    expect(ofType('trade.match')).toEqual([]);
  });

  it('the trade-matches page lists both sides, best matches first, paged, owner only', async () => {
    const [rosa, gattopardo, pendolo, baudolino] = await Promise.all([
      book('Il nome della rosa', 'Umberto Eco'),
      book('Il Gattopardo', 'Giuseppe Tomasi di Lampedusa'),
      book('Il pendolo di Foucault', 'Umberto Eco'),
      book('Baudolino', 'Umberto Eco'),
    ]);
    await wish(ada, rosa);
    await wish(ada, pendolo);
    await wish(bruno, gattopardo);
    await wish(carla, gattopardo);
    await listForTrade(ada, gattopardo, 'Il Gattopardo', 'Giuseppe Tomasi di Lampedusa');
    // Carla offers one wished book, Bruno two: Bruno comes first.
    await listForTrade(carla, rosa, 'Il nome della rosa', 'Umberto Eco');
    await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    await listForTrade(bruno, pendolo, 'Il pendolo di Foucault', 'Umberto Eco');
    // For sale only, or not wished: no match.
    await listForSale(bruno, 'Baudolino', 'Umberto Eco');
    await listForTrade(carla, baudolino, 'Baudolino', 'Umberto Eco');

    const res = await call(ada, 'GET', '/api/me/trade-matches');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    expect(body.items.map((m: { member: { id: string } }) => m.member.id)).toEqual([
      bruno.id,
      carla.id,
    ]);
    const [first] = body.items;
    expect(first.member).toMatchObject({ displayName: 'Bruno Alerts', username: 'bruno_alerts' });
    expect(first.theirCount).toBe(2);
    expect(first.theirBooks.map((b: { title: string }) => b.title)).toEqual([
      'Il pendolo di Foucault',
      'Il nome della rosa',
    ]);
    expect(first.myCount).toBe(1);
    expect(first.myBooks.map((b: { title: string }) => b.title)).toEqual(['Il Gattopardo']);

    // Bruno sees Ada (and not Carla: she lists nothing Bruno wishes).
    const brunos = (await call(bruno, 'GET', '/api/me/trade-matches')).json();
    expect(brunos.items.map((m: { member: { id: string } }) => m.member.id)).toEqual([ada.id]);

    const second = (await call(ada, 'GET', '/api/me/trade-matches?page=2')).json();
    expect(second).toMatchObject({ items: [], total: 2, page: 2 });
    const visitor = await t.inject({ method: 'GET', url: '/api/me/trade-matches' });
    expect(visitor.statusCode).toBe(401);
  });

  it('a reserved listing ends the match', async () => {
    const brunos = await twoWayTrade();
    expect((await call(ada, 'GET', '/api/me/trade-matches')).json().total).toBe(1);
    await call(bruno, 'POST', `/api/listings/${brunos}/status`, { status: 'reserved' });
    expect((await call(ada, 'GET', '/api/me/trade-matches')).json().total).toBe(0);
  });

  it('a listing hidden by a moderator, or a suspended member, ends the match and tells no one', async () => {
    const brunos = await twoWayTrade();
    expect((await call(ada, 'GET', '/api/me/trade-matches')).json().total).toBe(1);
    try {
      await t.database.query('update book_listings set hidden_at = now() where id = $1', [brunos]);
      expect((await call(ada, 'GET', '/api/me/trade-matches')).json().total).toBe(0);
      sent.length = 0;
      await alerts.listingAvailable(brunos);
      expect(sent).toEqual([]);
      await t.database.query('update book_listings set hidden_at = null where id = $1', [brunos]);
      expect((await call(ada, 'GET', '/api/me/trade-matches')).json().total).toBe(1);
      // A suspended wisher is told nothing and is no one's match.
      await t.database.query(`update users set account_status = 'suspended' where id = $1`, [
        ada.id,
      ]);
      expect((await call(bruno, 'GET', '/api/me/trade-matches')).json().total).toBe(0);
      sent.length = 0;
      await alerts.listingAvailable(brunos);
      expect(sent.filter((n) => n.recipientId === ada.id)).toEqual([]);
    } finally {
      await t.database.query(`update users set account_status = 'active' where id = $1`, [ada.id]);
    }
  });
});

describe('matching runs on indexes', () => {
  it('EXPLAIN shows index scans, not a scan of every wishlist item', async () => {
    // Many wishes of other books, so that the planner's choice means something.
    const [list] = await t.database.query<{ id: string }>(
      `insert into wishlists (user_id) values ($1)
       on conflict (user_id) where is_default do update set name = excluded.name returning id`,
      [carla.id],
    );
    await t.database.query(
      `with b as (
         insert into books (title, author, isbn_13)
         select 'Bench ' || g, 'Author ' || g, (9790000000000 + g)::text
         from generate_series(1, 5000) g returning id, title, author, isbn_13)
       insert into wishlist_items (wishlist_id, user_id, book_id, title, author, isbn_13)
       select $1, $2, id, title, author, isbn_13 from b`,
      [list.id, carla.id],
    );
    await t.database.query('analyze wishlist_items');
    await t.database.query('analyze book_listings');
    const rosa = await book('Il nome della rosa', 'Umberto Eco', '9788845292613');
    const listing = await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    const plan = (
      await t.database.query<{ 'QUERY PLAN': string }>(`explain ${WISHERS_SQL}`, [listing])
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).not.toMatch(/Seq Scan on wishlist_items/);
    expect(plan).toMatch(/wishlist_items_book_idx/);
    expect(plan).toMatch(/wishlist_items_isbn13_idx/);
    expect(plan).toMatch(/wishlist_items_key_idx/);

    // The trade matches of Bruno: his trade listings reach the wishers on the same indexes.
    const pairs = (
      await t.database.query<{ 'QUERY PLAN': string }>(`explain ${PAIRS_SQL}`, [bruno.id, null])
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(pairs).not.toMatch(/Seq Scan on wishlist_items/);
    expect(pairs).toMatch(/wishlist_items_book_idx/);
  });
});
