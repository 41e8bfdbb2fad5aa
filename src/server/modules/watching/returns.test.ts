import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/app';
import { createListingChanges, type ListingChanges } from '../../platform/listing-changes';
import { callAs, createMember, signIn, type Member } from '../../test/members';
import { gattopardo } from '../../test/listings';
import { grantAdmin } from '../moderation';
import { endHolidays } from '../profiles';
import { savedSearchAlertsSettled } from '../saved-searches';

/**
 * A listing leaving readers' sight and coming back by another hand than its seller's routes
 * (issue 22 items 4 to 6, decision 0079): a moderator hiding and restoring it, its seller on
 * holiday (by hand and by the job), suspended, or deleting their account. Coming back, watchers
 * hear "available again" and saved searches match it; leaving, the watch tells and shows nothing.
 */
const DAY = 24 * 60 * 60 * 1000;
const clock = new Date('2026-08-01T10:00:00Z').getTime();
let t: TestApp;
let changes: ListingChanges;
let admin: Member;
let seller: Member;
let watcher: Member;
let searcher: Member;
const call = callAs(() => t);

beforeAll(async () => {
  const database = await createTestDatabase();
  changes = createListingChanges({ query: (q, p) => database.query(q, p), log: console });
  t = await createTestApp({
    database,
    deps: { listingChanges: changes, now: () => new Date(clock) },
  });
  [admin, seller, watcher, searcher] = await Promise.all([
    createMember(t, { displayName: 'Ada Admin' }),
    createMember(t, { username: 'seller_r', displayName: 'Sara Seller' }),
    createMember(t, { username: 'watcher_r', displayName: 'Walter Watcher' }),
    createMember(t, { username: 'searcher_r', displayName: 'Silvia Searcher' }),
  ]);
  expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
}, 60_000);

const settle = async () => {
  await changes.settled();
  await savedSearchAlertsSettled();
};

beforeEach(async () => {
  await settle();
  for (const table of ['notifications', 'saved_searches', 'member_holidays', 'listing_watches'])
    await t.database.query(`delete from ${table}`);
  await t.database.query(`update users set account_status = 'active' where id = $1`, [seller.id]);
});

/** A listing of the seller's, watched by the watcher; the searcher's search for it saved after. */
async function watchedListing(title: string): Promise<string> {
  const res = await call(seller, 'POST', '/api/listings', { ...gattopardo, title });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  expect((await call(watcher, 'PUT', `/api/me/watches/${id}`)).statusCode).toBe(200);
  const saved = await call(searcher, 'POST', '/api/me/saved-searches', {
    name: title,
    filters: { q: title.split(' ').at(-1) },
  });
  expect(saved.statusCode, saved.body).toBe(201);
  await settle();
  return id;
}
const bell = async (who: Member) =>
  (await call(who, 'GET', '/api/notifications')).json().items as Array<{
    type: string;
    subject: { id: string } | null;
    data: Record<string, unknown>;
  }>;
const watchContexts = async () =>
  (await bell(watcher)).filter((n) => n.type === 'watch.changed').map((n) => n.data.context);
const searchFinds = async () =>
  (await bell(searcher)).filter((n) => n.type === 'savedSearch.match').map((n) => n.data.title);
const watchedIds = async () =>
  (
    (await call(watcher, 'GET', '/api/me/watches')).json().items as Array<{
      listing: { id: string };
    }>
  ).map((i) => i.listing.id);
const watchedListingIds = async () =>
  (await call(watcher, 'GET', '/api/me/watches/listing-ids')).json().listingIds as string[];
const moderate = (action: 'hide' | 'restore', id: string) =>
  call(admin, 'POST', `/api/admin/items/listing/${id}/${action}`, { reason: 'Verifica' });

describe('a moderator hiding and restoring a watched listing', () => {
  it('hiding tells nothing and the watch shows nothing; restoring is "available again"', async () => {
    const id = await watchedListing('Il Gattopardo nascosto');
    expect((await call(seller, 'PATCH', `/api/listings/${id}`, { price: 10 })).statusCode).toBe(
      200,
    );
    await settle();
    expect(await watchContexts()).toEqual(['priceDrop']);

    const hidden = await moderate('hide', id);
    expect(hidden.statusCode, hidden.body).toBe(200);
    await settle();
    // Nothing new, the earlier news of it gone from the bell, and not in the watch list.
    expect(await watchContexts()).toEqual([]);
    expect(await watchedIds()).not.toContain(id);
    expect(await watchedListingIds()).not.toContain(id);
    expect(await searchFinds()).toEqual([]);

    expect((await moderate('restore', id)).statusCode).toBe(200);
    await settle();
    // (The test clock stands still: the two have the same time, so their order is not asserted.)
    expect((await watchContexts()).sort()).toEqual(['available', 'priceDrop']);
    expect(await watchedIds()).toContain(id);
    // The saved search, saved while it was hidden, finds it now that it is back in the library.
    expect(await searchFinds()).toEqual(['Il Gattopardo nascosto']);
    // A second restore changes nothing and tells nothing again.
    await moderate('restore', id);
    await settle();
    expect(await watchContexts()).toHaveLength(2);
    expect(await searchFinds()).toHaveLength(1);
  });

  it('a member who is not a moderator cannot hide it, and nobody is told anything', async () => {
    const id = await watchedListing('Il Gattopardo protetto');
    const res = await call(watcher, 'POST', `/api/admin/items/listing/${id}/hide`, {
      reason: 'x',
    });
    // The admin routes do not exist for a member who is not a moderator.
    expect(res.statusCode).toBe(404);
    await settle();
    expect(await watchContexts()).toEqual([]);
    expect(await watchedIds()).toContain(id);
  });
});

