import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/app';
import { createListingChanges, type ListingChanges } from '../../platform/listing-changes';
import { callAs, createMember, type Member } from '../../test/members';
import { recordUserPushes } from '../../test/notifications';
import { gattopardo } from '../../test/listings';
import { WATCHES_MAX, WATCHES_PAGE_SIZE } from '@shared/schemas/watching';

/**
 * Watched listings (docs/watching.md): who may watch what, the list, the seller's count, and what
 * a watcher is told, live, when the listing's price drops, it is reserved, sold or available again.
 */
let t: TestApp;
let changes: ListingChanges;
let seller: Member;
let watcher: Member;
let other: Member;
const { realtime, pushed } = recordUserPushes((e) => e.type === 'notification.new');
const call = callAs(() => t);

beforeAll(async () => {
  const database = await createTestDatabase();
  changes = createListingChanges({ query: (q, p) => database.query(q, p), log: console });
  t = await createTestApp({ database, deps: { realtime, listingChanges: changes } });
  [seller, watcher, other] = await Promise.all([
    createMember(t, { username: 'seller_w', displayName: 'Sara Seller' }),
    createMember(t, { username: 'watcher_w', displayName: 'Walter Watcher' }),
    createMember(t, { username: 'other_w', displayName: 'Otto Other' }),
  ]);
}, 60_000);

beforeEach(async () => {
  await changes.settled();
  await t.database.query('delete from notifications');
  await t.database.query('delete from blocks');
  pushed.length = 0;
});

