import { describe, expect, it } from 'vitest';
import { listingDetailSchema, relatedListingsSchema, shelvesSchema } from '@shared/marketplace';
import { createMember } from '../../test/members';
import { t, advanceClock, id, useFixture } from './routes.fixture';

useFixture();

const ORIGIN = 'http://localhost:3000';
const numbers = (items: { id: string }[]) => {
  const byId = Object.fromEntries(Object.entries(id).map(([n, v]) => [v, Number(n)]));
  return items.map((i) => byId[i.id]);
};

describe('the book page: what the catalogue knows', () => {
  it('shows synopsis, year, publisher and ISBN when the catalogue has them, null otherwise', async () => {
    await t.database.query(
      `update books set description = ' Un ragazzo scopre di essere un mago. ',
         publisher = 'Salani', published_date = '1998-07-01', isbn_13 = '9788877827029'
       where id = (select book_id from book_listings where id = $1)`,
      [id[3]],
    );
    const res = await t.inject({ method: 'GET', url: `/api/listings/${id[3]}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(listingDetailSchema.parse(res.json()).book).toEqual({
      synopsis: 'Un ragazzo scopre di essere un mago.',
      publisher: 'Salani',
      year: 1998,
      isbn: '9788877827029',
    });
    // Another copy of the same catalogue book knows the same.
    const copy = await t.inject({ method: 'GET', url: `/api/listings/${id[9]}` });
    expect(copy.json().book.year).toBe(1998);
    const bare = await t.inject({ method: 'GET', url: `/api/listings/${id[1]}` });
    expect(bare.json().book).toEqual({ synopsis: null, publisher: null, year: null, isbn: null });
  });
});

describe('GET /api/listings/:id/related', () => {
  async function related(n: number | string, cookie?: string) {
    const res = await t.inject({
      method: 'GET',
      url: `/api/listings/${typeof n === 'number' ? id[n] : n}/related`,
      headers: { 'accept-language': 'it', ...(cookie ? { cookie } : {}) },
    });
    return res;
  }

  it('lists the other available copies of the book and the seller’s other available books', async () => {
    const res = await related(3);
    expect(res.statusCode, res.body).toBe(200);
    const body = relatedListingsSchema.strict().parse(res.json());
    // Marco's copy of the same book; Anna's other available listings, newest first (not 3
    // itself, not the sold 6 nor the unavailable 7).
    expect(numbers(body.otherCopies)).toEqual([9]);
    expect(numbers(body.moreFromSeller)).toEqual([1, 2, 4, 5, 8]);
    expect(res.headers.etag).toMatch(/^W\//);
    const other = relatedListingsSchema.parse((await related(9)).json());
    expect(numbers(other.otherCopies)).toEqual([3]);
    expect(other.moreFromSeller).toEqual([]);
  });

  it('holds at most 6 per list and leaves out hidden listings', async () => {
    for (let i = 0; i < 7; i++)
      await t.database.query(
        `insert into book_listings (book_id, user_id, title, author, genre, listing_type, price)
         select book_id, 'marco', title, author, genre, 'sell', 10 + $2::int
         from book_listings where id = $1`,
        [id[3], i],
      );
    const body = (await related(3)).json();
    expect(body.otherCopies).toHaveLength(6);
    expect(body.otherCopies.every((c: { seller: { id: string } }) => c.seller.id === 'marco')).toBe(
      true,
    );
    await t.database.query(`update book_listings set hidden_at = now() where id = $1`, [id[1]]);
    expect(numbers((await related(3)).json().moreFromSeller)).toEqual([2, 4, 5, 8]);
    // A hidden listing has no page, so no lists either.
    const hidden = await related(1);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.message).toBe('Libro non trovato');
    await t.database.query(`update book_listings set hidden_at = null where id = $1`, [id[1]]);
    await t.database.query(
      `delete from book_listings where user_id = 'marco' and id <> $1 and price >= 10 and price < 17`,
      [id[9]],
    );
  });

  it('answers 404 for unknown, malformed or hostile ids, 400 for NUL bytes and huge ones', async () => {
    for (const bad of [
      '00000000-0000-4000-8000-000000000000',
      'not-a-uuid',
      encodeURIComponent("' or 1=1 --"),
    ]) {
      const res = await related(bad);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    // NUL bytes and huge ids are bad input: 400 with a message, never a 500.
    for (const bad of ['%00', 'x'.repeat(100)]) {
      const res = await related(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toEqual(expect.any(String));
    }
  });

  it('keeps members a block stands between apart, both ways', async () => {
    const reader = await createMember(t, { username: 'blocker_reader' });
    const blocked = await t.inject({
      method: 'PUT',
      url: '/api/blocks/anna',
      headers: { cookie: reader.cookie, origin: ORIGIN },
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    // Anna's listing has no page for the reader; Marco's copy no longer lists Anna's.
    expect((await related(3, reader.cookie)).statusCode).toBe(404);
    const marco = await related(9, reader.cookie);
    expect(marco.statusCode).toBe(200);
    expect(marco.json().otherCopies).toEqual([]);
    // A visitor still sees both.
    expect(numbers((await related(9)).json().otherCopies)).toEqual([3]);
  });
});

describe('GET /api/shelves/home', () => {
  it('opens on just listed, best deals and the fullest genre, 8 books at most each', async () => {
    advanceClock(31_000);
    const res = await t.inject({ method: 'GET', url: '/api/shelves/home' });
    expect(res.statusCode, res.body).toBe(200);
    const { shelves } = shelvesSchema.parse(res.json());
    expect(shelves.map((s) => s.key)).toEqual(['justListed', 'bestDeals', 'genre:fantasy']);
    expect(numbers(shelves[0].items)).toEqual([1, 2, 3, 4, 5, 8, 9]);
    expect(numbers(shelves[1].items)).toEqual([9, 2, 5, 8, 1, 3]);
    expect(numbers(shelves[2].items)).toEqual([3, 4, 9]);
    expect(res.headers['cache-control']).toContain('public');
    const again = await t.inject({
      method: 'GET',
      url: '/api/shelves/home',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('shows a listing made through the server at once, despite the 30 s cache', async () => {
    const member = await createMember(t, { username: 'home_seller' });
    await t.inject({ method: 'GET', url: '/api/shelves/home' });
    const created = await t.inject({
      method: 'POST',
      url: '/api/listings',
      headers: { cookie: member.cookie, origin: ORIGIN },
      payload: { mode: 'quickSell', title: 'Le città invisibili', author: 'Calvino', price: 9 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { shelves } = (await t.inject({ method: 'GET', url: '/api/shelves/home' })).json();
    expect(shelves[0].key).toBe('justListed');
    expect(shelves[0].items).toHaveLength(8);
    expect(shelves[0].items[0].title).toBe('Le città invisibili');
    await t.database.query('delete from book_listings where id = $1', [created.json().id]);
  });
});

describe('library search: the typo correction says so', () => {
  it('names the corrected words, and exact=1 searches the words as written', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/listings?q=Umbreto%20Eco' });
    expect(res.json().correctedQ).toBe('umberto Eco');
    expect(res.json().total).toBe(1);
    const exact = await t.inject({ method: 'GET', url: '/api/listings?q=Umbreto%20Eco&exact=1' });
    expect(exact.json().total).toBe(0);
    expect(exact.json().correctedQ).toBeUndefined();
    const plain = await t.inject({ method: 'GET', url: '/api/listings?q=eco' });
    expect(plain.json().correctedQ).toBeUndefined();
    const bad = await t.inject({
      method: 'GET',
      url: '/api/listings?q=eco&exact=yes',
      headers: { 'accept-language': 'it' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.exact).toBe('Valore di exact non valido: usa 1');
  });
});

describe('GET /api/stats', () => {
  it('may be kept 30 s, and answers 304 to its ETag', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/stats' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    expect(res.json()).toEqual({
      booksAvailable: expect.any(Number),
      activeUsers: expect.any(Number),
      totalTransactions: expect.any(Number),
    });
    const again = await t.inject({
      method: 'GET',
      url: '/api/stats',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('the OpenAPI document', () => {
  it('documents the new reads with their errors', async () => {
    const { paths } = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(paths['/api/shelves/home'].get.responses)).toEqual(['200']);
    expect(Object.keys(paths['/api/listings/{id}/related'].get.responses).sort()).toEqual([
      '200',
      '400',
      '404',
    ]);
    expect(paths['/api/listings'].get.parameters.map((p: { name: string }) => p.name)).toContain(
      'exact',
    );
    expect(Object.keys(paths['/api/stats'].get.responses).sort()).toEqual(['200', '304']);
  });
});
