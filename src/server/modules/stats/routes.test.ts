import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { callAs, createMember, type Member } from '../../test/members';
import { gattopardo } from '../../test/listings';

/**
 * The home's "books available" and the library's "books found" are one number (issue 33: the
 * home said 354, the library 317): the listings a visitor finds in the library, so neither a
 * hidden listing nor one of a seller on holiday.
 */
let clock = new Date('2026-07-01T10:00:00Z').getTime();
let t: TestApp;
let anna: Member;
let sara: Member;
const call = callAs(() => t);

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => new Date(clock) } });
  [anna, sara] = await Promise.all([
    createMember(t, { username: 'anna_stats', displayName: 'Anna' }),
    createMember(t, { username: 'sara_stats', displayName: 'Sara' }),
  ]);
}, 60_000);

async function list(who: Member, title: string): Promise<string> {
  const res = await call(who, 'POST', '/api/listings', { ...gattopardo, title });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** Both counts as a visitor reads them, past both caches (stats 30 s, the library's totals 10 s). */
async function counts() {
  clock += 31_000;
  const home = (await call(null, 'GET', '/api/stats')).json().booksAvailable as number;
  const library = (await call(null, 'GET', '/api/listings')).json().total as number;
  return { home, library };
}

describe('books available', () => {
  it('is the library’s total: without hidden listings or those of a seller on holiday', async () => {
    const hidden = await list(anna, 'Il Gattopardo (nascosto)');
    await list(anna, 'Il Gattopardo');
    await list(sara, 'Il Gattopardo (in vacanza)');
    await list(sara, 'Il Gattopardo (in vacanza, bis)');
    expect(await counts()).toEqual({ home: 4, library: 4 });

    await t.database.query(`update book_listings set hidden_at = now() where id = $1`, [hidden]);
    const away = await call(sara, 'PUT', '/api/me/holiday', { awayUntil: '2026-07-20' });
    expect(away.statusCode, away.body).toBe(200);
    expect(await counts()).toEqual({ home: 1, library: 1 });

    // Back from holiday: both counts again.
    expect((await call(sara, 'DELETE', '/api/me/holiday')).statusCode).toBe(200);
    expect(await counts()).toEqual({ home: 3, library: 3 });
  });
});