async function list(who: Member = seller, body: object = gattopardo): Promise<string> {
  const res = await call(who, 'POST', '/api/listings', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}
const watch = (who: Member | null, id: string, lang = 'en') =>
  call(who, 'PUT', `/api/me/watches/${id}`, undefined, lang);
const settle = () => changes.settled();
async function notificationsOf(who: Member) {
  const res = await call(who, 'GET', '/api/notifications');
  expect(res.statusCode).toBe(200);
  return res.json().items as Array<{ type: string; data: Record<string, unknown>; link: string }>;
}

describe('watching a listing', () => {
  it('asks a visitor to sign in (401) and changes nothing', async () => {
    const id = await list();
    const res = await watch(null, id);
    expect(res.statusCode).toBe(401);
    expect((await call(null, 'DELETE', `/api/me/watches/${id}`)).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/me/watches')).statusCode).toBe(401);
    const rows = await t.database.query('select 1 from listing_watches where listing_id = $1', [
      id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('is idempotent, listed newest first, paged, and undone by unwatching', async () => {
    const first = await list();
    const second = await list();
    for (let i = 0; i < 2; i++) {
      const res = await watch(watcher, first);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ listingId: first, watching: true });
    }
    expect((await watch(watcher, second)).statusCode).toBe(200);
    const page = (await call(watcher, 'GET', '/api/me/watches')).json();
    expect(page.total).toBe(2);
    expect(page.pageSize).toBe(WATCHES_PAGE_SIZE);
    expect(page.items.map((i: { listing: { id: string } }) => i.listing.id)).toEqual([
      second,
      first,
    ]);
    expect(page.items[0].listing.title).toBe('Il Gattopardo');
    const ids = (await call(watcher, 'GET', '/api/me/watches/listing-ids')).json().listingIds;
    expect(ids.sort()).toEqual([first, second].sort());
    // Another member's list is their own: nothing of the watcher's shows.
    expect((await call(other, 'GET', '/api/me/watches')).json().total).toBe(0);
    expect((await call(watcher, 'GET', '/api/me/watches?page=0')).statusCode).toBe(400);
    expect((await call(watcher, 'GET', '/api/me/watches?page=abc')).statusCode).toBe(400);

    for (let i = 0; i < 2; i++) {
      const res = await call(watcher, 'DELETE', `/api/me/watches/${first}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ listingId: first, watching: false });
    }
    expect((await call(watcher, 'GET', '/api/me/watches')).json().total).toBe(1);
    await call(watcher, 'DELETE', `/api/me/watches/${second}`);
  });

  it('refuses one’s own listing (400, in the member’s language)', async () => {
    const id = await list();
    const en = await watch(seller, id);
    expect(en.statusCode).toBe(400);
    expect(en.json().error.message).toBe('You cannot watch your own listing.');
    const it = await watch(seller, id, 'it');
    expect(it.json().error.message).toBe('Non puoi seguire un tuo annuncio.');
  });

  it('answers 404 for a missing, malformed, hidden, deleted or blocked member’s listing', async () => {
    for (const bad of ['00000000-0000-4000-8000-000000000000', 'nope', 'x'.repeat(64)])
      expect((await watch(watcher, encodeURIComponent(bad))).statusCode).toBe(404);
    // A NUL byte and an over-long id are bad input: 400, never a 500.
    expect((await watch(watcher, encodeURIComponent('a\u0000b'))).statusCode).toBe(400);
    expect((await watch(watcher, 'x'.repeat(65))).statusCode).toBe(400);

    const hidden = await list();
    await t.database.query('update book_listings set hidden_at = now() where id = $1', [hidden]);
    expect((await watch(watcher, hidden)).statusCode).toBe(404);

    const deleted = await list();
    expect((await call(seller, 'DELETE', `/api/listings/${deleted}`)).statusCode).toBe(204);
    expect((await watch(watcher, deleted)).statusCode).toBe(404);

    const blockedOne = await list();
    expect((await call(seller, 'PUT', `/api/blocks/${watcher.id}`)).statusCode).toBeLessThan(300);
    expect((await watch(watcher, blockedOne)).statusCode).toBe(404);
    const rows = await t.database.query('select 1 from listing_watches where user_id = $1', [
      watcher.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('stops at the cap with 409', async () => {
    const id = await list();
    const filler = await t.database.query<{ id: string }>(
      `insert into book_listings (user_id, book_id, title, author, genre, condition, listing_type,
         price, currency, status)
       select user_id, book_id, title, author, genre, condition, listing_type, price, currency, status
       from book_listings, generate_series(1, $2) where id = $1 returning id`,
      [id, WATCHES_MAX],
    );
    await t.database.query(
      `insert into listing_watches (user_id, listing_id) select $1, unnest($2::uuid[])`,
      [other.id, filler.map((r) => r.id)],
    );
    const res = await watch(other, id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(
      'You already watch 500 listings: stop watching one first.',
    );
    await t.database.query('delete from listing_watches where user_id = $1', [other.id]);
    await t.database.query('delete from book_listings where id = any($1::uuid[])', [
      filler.map((r) => r.id),
    ]);
  });
});

describe('the seller’s count', () => {
  it('says how many watch, to the seller only (never who)', async () => {
    const id = await list();
    await watch(watcher, id);
    await watch(other, id);
    const res = await call(seller, 'GET', `/api/listings/${id}/watchers`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 2 });
    expect((await call(watcher, 'GET', `/api/listings/${id}/watchers`)).statusCode).toBe(404);
    expect((await call(null, 'GET', `/api/listings/${id}/watchers`)).statusCode).toBe(401);
    expect((await call(seller, 'GET', '/api/listings/nope/watchers')).statusCode).toBe(404);
  });
});

describe('what a watcher is told', () => {
  it('a price drop, reserved, available again and sold: live, in the bell, with a link', async () => {
    const id = await list();
    await watch(watcher, id);

    // A higher price tells nothing; a lower one does.
    await call(seller, 'PATCH', `/api/listings/${id}`, { price: 15 });
    await settle();
    expect(await notificationsOf(watcher)).toHaveLength(0);
    const lower = await call(seller, 'PATCH', `/api/listings/${id}`, { price: 9.5 });
    expect(lower.statusCode, lower.body).toBe(200);
    await settle();
    let items = await notificationsOf(watcher);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      type: 'watch.changed',
      link: `/library/book/${id}`,
      data: { context: 'priceDrop', title: 'Il Gattopardo', amount: 9.5, currency: 'EUR' },
    });
    expect(pushed.some((p) => p.userIds.includes(watcher.id))).toBe(true);
    // The seller is never told of their own change, nor is a member who does not watch.
    expect(await notificationsOf(seller)).toHaveLength(0);
    expect(await notificationsOf(other)).toHaveLength(0);

    for (const [status, context] of [
      ['reserved', 'reserved'],
      ['available', 'available'],
      ['sold', 'sold'],
    ] as const) {
      const res = await call(seller, 'POST', `/api/listings/${id}/status`, { status });
      expect(res.statusCode, res.body).toBe(200);
      await settle();
      items = await notificationsOf(watcher);
      expect(items[0].data.context).toBe(context);
    }
    expect(items).toHaveLength(4);
  });

  it('nothing for a member a block now stands between, nor after unwatching', async () => {
    const id = await list();
    await watch(watcher, id);
    await watch(other, id);
    await call(watcher, 'DELETE', `/api/me/watches/${id}`);
    await call(seller, 'PUT', `/api/blocks/${other.id}`);
    await call(seller, 'PATCH', `/api/listings/${id}`, { price: 5 });
    await settle();
    expect(await notificationsOf(watcher)).toHaveLength(0);
    expect(await notificationsOf(other)).toHaveLength(0);
  });

  it('a request that fails (another member’s listing) tells nothing and changes nothing', async () => {
    const id = await list();
    await watch(watcher, id);
    const res = await call(other, 'PATCH', `/api/listings/${id}`, { price: 1 });
    expect(res.statusCode).toBe(404);
    await settle();
    expect(await notificationsOf(watcher)).toHaveLength(0);
    const [row] = await t.database.query<{ price: number }>(
      'select price::float8 as price from book_listings where id = $1',
      [id],
    );
    expect(row.price).toBe(12.5);
  });
});
