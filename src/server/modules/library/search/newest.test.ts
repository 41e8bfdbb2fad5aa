import { describe, expect, it } from 'vitest';
import { advanceClock, id, list, t, useFixture } from '../routes.fixture';
import { newestPage } from './newest';
import { compileWords, searchWords } from './words';

useFixture();

/** The ids of a page of the library, as a client gets them. */
const page = async (query: string): Promise<string[]> => {
  const res = await list(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items.map((i: { id: string }) => i.id);
};

describe('the newest page of a word with many matches (decision 0098)', () => {
  it('is the same from the newest window as the library gives, and when the window holds too few', async () => {
    // 300 copies a minute apart, newer than the fixture's; PostgreSQL's statistics of their times.
    await t.database.query(
      `insert into book_listings (book_id, user_id, title, author, genre, listing_type, price,
         condition, created_at)
       select book_id, 'marco', 'Zibaldone ' || g, 'Giacomo Leopardi', 'poetry', 'sell',
         3 + g % 40, 'good', now() - make_interval(mins => g)
       from book_listings, generate_series(1, 300) g where id = $1`,
      [id[1]],
    );
    await t.database.query('analyze book_listings');
    advanceClock(11_000);
    const words = await compileWords(t.database, searchWords('zibaldone'));
    for (const [p, matches] of [
      [1, 300], // a window of the newest quarter of the listings: the page is in it
      [2, 300],
      [1, 3000], // a window of a few listings: too few, the page read along the newest index
      [3, 3000],
    ]) {
      const expected = await page(`q=zibaldone&sort=newest&page=${p}`);
      expect(expected).toHaveLength(24);
      const rows = await newestPage(
        t.database,
        { q: 'zibaldone', words, sort: 'newest', page: p },
        { matches, base: 1_000_000 },
        undefined,
      );
      expect(rows?.map((r) => r.id)).toEqual(expected);
    }
  });
});
