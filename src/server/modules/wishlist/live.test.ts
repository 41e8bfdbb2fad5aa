import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../platform/mail';
import { createRealtime } from '../../platform/realtime';
import { mustOpen, wait, type TestSocket } from '../../platform/realtime/testing';
import { notificationText, type NotificationService } from '../../platform/notifications';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../../test/app';
import { createTestNotifications } from '../../test/notifications';
import { offerFrom } from '../../test/deals';
import { requester, callAs, createMember, type Member } from '../../test/members';
import { grantAdmin } from '../moderation';
import { wishlistAlertsSettled } from './alerts';
import { wishlistSteps } from './steps.fixture';

/**
 * What the wishers read and see, over the real realtime service and real sockets: a trade match
 * names both books (in the bell and in the e-mail digest, in each reader's language), and the
 * wishlist's "available now" follows a listing of a wished book live.
 */
const ORIGIN = 'http://localhost:3000';
let t: TestApp;
let base: string;
let notifications: NotificationService;
let clock = new Date('2026-06-01T08:00:00Z');
let ada: Member;
let bruno: Member;
let carla: Member;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  const database = await createTestDatabase();
  const realtime = createRealtime({ database, trustedOrigins: testConfig().trustedOrigins });
  const mailer = createMailer({ database, from: 'Scaffale <no-reply@scaffale.local>' });
  notifications = createTestNotifications({ database, realtime, mailer, now: () => clock });
  t = await createTestApp({ database, deps: { realtime, mailer, notifications } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [ada, bruno, carla] = await Promise.all([
    createMember(t, { username: 'ada_live', displayName: 'Ada Live' }),
    createMember(t, { username: 'bruno_live', displayName: 'Bruno Live' }),
    createMember(t, { username: 'carla_live', displayName: 'Carla Live' }),
  ]);
}, 120_000);

afterAll(() => sockets.forEach((s) => s.ws.close()));

beforeEach(async () => {
  await wishlistAlertsSettled();
  for (const table of ['notifications', 'notification_digests', 'mail_outbox', 'wishlist_items'])
    await t.database.query(`delete from ${table}`);
  await t.database.query('delete from book_listings');
  clock = new Date(clock.getTime() + 2 * 3600_000);
});

const call = callAs(() => t);
const { wish, listForTrade } = wishlistSteps(call);

async function book(title: string, author: string) {
  const [row] = await t.database.query<{ id: string }>(
    'insert into books (title, author) values ($1, $2) returning id',
    [title, author],
  );
  return row.id;
}
async function open(who: Member) {
  const socket = await mustOpen(base, { cookie: who.cookie, origin: ORIGIN });
  sockets.push(socket);
  return socket;
}
const availability = (s: TestSocket) => s.frames.filter((f) => f.type === 'wishlist.availability');

describe('a trade match names both books', () => {
  it('in the bell and in the e-mail digest, each from its reader’s side and in their language', async () => {
    await t.database.query(`update users set preferred_language = 'it' where id = $1`, [bruno.id]);
    await t.database.query(`update users set preferred_language = 'en' where id = $1`, [ada.id]);
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    const gattopardo = await book('Il Gattopardo', 'Giuseppe Tomasi di Lampedusa');
    await wish(ada, rosa);
    await wish(bruno, gattopardo);
    await listForTrade(ada, gattopardo, 'Il Gattopardo', 'Giuseppe Tomasi di Lampedusa');
    await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    await wishlistAlertsSettled();

    const match = async (who: Member) => {
      const [n] = (await notifications.list(who.id)).items.filter((i) => i.type === 'trade.match');
      return n;
    };
    const adas = await match(ada);
    const brunos = await match(bruno);
    expect(adas.link).toBe(`/profile/${ada.id}/trades`);
    const words = (n: typeof adas, lang: 'it' | 'en') =>
      notificationText(lang, {
        type: n.type,
        actorName: n.actor?.displayName ?? null,
        actorCount: n.actorCount,
        data: n.data,
      });
    expect(words(adas, 'en')).toBe(
      'Bruno Live has “Il nome della rosa”, which you wish, and wishes your “Il Gattopardo”: you can trade',
    );
    expect(words(brunos, 'it')).toBe(
      'Ada Live ha «Il Gattopardo», che desideri, e desidera il tuo «Il nome della rosa»: potete fare uno scambio',
    );
    expect(words(brunos, 'en')).toBe(
      'Ada Live has “Il Gattopardo”, which you wish, and wishes your “Il nome della rosa”: you can trade',
    );

    clock = new Date(clock.getTime() + 60_000);
    await notifications.runDigests();
    const mail = async (who: Member) =>
      (
        await t.database.query<{ text: string }>(
          'select text from mail_outbox where "to" = $1 order by id',
          [who.email],
        )
      )
        .map((m) => m.text)
        .join('\n');
    expect(await mail(ada)).toContain(
      'Bruno Live has “Il nome della rosa”, which you wish, and wishes your “Il Gattopardo”: you can trade',
    );
    expect(await mail(bruno)).toContain(
      'Ada Live ha «Il Gattopardo», che desideri, e desidera il tuo «Il nome della rosa»: potete fare uno scambio',
    );
  });

  it('an older match stored with one title still reads as before', () => {
    expect(
      notificationText('en', {
        type: 'trade.match',
        actorName: 'Bruno',
        actorCount: 1,
        data: { title: 'Il nome della rosa', home: 'x' },
      }),
    ).toBe(
      'You and Bruno can trade books: each of you lists one the other wishes (“Il nome della rosa”)',
    );
  });
});

