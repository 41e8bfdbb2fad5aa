import { describe, expect, it } from 'vitest';
import { listingPageSchema } from '@shared/marketplace';
import { createMember } from '../../test/members';
import { t, advanceClock, id, seed, type Seed, useFixture } from './routes.fixture';

useFixture();

describe('GET /api/shelves', () => {
  async function shelves(query = '') {
    const res = await t.inject({ method: 'GET', url: `/api/shelves${query ? `?${query}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    const byId = Object.fromEntries(Object.entries(id).map(([n, v]) => [v, Number(n)]));
    return Object.fromEntries(
      res
        .json()
        .shelves.map((s: { key: string; items: { id: string }[] }) => [
          s.key,
          s.items.map((i) => byId[i.id]),
        ]),
    ) as Record<string, number[]>;
  }

  it('applies each shelf rule to available listings', async () => {
    const s = await shelves();
    // price / median price of the genre, ascending: 12/18.5, 8/11.5, 30/30, 40/40, 15/11.5, 25/18.5
    expect(s.bestDeals).toEqual([9, 2, 5, 8, 1, 3]);
    expect(s.justListed).toEqual([1, 2, 3, 4, 5, 8, 9]);
    // the book offered twice first (its newest listing), then one listing per book, newest first
    expect(s.popular).toEqual([3, 1, 2, 4, 5, 8]);
    // new or like new, for sale, highest price first (the sold one is not there)
    expect(s.premium).toEqual([8, 5, 3]);
    // one shelf per genre with available listings, in the genre list's order
    expect(Object.keys(s)).toEqual([
      'bestDeals',
      'justListed',
      'popular',
      'premium',
      'genre:fiction',
      'genre:fantasy',
      'genre:business',
      'genre:textbook',
    ]);
    expect(s['genre:fantasy']).toEqual([3, 4, 9]);
  });

  it('honours q, genre and price filters', async () => {
    const fantasy = await shelves('genre=fantasy');
    expect(fantasy.justListed).toEqual([3, 4, 9]);
    expect(Object.keys(fantasy).filter((k) => k.startsWith('genre:'))).toEqual(['genre:fantasy']);
    const q = await shelves('q=harry');
    expect(q.bestDeals).toEqual([9, 3]);
    const cheap = await shelves('minPrice=1&maxPrice=15');
    expect(cheap.justListed).toEqual([1, 2, 9]);
    expect(cheap.premium).toEqual([]);
    const bad = await t.inject({ method: 'GET', url: '/api/shelves?genre=nope&minPrice=x' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['genre', 'minPrice']);
  });

  it('holds at most 12 books per shelf', async () => {
    const poems: Seed[] = Array.from({ length: 14 }, (_, i) => ({
      n: 100 + i,
      title: `Poesie ${i}`,
      author: 'Alda Merini',
      genre: 'poetry',
      type: 'sell',
      price: 10 + i,
      condition: 'new',
    }));
    await seed(t, poems, -100); // listed in the future relative to the others: newest
    advanceClock(31_000);
    const s = await shelves();
    for (const key of ['bestDeals', 'justListed', 'popular', 'premium', 'genre:poetry'])
      expect(s[key], key).toHaveLength(12);
    expect(s.justListed[0]).toBe(100);
  });
});

describe('the micro-cache of anonymous searches', () => {
  it('matches the documented answer, serves visitors from memory for seconds, members and writes never', async () => {
    const member = await createMember(t, { username: 'cache_reader' });
    const titles = async (cookie?: string) => {
      const res = await t.inject({
        method: 'GET',
        url: '/api/listings?genre=biography',
        headers: cookie ? { cookie } : {},
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      // Encoded without Zod: still exactly the documented shape.
      expect(listingPageSchema.strict().parse(res.json())).toEqual(res.json());
      return res.json().items.map((i: { title: string }) => i.title);
    };
    expect(await titles()).toEqual([]);
    // Written straight to the database, as another server process would.
    const [{ id: written }] = await t.database.query<{ id: string }>(
      `insert into book_listings (book_id, user_id, title, author, genre, listing_type, price)
       select book_id, 'anna', 'Vita di Galileo', 'Bertolt Brecht', 'biography', 'sell', 9
       from book_listings where id = $1 returning id`,
      [id[1]],
    );
    expect(await titles()).toEqual([]);
    expect(await titles(member.cookie)).toEqual(['Vita di Galileo']);
    // Fresh for 2 s, then served once more while it is recomputed, then computed on the request.
    advanceClock(4_001);
    expect(await titles()).toEqual(['Vita di Galileo']);

    // Any change through this server: the next visitor's search follows it at once.
    await t.database.query(`update book_listings set title = 'Vita di Leonardo' where id = $1`, [
      written,
    ]);
    expect(await titles()).toEqual(['Vita di Galileo']);
    const created = await t.inject({
      method: 'POST',
      url: '/api/listings',
      headers: { cookie: member.cookie, origin: 'http://localhost:3000' },
      payload: { mode: 'quickSell', title: 'Lessico famigliare', author: 'Ginzburg', price: 10 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await titles()).toEqual(['Vita di Leonardo']);

    await t.database.query('delete from book_listings where id = any($1::uuid[])', [
      [written, created.json().id],
    ]);
  });
});
