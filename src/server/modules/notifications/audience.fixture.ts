// Test support for the audience tests (not a test file itself): who may hear of whom.
import { beforeAll, beforeEach, expect } from 'vitest';
import { createMailer } from '../../platform/mail';
import { createListingChanges, type ListingChanges } from '../../platform/listing-changes';
import type { NotificationService } from '../../platform/notifications';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/app';
import { callAs, createMember, type Member } from '../../test/members';
import { gattopardo } from '../../test/listings';
import { createTestNotifications, recordUserPushes } from '../../test/notifications';
import { savedSearchAlertsSettled } from '../saved-searches';
import { wishlistAlertsSettled } from '../wishlist';

export let t: TestApp;
export let notifications: NotificationService;
/** What was pushed live to members (every event). */
export let pushed: ReturnType<typeof recordUserPushes>['pushed'];
/** S, who blocks or is blocked; W, who wishes, searches, watches; X, a bystander who wishes too. */
export let s: Member;
export let w: Member;
export let x: Member;
export let changes: ListingChanges;
export const clock = { at: new Date('2026-09-01T10:00:00Z').getTime() };
export const call = callAs(() => t);

export const GATTOPARDO = { title: gattopardo.title, author: gattopardo.author };
export const ROSA = { title: 'Il nome della rosa', author: 'Umberto Eco' };

/** Every alert started so far has been stored (listing hook, wishlist, saved searches). */
export async function settle() {
  await changes.settled();
  await wishlistAlertsSettled();
  await savedSearchAlertsSettled();
  await changes.settled();
}

/**
 * Registers the set-up for the test file that calls it: one app on PGlite (or TEST_DATABASE_URL)
 * with a recorded realtime, the real mail outbox, the notification centre and the listing hook
 * on the test's clock; every test starts from no listings, wishes, notifications or blocks.
 */
export function useAudienceFixture(): void {
  beforeAll(async () => {
    const database = await createTestDatabase();
    const recorded = recordUserPushes();
    pushed = recorded.pushed;
    const mailer = createMailer({ database, from: 'Scaffale <no-reply@scaffale.local>' });
    const now = () => new Date(clock.at);
    notifications = createTestNotifications({
      database,
      realtime: recorded.realtime,
      mailer,
      now,
    });
    changes = createListingChanges({ query: (q, p) => database.query(q, p), log: console });
    t = await createTestApp({
      database,
      deps: { realtime: recorded.realtime, mailer, notifications, listingChanges: changes, now },
    });
    [s, w, x] = await Promise.all([
      createMember(t, { username: 'sara_aud', displayName: 'Sara Seller' }),
      createMember(t, { username: 'walter_aud', displayName: 'Walter Wisher' }),
      createMember(t, { username: 'xena_aud', displayName: 'Xena Bystander' }),
    ]);
  }, 120_000);

  beforeEach(async () => {
    await settle();
    for (const table of [
      'notifications',
      'notification_digests',
      'mail_outbox',
      'wishlist_items',
      'saved_searches',
      'listing_watches',
      'member_holidays',
      'blocks',
    ])
      await t.database.query(`delete from ${table}`);
    await t.database.query('delete from book_listings');
    await t.database.query(`update users set account_status = 'active'`);
    pushed.length = 0;
    // Each test in its own digest hour.
    clock.at += 2 * 3600_000;
  });
}

/** A catalogue book (its id). */
export async function book({ title, author }: { title: string; author: string }) {
  const [row] = await t.database.query<{ id: string }>(
    'insert into books (title, author) values ($1, $2) returning id',
    [title, author],
  );
  return row.id;
}

export async function wish(who: Member, bookId: string) {
  const res = await call(who, 'POST', '/api/me/wishlist/items', { bookId });
  expect(res.statusCode, res.body).toBe(201);
}

/** `who` lists Il Gattopardo for sale at 12.50 (the listing's id). */
export async function sell(who: Member) {
  const res = await call(who, 'POST', '/api/listings', gattopardo);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** `who` lists a catalogue book for trade with the quick form (the listing's id). */
export async function trade(who: Member, bookId: string, b: { title: string; author: string }) {
  const res = await call(who, 'POST', '/api/listings', { mode: 'quickTrade', bookId, ...b });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

export async function block(who: Member, other: Member) {
  const res = await call(who, 'PUT', `/api/blocks/${other.id}`);
  expect(res.statusCode, res.body).toBe(200);
}

/** What `who`'s bell lists (type, actor's id, title), through the API. */
export async function bell(who: Member) {
  const res = await call(who, 'GET', '/api/notifications');
  expect(res.statusCode, res.body).toBe(200);
  return (
    res.json().items as Array<{
      type: string;
      actor: { id: string } | null;
      data: { title?: string };
    }>
  ).map((n) => ({ type: n.type, actor: n.actor?.id ?? null, title: n.data.title ?? null }));
}

/** The bell's unread count, through the API. */
export async function unread(who: Member) {
  const res = await call(who, 'GET', '/api/notifications/unread-count');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().unread as number;
}

/** The rows stored for `who` about `about` (whatever the list would show). */
export async function rowsOf(who: Member, about: Member) {
  const [row] = await t.database.query<{ n: number }>(
    'select count(*)::int as n from notifications where recipient_id = $1 and actor_id = $2',
    [who.id, about.id],
  );
  return row.n;
}

/** The live "notification.new" events pushed to `who`. */
export const livePings = (who: Member) =>
  pushed.filter((p) => p.event.type === 'notification.new' && p.userIds.includes(who.id)).length;

/** The hourly digest an hour later: the text of every e-mail sent to `who`. */
export async function digestTo(who: Member) {
  clock.at += 3600_000 + 60_000;
  await notifications.runDigests();
  const rows = await t.database.query<{ text: string }>(
    'select text from mail_outbox where "to" = $1 order by id',
    [who.email],
  );
  return rows.map((r) => r.text).join('\n');
}