describe('a wished work (issue 35)', () => {
  it('a copy of another edition is live on the wishlist, in the bell and in the digest', async () => {
    const [{ id: work }] = await t.database.query<{ id: string }>(
      `insert into works (author) values ('Lev Tolstoj') returning id`,
    );
    await t.database.query(
      `insert into work_titles (work_id, language, title)
       values ($1, 'it', 'Guerra e pace'), ($1, 'en', 'War and Peace')`,
      [work],
    );
    await t.database.query(`update users set preferred_language = 'en' where id = $1`, [ada.id]);
    const wished = await call(ada, 'POST', '/api/me/wishlist/items', { workId: work });
    expect(wished.statusCode, wished.body).toBe(201);
    const adaTab = await open(ada);
    const carlaTab = await open(carla); // wishes nothing: hears nothing
    const res = await call(bruno, 'POST', '/api/listings', {
      mode: 'full',
      title: 'War and Peace',
      author: 'Lev Tolstoj',
      genre: 'fiction',
      listingType: 'sell',
      price: 9,
      language: 'English',
      description: 'Penguin Classics, read once.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const listing = res.json().id as string;
    await wishlistAlertsSettled();
    expect(await adaTab.next((f) => f.type === 'wishlist.availability')).toEqual({
      type: 'wishlist.availability',
      listingId: listing,
      available: true,
    });
    const [bell] = (await notifications.list(ada.id)).items;
    expect(bell).toMatchObject({ type: 'wishlist.listed', link: `/library/book/${listing}` });
    clock = new Date(clock.getTime() + 60_000);
    await notifications.runDigests();
    const [mail] = await t.database.query<{ text: string }>(
      'select text from mail_outbox where "to" = $1',
      [ada.email],
    );
    expect(mail?.text).toContain('Bruno Live listed “War and Peace”');
    await wait(100);
    expect(availability(carlaTab)).toEqual([]);
  });
});

describe("the wishlist's available now, live", () => {
  it('tells the wishers (only them) when a wished book is listed, reserved, relisted, sold and deleted', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    await wish(ada, rosa);
    const adaTab = await open(ada);
    const carlaTab = await open(carla); // wishes nothing: hears nothing
    const brunoTab = await open(bruno); // the seller

    const listing = await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    expect(await adaTab.next((f) => f.type === 'wishlist.availability')).toEqual({
      type: 'wishlist.availability',
      listingId: listing,
      available: true,
    });
    // The wishlist now says available, as the event promised.
    const page = (await call(ada, 'GET', `/api/users/${ada.id}/wishlist`)).json();
    expect(page.items[0]).toMatchObject({ availableListings: 1, newestListingId: listing });

    const steps: Array<[string, Record<string, unknown> | undefined, boolean]> = [
      [`/api/listings/${listing}/status`, { status: 'reserved' }, false],
      [`/api/listings/${listing}/status`, { status: 'available' }, true],
      [`/api/listings/${listing}/status`, { status: 'sold' }, false],
    ];
    let seen = 1;
    for (const [url, body, available] of steps) {
      const res = await call(bruno, 'POST', url, body);
      expect(res.statusCode, res.body).toBe(200);
      await wishlistAlertsSettled();
      await adaTab.next(() => availability(adaTab).length > seen);
      expect(availability(adaTab).at(-1)).toEqual({
        type: 'wishlist.availability',
        listingId: listing,
        available,
      });
      seen++;
    }

    // Another member cannot change it: refused, and nobody is told anything.
    const other = await call(carla, 'POST', `/api/listings/${listing}/status`, {
      status: 'available',
    });
    expect([403, 404]).toContain(other.statusCode);
    const otherDelete = await call(carla, 'DELETE', `/api/listings/${listing}`);
    expect([403, 404]).toContain(otherDelete.statusCode);
    await wishlistAlertsSettled();

    expect((await call(bruno, 'DELETE', `/api/listings/${listing}`)).statusCode).toBe(204);
    await wishlistAlertsSettled();
    await adaTab.next(() => availability(adaTab).length > seen);
    expect(availability(adaTab)).toHaveLength(seen + 1);
    expect(availability(adaTab).at(-1)).toEqual({
      type: 'wishlist.availability',
      listingId: listing,
      available: false,
    });
    await wait(100);
    expect(availability(carlaTab)).toEqual([]);
    expect(availability(brunoTab)).toEqual([]);
    const after = (await call(ada, 'GET', `/api/users/${ada.id}/wishlist`)).json();
    expect(after.items[0]).toMatchObject({ availableListings: 0, newestListingId: null });
  });

  it('a moderator hiding the listing, and restoring it, tells the wishers', async () => {
    const admin = await createMember(t, { displayName: 'Ada Admin' });
    expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    await wish(ada, rosa);
    const listing = await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    await wishlistAlertsSettled();
    const adaTab = await open(ada);
    const carlaTab = await open(carla); // wishes nothing: hears nothing
    const reason = { reason: 'Counterfeit.' };
    const hide = await call(admin, 'POST', `/api/admin/items/listing/${listing}/hide`, reason);
    expect(hide.statusCode, hide.body).toBe(200);
    expect(await adaTab.next((f) => f.type === 'wishlist.availability')).toEqual({
      type: 'wishlist.availability',
      listingId: listing,
      available: false,
    });
    const hidden = (await call(ada, 'GET', `/api/users/${ada.id}/wishlist`)).json();
    expect(hidden.items[0]).toMatchObject({ availableListings: 0 });

    const back = await call(admin, 'POST', `/api/admin/items/listing/${listing}/restore`, reason);
    expect(back.statusCode, back.body).toBe(200);
    await adaTab.next(() => availability(adaTab).length > 1);
    expect(availability(adaTab).at(-1)).toMatchObject({ listingId: listing, available: true });
    await wait(100);
    expect(availability(carlaTab)).toEqual([]);
  });

  it('an edit that makes it another book tells the wishers of both', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    const gattopardo = await book('Il Gattopardo', 'Giuseppe Tomasi di Lampedusa');
    await wish(ada, rosa);
    await wish(carla, gattopardo);
    const listing = await listForTrade(bruno, rosa, 'Il nome della rosa', 'Umberto Eco');
    await wishlistAlertsSettled();
    const adaTab = await open(ada);
    const carlaTab = await open(carla);
    const edited = await call(bruno, 'PATCH', `/api/listings/${listing}`, {
      title: 'Il Gattopardo',
      author: 'Giuseppe Tomasi di Lampedusa',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const event = { type: 'wishlist.availability', listingId: listing, available: true };
    expect(await carlaTab.next((f) => f.type === 'wishlist.availability')).toEqual(event);
    expect(await adaTab.next((f) => f.type === 'wishlist.availability')).toEqual(event);

    // Another member's edit is refused and tells no one.
    const before = availability(carlaTab).length;
    const refused = await call(ada, 'PATCH', `/api/listings/${listing}`, { title: 'Altro' });
    expect(refused.statusCode).toBe(404);
    await wishlistAlertsSettled();
    await wait(100);
    expect(availability(carlaTab)).toHaveLength(before);
  });

  it('an offer accepted (reserved), its deal cancelled (available) and completed (sold) tell the wishers', async () => {
    const rosa = await book('Il nome della rosa', 'Umberto Eco');
    await wish(ada, rosa);
    const res = await call(bruno, 'POST', '/api/listings', {
      mode: 'full',
      title: 'Il nome della rosa',
      author: 'Umberto Eco',
      genre: 'fiction',
      condition: 'good',
      listingType: 'sell',
      price: 12,
      currency: 'EUR',
      description: 'Come nuovo',
    });
    expect(res.statusCode, res.body).toBe(201);
    const listing = res.json().id as string;
    await wishlistAlertsSettled();
    const adaTab = await open(ada);
    const offer = await offerFrom(t, carla, listing, 10);
    const req = requester(t);
    let dealId = '';
    const answer = async (step: () => Promise<{ statusCode: number; body: string }>) => {
      const seen = availability(adaTab).length;
      const r = await step();
      expect(r.statusCode, r.body).toBe(200);
      await adaTab.next(() => availability(adaTab).length > seen);
      return availability(adaTab).at(-1);
    };
    const unavailable = { type: 'wishlist.availability', listingId: listing, available: false };
    const accept = async () => {
      const r = await req('POST', `/api/chats/offers/${offer}/accept`, bruno);
      dealId = r.json().message.offer.dealId;
      return r;
    };
    expect(await answer(accept)).toEqual(unavailable);
    expect(await answer(() => req('POST', `/api/deals/${dealId}/cancel`, carla))).toEqual({
      ...unavailable,
      available: true,
    });
    const again = await offerFrom(t, carla, listing, 11);
    expect(
      await answer(async () => {
        const r = await req('POST', `/api/chats/offers/${again}/accept`, bruno);
        dealId = r.json().message.offer.dealId;
        return r;
      }),
    ).toEqual(unavailable);
    // Both confirm the exchange (decision 0083): the second completes the sale.
    await req('POST', `/api/deals/${dealId}/meeting/confirm`, bruno);
    expect(await answer(() => req('POST', `/api/deals/${dealId}/meeting/confirm`, carla))).toEqual(
      unavailable,
    );
  });
});
