import { describe, expect, it } from 'vitest';
import type { Member } from '../../test/members';
import { endHolidays } from '../profiles';
import {
  GATTOPARDO,
  ROSA,
  bell,
  book,
  call,
  changes,
  clock,
  digestTo,
  livePings,
  s,
  sell,
  settle,
  t,
  trade,
  useAudienceFixture,
  w,
  wish,
  x,
} from './audience.fixture';

useAudienceFixture();

/**
 * Issue 32 item 9, the alert half: holiday mode means away (decision 0069). A listing made while
 * its seller is away alerts nobody; when the seller is back (by hand or by the holiday job) it
 * comes into the library, and its wishers hear of it then, once, as the saved searches do.
 */
const DAY = 24 * 60 * 60 * 1000;
const dayFromNow = (days: number) => new Date(clock.at + days * DAY).toISOString().slice(0, 10);

async function away(who: Member, days = 2) {
  const res = await call(who, 'PUT', '/api/me/holiday', {
    awayUntil: dayFromNow(days),
    autoReply: null,
  });
  expect(res.statusCode, res.body).toBe(200);
  await settle();
}

async function back(who: Member) {
  const res = await call(who, 'DELETE', '/api/me/holiday');
  expect(res.statusCode, res.body).toBe(200);
  await settle();
}

const types = async (who: Member) => (await bell(who)).map((n) => n.type).sort();

describe('a seller on holiday lists a wished book', () => {
  it('alerts no wisher while away (bell, live, digest); back by hand, each is told once', async () => {
    const gattopardo = await book(GATTOPARDO);
    await wish(w, gattopardo);
    await wish(x, gattopardo);
    const saved = await call(x, 'POST', '/api/me/saved-searches', {
      name: 'Gattopardo',
      filters: { q: 'Gattopardo' },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    await away(s);
    await sell(s);
    await settle();
    expect(await bell(w)).toEqual([]);
    expect(await bell(x)).toEqual([]);
    expect(livePings(w)).toBe(0);
    expect(await digestTo(w)).toBe('');

    await back(s);
    expect(await bell(w)).toEqual([
      { type: 'wishlist.listed', actor: s.id, title: 'Il Gattopardo' },
    ]);
    // The saved search finds it on the same return: the two channels agree.
    expect(await types(x)).toEqual(['savedSearch.match', 'wishlist.listed']);
    expect(livePings(w)).toBe(1);

    // Away and back again: nothing is told twice.
    await away(s);
    await back(s);
    expect(await bell(w)).toHaveLength(1);
    expect(await digestTo(w)).toContain('Il Gattopardo');
  });

  it('a listing told of before the holiday is not told again when the seller is back', async () => {
    const gattopardo = await book(GATTOPARDO);
    await wish(w, gattopardo);
    await sell(s);
    await settle();
    expect(await bell(w)).toHaveLength(1);
    await away(s);
    await back(s);
    expect(await bell(w)).toHaveLength(1);
  });

  it('the holiday job ending it tells the wishers then', async () => {
    const gattopardo = await book(GATTOPARDO);
    await wish(w, gattopardo);
    await away(s, 1);
    await sell(s);
    await settle();
    expect(await bell(w)).toEqual([]);
    const ended = await endHolidays(t.database, new Date(clock.at + 3 * DAY), changes);
    expect(ended).toEqual([s.id]);
    await settle();
    expect(await types(w)).toEqual(['wishlist.listed']);
  });
});

describe('a trade match with a member on holiday', () => {
  it('does not pair a seller who is away; pairs them when they are back', async () => {
    const [gattopardo, rosa] = [await book(GATTOPARDO), await book(ROSA)];
    await wish(w, rosa);
    await wish(s, gattopardo);
    await away(s);
    // S lists a book W wishes while away: no alert, no match.
    await trade(s, rosa, ROSA);
    await trade(w, gattopardo, GATTOPARDO);
    await settle();
    expect(await bell(w)).toEqual([]);
    // S, a reader on holiday, still hears of W's listing, but no match with their hidden book.
    expect(await types(s)).toEqual(['wishlist.listed']);
    const page = await call(w, 'GET', '/api/me/trade-matches');
    expect(page.json().total).toBe(0);

    await back(s);
    expect(await types(w)).toEqual(['trade.match', 'wishlist.listed']);
    expect(await types(s)).toEqual(['trade.match', 'wishlist.listed']);
    expect((await call(w, 'GET', '/api/me/trade-matches')).json().total).toBe(1);
  });
});
