import { describe, expect, it } from 'vitest';
import type { Member } from '../../test/members';
import {
  GATTOPARDO,
  ROSA,
  bell,
  block,
  book,
  call,
  digestTo,
  livePings,
  notifications,
  pushed,
  rowsOf,
  s,
  sell,
  settle,
  t,
  trade,
  unread,
  useAudienceFixture,
  w,
  wish,
  x,
} from './audience.fixture';

useAudienceFixture();

/**
 * Issue 32 item 4: a block reaches every channel (docs/notifications.md#who-may-hear-of-whom).
 * S and W, a block between them either way; X, who wishes the same books, hears as before.
 */
const directions: Array<[string, () => [Member, Member]]> = [
  ['S blocks W', () => [s, w]],
  ['W blocks S', () => [w, s]],
];

const wishlistAvailabilityTo = (who: Member) =>
  pushed.filter((p) => p.event.type === 'wishlist.availability' && p.userIds.includes(who.id))
    .length;

describe('a wished book listed across a block', () => {
  it.each(directions)(
    '%s, then S lists a book W wishes: no bell row, live event or digest line for W',
    async (_, who) => {
      const gattopardo = await book(GATTOPARDO);
      await wish(w, gattopardo);
      await wish(x, gattopardo);
      const [blocker, blocked] = who();
      await block(blocker, blocked);
      await sell(s);
      await settle();

      // X, who wishes it too, is told (the alert works); W is not, by any channel.
      expect(await bell(x)).toEqual([
        { type: 'wishlist.listed', actor: s.id, title: 'Il Gattopardo' },
      ]);
      expect(livePings(x)).toBe(1);
      expect(await bell(w)).toEqual([]);
      expect(await unread(w)).toBe(0);
      expect(await rowsOf(w, s)).toBe(0);
      expect(livePings(w)).toBe(0);
      expect(wishlistAvailabilityTo(w)).toBe(0);
      expect(await digestTo(x)).toContain('Sara Seller');
      expect(await digestTo(w)).toBe('');
      // Nor does W's wishlist count S's copy as available (X's does).
      expect(await availableOnWishlist(x)).toEqual([1]);
      expect(await availableOnWishlist(w)).toEqual([0]);
    },
  );
});

const availableOnWishlist = async (m: Member) => {
  const res = await call(m, 'GET', `/api/users/${m.id}/wishlist`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { availableListings: number }[]).map((i) => i.availableListings);
};

describe('a trade match across a block', () => {
  it.each(directions)('%s: the two are never paired, either way', async (_, who) => {
    const [gattopardo, rosa] = [await book(GATTOPARDO), await book(ROSA)];
    await wish(w, rosa);
    await wish(s, gattopardo);
    await trade(w, gattopardo, GATTOPARDO);
    await settle();
    const [blocker, blocked] = who();
    await block(blocker, blocked);
    await trade(s, rosa, ROSA);
    await settle();

    for (const [me, other] of [
      [w, s],
      [s, w],
    ]) {
      expect((await bell(me)).filter((n) => n.type === 'trade.match')).toEqual([]);
      expect(await rowsOf(me, other)).toBe(0);
      const page = await call(me, 'GET', '/api/me/trade-matches');
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json().total).toBe(0);
    }
  });

  it('without a block the same listings pair them (the test can fail)', async () => {
    const [gattopardo, rosa] = [await book(GATTOPARDO), await book(ROSA)];
    await wish(w, rosa);
    await wish(s, gattopardo);
    await trade(w, gattopardo, GATTOPARDO);
    await trade(s, rosa, ROSA);
    await settle();
    expect((await bell(w)).filter((n) => n.type === 'trade.match')).toHaveLength(1);
    expect((await bell(s)).filter((n) => n.type === 'trade.match')).toHaveLength(1);
  });
});