describe('a seller suspended and back', () => {
  it('tells nothing on the suspension, "available again" when it is lifted', async () => {
    const id = await watchedListing('Il Gattopardo sospeso');
    const off = await call(admin, 'POST', `/api/admin/members/${seller.id}/suspend`, {
      reason: 'Verifica',
    });
    expect(off.statusCode, off.body).toBe(200);
    await settle();
    expect(await watchContexts()).toEqual([]);
    expect(await watchedIds()).not.toContain(id);
    const on = await call(admin, 'POST', `/api/admin/members/${seller.id}/unsuspend`, {
      reason: 'Chiarito',
    });
    expect(on.statusCode, on.body).toBe(200);
    // The suspension ended the seller's sessions.
    seller.cookie = await signIn(t, seller.email, seller.password);
    await settle();
    expect(await watchContexts()).toEqual(['available']);
    expect(await searchFinds()).toEqual(['Il Gattopardo sospeso']);
  });
});

describe('a seller on holiday', () => {
  const away = (days: number) =>
    call(seller, 'PUT', '/api/me/holiday', {
      awayUntil: new Date(clock + days * DAY).toISOString().slice(0, 10),
    });

  it('going away tells nothing; coming back by hand is "available again"', async () => {
    const id = await watchedListing('Il Gattopardo in vacanza');
    expect((await away(3)).statusCode).toBe(200);
    await settle();
    expect(await watchContexts()).toEqual([]);
    // Its page still answers, so the watch still shows it.
    expect(await watchedIds()).toContain(id);
    expect((await call(seller, 'DELETE', '/api/me/holiday')).statusCode).toBe(200);
    await settle();
    expect(await watchContexts()).toEqual(['available']);
    expect(await searchFinds()).toEqual(['Il Gattopardo in vacanza']);
    // Back twice: told once.
    await call(seller, 'DELETE', '/api/me/holiday');
    await settle();
    expect(await watchContexts()).toHaveLength(1);
  });

  it('the job ending it tells each watcher once, whichever of two processes ends it', async () => {
    await watchedListing('Il Gattopardo estivo');
    // Its own matching (after the answer) is over before the search below is saved.
    await settle();
    // Listed while away: no saved search finds it until the seller is back.
    const search = await call(searcher, 'POST', '/api/me/saved-searches', {
      name: 'Nuovo',
      filters: { q: 'ritorno' },
    });
    expect(search.statusCode).toBe(201);
    expect((await away(2)).statusCode).toBe(200);
    const during = await call(seller, 'POST', '/api/listings', {
      ...gattopardo,
      title: 'Il ritorno',
    });
    expect(during.statusCode).toBe(201);
    await settle();
    expect(await searchFinds()).toEqual([]);

    const after = new Date(clock + 4 * DAY);
    const [a, b] = await Promise.all([
      endHolidays(t.database, after, changes),
      endHolidays(t.database, after, changes),
    ]);
    expect([...a, ...b]).toEqual([seller.id]);
    await settle();
    expect(await watchContexts()).toEqual(['available']);
    expect((await searchFinds()).sort()).toEqual(['Il Gattopardo estivo', 'Il ritorno']);
  });
});

describe('a seller deleting their account', () => {
  it('tells watchers nothing, and the watch, its news and the finds go', async () => {
    const gone = await createMember(t, { displayName: 'Gino Gone' });
    const search = await call(searcher, 'POST', '/api/me/saved-searches', {
      name: 'Perso',
      filters: { q: 'perso' },
    });
    expect(search.statusCode).toBe(201);
    const res = await call(gone, 'POST', '/api/listings', {
      ...gattopardo,
      title: 'Il Gattopardo perso',
    });
    const id = res.json().id as string;
    await call(watcher, 'PUT', `/api/me/watches/${id}`);
    await call(gone, 'PATCH', `/api/listings/${id}`, { price: 5 });
    await settle();
    expect(await watchContexts()).toEqual(['priceDrop']);
    expect(await searchFinds()).toEqual(['Il Gattopardo perso']);
    const del = await call(gone, 'POST', '/api/me/delete', { password: gone.password });
    expect(del.statusCode, del.body).toBe(200);
    await settle();
    expect(await watchContexts()).toEqual([]);
    expect(await searchFinds()).toEqual([]);
    expect(await watchedIds()).not.toContain(id);
    expect(await watchedListingIds()).not.toContain(id);
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from saved_search_matches where listing_id = $1',
      [id],
    );
    expect(n).toBe(0);
  });
});