describe('saved searches, watched listings and price drops across a block', () => {
  it.each(directions)('%s: W’s saved search does not find S’s listing', async (_, who) => {
    for (const m of [w, x]) {
      const saved = await call(m, 'POST', '/api/me/saved-searches', {
        name: 'Gattopardo',
        filters: { q: 'Gattopardo' },
      });
      expect(saved.statusCode, saved.body).toBe(201);
    }
    const [blocker, blocked] = who();
    await block(blocker, blocked);
    await sell(s);
    await settle();
    expect((await bell(x)).map((n) => n.type)).toEqual(['savedSearch.match']);
    expect(await bell(w)).toEqual([]);
    const [row] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from saved_search_matches where user_id = $1',
      [w.id],
    );
    expect(row.n).toBe(0);
  });

  it.each(directions)(
    '%s: W watched S’s listing; its price drop tells W nothing',
    async (_, who) => {
      const id = await sell(s);
      for (const m of [w, x])
        expect((await call(m, 'PUT', `/api/me/watches/${id}`)).statusCode).toBe(200);
      const [blocker, blocked] = who();
      await block(blocker, blocked);
      expect((await call(s, 'PATCH', `/api/listings/${id}`, { price: 9 })).statusCode).toBe(200);
      await settle();
      expect(await bell(x)).toEqual([
        { type: 'watch.changed', actor: s.id, title: 'Il Gattopardo' },
      ]);
      expect(await bell(w)).toEqual([]);
      expect(await rowsOf(w, s)).toBe(0);
      expect(livePings(w)).toBe(0);
    },
  );
});

describe('what they were told before the block', () => {
  it.each(directions)(
    '%s: the notifications between them go, both ways, with their pending digest lines',
    async (_, who) => {
      const [gattopardo, rosa] = [await book(GATTOPARDO), await book(ROSA)];
      await wish(w, rosa);
      await wish(x, rosa);
      await wish(s, gattopardo);
      await trade(w, gattopardo, GATTOPARDO);
      await trade(s, rosa, ROSA);
      await settle();
      // Each has a wished book listed and a trade match from the other; X's stays.
      expect((await bell(w)).map((n) => n.type).sort()).toEqual(['trade.match', 'wishlist.listed']);
      expect((await bell(s)).map((n) => n.type).sort()).toEqual(['trade.match', 'wishlist.listed']);

      const [blocker, blocked] = who();
      await block(blocker, blocked);
      for (const [me, other] of [
        [w, s],
        [s, w],
      ]) {
        expect(await bell(me)).toEqual([]);
        expect(await unread(me)).toBe(0);
        expect(await rowsOf(me, other)).toBe(0);
      }
      expect(await bell(x)).toEqual([{ type: 'wishlist.listed', actor: s.id, title: ROSA.title }]);
      expect(await digestTo(w)).toBe('');
      expect(await digestTo(s)).toBe('');
      expect(await digestTo(x)).toContain(ROSA.title);
    },
  );

  it('the digest checks again at send time: a row left pending is not e-mailed', async () => {
    const gattopardo = await book(GATTOPARDO);
    await wish(w, gattopardo);
    await sell(s);
    await settle();
    // A block stored as the digest finds it (no route, so nothing was forgotten yet).
    await t.database.query('insert into blocks (blocker_id, blocked_id) values ($1, $2)', [
      s.id,
      w.id,
    ]);
    expect(await rowsOf(w, s)).toBe(1);
    expect(await bell(w)).toEqual([]);
    expect(await digestTo(w)).toBe('');
  });
});

describe('a block and a listing at once', () => {
  it('never leaves an alert once the block is committed', async () => {
    const gattopardo = await book(GATTOPARDO);
    await wish(w, gattopardo);
    for (let i = 0; i < 3; i++) {
      await call(s, 'DELETE', `/api/blocks/${w.id}`);
      const [blocked, listed] = await Promise.all([
        call(s, 'PUT', `/api/blocks/${w.id}`),
        call(s, 'POST', '/api/listings', { mode: 'quickTrade', bookId: gattopardo, ...GATTOPARDO }),
      ]);
      expect(blocked.statusCode, blocked.body).toBe(200);
      expect(listed.statusCode, listed.body).toBe(201);
      await settle();
      expect(await rowsOf(w, s)).toBe(0);
      expect(await bell(w)).toEqual([]);
    }
    expect(await digestTo(w)).toBe('');
  });
});

describe('a suspended member is not heard of', () => {
  it('stores nothing of a suspended actor, and hides what was stored before', async () => {
    const gattopardo = await book(GATTOPARDO);
    await wish(w, gattopardo);
    await sell(s);
    await settle();
    expect(await bell(w)).toHaveLength(1);
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [s.id]);
    expect(await bell(w)).toEqual([]);
    expect(await unread(w)).toBe(0);
    // A type that would show whatever its subject (a connection's, here): not stored at all.
    await notifications.notify({
      recipientId: w.id,
      type: 'friend.accepted',
      actorId: s.id,
      subject: { type: 'connection', id: 'c1' },
      data: { userId: s.id },
    });
    expect(await rowsOf(w, s)).toBe(1);
    expect(await digestTo(w)).toBe('');
  });
});
