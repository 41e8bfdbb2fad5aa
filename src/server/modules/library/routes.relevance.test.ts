import { describe, expect, it } from 'vitest';
import {
  CONDITIONS,
  LISTING_TYPES,
  MARKET_GENRES,
  SEARCH_COUNT_CAP,
  listingPageSchema,
  type Facets,
} from '@shared/marketplace';
import { t, advanceClock, id, ids, list, seed, useFixture } from './routes.fixture';

useFixture();

/** Listings of this file, after the fixture's nine (numbers 20 and up, listed 20+ days ago). */
async function more() {
  if (id[20]) return;
  await seed(t, [
    // A description match, newer than the title match of the same word.
    {
      n: 20,
      title: 'Diario di bordo',
      author: 'Luca Neri',
      genre: 'fiction',
      type: 'sell',
      price: 9.5,
      condition: 'fair',
      description: 'Racconti di un giardino sul mare',
    },
    {
      n: 21,
      title: 'Il giardino dei Finzi-Contini',
      author: 'Giorgio Bassani',
      genre: 'fiction',
      type: 'sell',
      price: 11,
      condition: 'good',
    },
    // Every word of "il nome della rosa" in its title, but not as the phrase; newer than 1.
    {
      n: 22,
      title: 'Della rosa il nome segreto',
      author: 'Anna Verdi',
      genre: 'poetry',
      type: 'trade',
      price: null,
      condition: 'poor',
    },
    // Stems: Italian (libri / libro) and English (running / run).
    {
      n: 23,
      title: 'I libri di Maria',
      author: 'Carla Blu',
      genre: 'children',
      type: 'both',
      price: 4.5,
      condition: 'new',
    },
    {
      n: 24,
      title: 'Born to Run',
      author: 'Christopher McDougall',
      genre: 'nonFiction',
      type: 'sell',
      price: 14.9,
      condition: 'likeNew',
    },
    // A prefix of "rosa" only (Rosaria), newer than 1 whose title has the whole word.
    {
      n: 25,
      title: 'Rosaria e il mare',
      author: 'Pia Gialli',
      genre: 'fiction',
      type: 'sell',
      price: 7,
      condition: 'good',
    },
    // Words starting with stop words ("il", "and", "her"), none of them one. Sold, so that the
    // library's counts of available listings stay those the other tests expect.
    {
      n: 26,
      title: 'Illusioni perdute',
      author: 'Honoré de Balzac',
      genre: 'fiction',
      type: 'sell',
      price: 8,
      condition: 'good',
      status: 'sold',
      description: 'Andrea ed Herbert a Parigi',
    },
  ]);
  // Newer than the fixture's (listed 1 to 9 days ago): 20, then 22, then 25.
  for (const [n, hours] of [
    [20, 1],
    [22, 2],
    [25, 3],
  ])
    await t.database.query(
      `update book_listings set created_at = now() - make_interval(hours => $2::int) where id = $1`,
      [id[n], hours],
    );
}

describe('relevance', () => {
  it('is the default with words: a title match above a description match, newest first among equals', async () => {
    await more();
    expect(await ids('q=giardino')).toEqual([21, 20]);
    expect(await ids('q=giardino&sort=relevance')).toEqual([21, 20]);
    // Newest keeps its order when asked.
    expect(await ids('q=giardino&sort=newest')).toEqual([20, 21]);
    // Author over description.
    expect(await ids('q=bassani')).toEqual([21]);
  });

  it('puts the exact phrase first, and whole words above prefixes', async () => {
    await more();
    const phrase = await ids('q=il%20nome%20della%20rosa&status=all');
    expect(phrase[0]).toBe(1);
    expect(phrase).toContain(22);
    expect(await ids('q=il%20nome%20della%20rosa&sort=newest')).toEqual([22, 1]);
    // "rosa" is a whole word of 22's and 1's titles, only a prefix of 25's (Rosaria), newer than 1.
    expect(await ids('q=rosa')).toEqual([22, 1, 25]);
    expect(await ids('q=rosa&sort=newest')).toEqual([22, 25, 1]);
  });

  it('leaves the stop words of either language out of the match when other words are typed', async () => {
    await more();
    const rosa = await ids('q=rosa');
    // No listing has a word starting with "la" or "the": the stop words no longer narrow.
    expect(await ids('q=la%20rosa')).toEqual(rosa);
    expect(await ids('q=the%20rosa')).toEqual(rosa);
    expect(await ids('q=Perch%C3%A9%20rosa')).toEqual(rosa);
    // Only stop words: matched as whole words ("il" is in 21's title, not in 24's; 26's
    // "Illusioni" starts with it, as its "Andrea" and "Herbert" start with "and" and "her").
    const il = await ids('q=il&status=all');
    expect(il).toContain(21);
    expect(il).not.toContain(24);
    expect(il).not.toContain(26);
    expect(await ids('q=and%20her&status=all')).toEqual([]);
    expect(await ids('q=illusioni&status=all')).toEqual([26]);
  });

  it('pages words in price order from the read that counts them', async () => {
    await more();
    const prices = async (sort: string) =>
      ((await list(`q=rosa&sort=${sort}`)).json().items as { price: number | null }[]).map(
        (i) => i.price,
      );
    const asc = await prices('price_asc');
    expect(asc.length).toBeGreaterThan(1);
    const priced = asc.filter((p) => p !== null);
    expect(priced).toEqual([...priced].sort((a, b) => a - b));
    // Trade-only listings (no price) last either way.
    expect(asc.slice(priced.length).every((p) => p === null)).toBe(true);
    const desc = await prices('price_desc');
    expect(desc.filter((p) => p !== null)).toEqual([...priced].reverse());
    expect(await ids('q=rosa&sort=price_asc&pageSize=1&page=2')).toEqual(
      (await ids('q=rosa&sort=price_asc')).slice(1, 2),
    );
  });

  it('orders as newest without words, whatever the sort says', async () => {
    await more();
    expect(await ids('sort=relevance&genre=fantasy')).toEqual(await ids('genre=fantasy'));
    expect(await ids('sort=relevance&genre=fantasy')).toEqual([3, 4, 9]);
  });

  it('matches Italian and English stems', async () => {
    await more();
    expect(await ids('q=libro')).toEqual([23]);
    expect(await ids('q=libri')).toEqual([23]);
    expect(await ids('q=running')).toEqual([24]);
    expect(await ids('q=runs')).toEqual([24]);
    // Accents ignored as before, stems too.
    expect(await ids('q=libr%C3%AC')).toEqual([23]);
  });

  it('corrects a word off by two letters, and names the correction', async () => {
    await more();
    // Two transposed letters: four edits away from nothing but two from "acemoglu".
    const two = await list('q=Acmeoglu');
    expect(two.json().correctedQ).toBe('acemoglu');
    expect(await ids('q=Acmeoglu')).toEqual([5]);
    // Per word: the known word stays as typed, the unknown one is corrected.
    const one = await list('q=Svevo%20Zenno');
    expect(one.json().correctedQ).toBe('Svevo zeno');
    expect(one.json().total).toBe(1);
    // Three edits in a short word is too far.
    expect((await list('q=Zxyo')).json()).toMatchObject({ total: 0 });
    expect((await list('q=Zxyo')).json().correctedQ).toBeUndefined();
  });

  it('never answers 500 to odd words', async () => {
    for (const q of [
      '%00',
      '%C2%BD%20%EF%AC%81%20%C3%9F%20%C3%86',
      ':*%26|!()',
      '%F0%9F%93%9A',
      'a'.repeat(200),
    ]) {
      const res = await list(`q=${q}&facets=1`);
      expect([200, 400], `${q}: ${res.body}`).toContain(res.statusCode);
    }
  });
});

describe('the condition filter', () => {
  it('keeps the listings in that condition, counted exactly', async () => {
    await more();
    expect(await ids('condition=likeNew&sort=newest')).toEqual([3, 8, 24]);
    expect(await ids('condition=good&genre=fantasy')).toEqual([4, 9]);
    expect(await ids('condition=good&q=harry')).toEqual([4, 9]);
    expect((await list('condition=poor&status=all')).json().total).toBe(2);
    const bad = await list('condition=mint', 'it');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.condition).toBe('Seleziona una condizione');
    expect((await list('condition=mint')).json().error.fields.condition).toBe(
      'Please select a condition',
    );
  });
});

describe('facet counts', () => {
  /** Each facet value's count is the total of the same search with that value as its filter. */
  async function expectFacetsMatch(query: string) {
    const res = await list(`${query}&facets=1`);
    expect(res.statusCode, res.body).toBe(200);
    const body = listingPageSchema.parse(res.json());
    const facets = body.facets as Facets;
    const without = (keys: string[]) =>
      query
        .split('&')
        .filter((p) => p && !keys.includes(p.split('=')[0]))
        .join('&');
    const total = async (q: string) => (await list(`${q}&pageSize=1`)).json().total as number;
    expect(facets.genres.map((g) => g.value)).toEqual([...MARKET_GENRES]);
    for (const g of facets.genres)
      expect(g.count, `${query} genre ${g.value}`).toBe(
        await total(`${without(['genre'])}&genre=${g.value}`),
      );
    expect(facets.types.map((g) => g.value)).toEqual([...LISTING_TYPES]);
    for (const g of facets.types)
      expect(g.count, `${query} type ${g.value}`).toBe(
        await total(`${without(['type'])}&type=${g.value}`),
      );
    expect(facets.conditions.map((g) => g.value)).toEqual([...CONDITIONS]);
    for (const g of facets.conditions)
      expect(g.count, `${query} condition ${g.value}`).toBe(
        await total(`${without(['condition'])}&condition=${g.value}`),
      );
    for (const b of facets.priceBands) {
      // [min, max): prices have cents; 0.01 keeps the listings without a price out.
      const range = `minPrice=${Math.max(b.min, 0.01)}${b.max === null ? '' : `&maxPrice=${b.max - 0.01}`}`;
      expect(b.count, `${query} band ${b.min}`).toBe(
        await total(`${without(['minPrice', 'maxPrice'])}&${range}`),
      );
    }
  }

  const queries = [
    '',
    'status=all',
    'genre=fiction',
    'genre=fantasy&condition=good',
    'type=sell&minPrice=9.75&maxPrice=25',
    'maxPrice=12.5',
    'q=harry',
    'q=il&type=trade',
    'author=rowling&status=all',
  ];

  it('count each value under every filter but its own, and follow inserts, status changes and deletes', async () => {
    await more();
    for (const q of queries) await expectFacetsMatch(q);
    // The shapes whose counts come from the counts table's triggers or from the matches.
    const check = async () => {
      for (const q of ['', 'q=harry', 'genre=fantasy&condition=good', queries[4]])
        await expectFacetsMatch(q);
    };
    const [{ id: added }] = await t.database.query<{ id: string }>(
      `insert into book_listings (book_id, user_id, title, author, genre, listing_type, price, condition)
       select book_id, 'marco', 'Harry Potter e il principe', 'J.K. Rowling', 'fantasy', 'both', 9.99, 'fair'
       from book_listings where id = $1 returning id`,
      [id[3]],
    );
    advanceClock(11_000);
    await check();
    await t.database.query(
      `update book_listings set status = 'sold', condition = 'new' where id = $1`,
      [added],
    );
    advanceClock(11_000);
    await check();
    await t.database.query('delete from book_listings where id = $1', [added]);
    advanceClock(11_000);
    await check();
    // Spot values, as a reader sees them.
    const { facets } = (await list('facets=1')).json();
    expect(facets.genres.find((g: { value: string }) => g.value === 'fantasy').count).toBe(3);
    expect(facets.types).toEqual([
      { value: 'sell', count: 11 },
      { value: 'trade', count: 4 },
      { value: 'both', count: 2 },
    ]);
  }, 180_000);

  it('are left out unless asked for, and facets must be 1', async () => {
    expect((await list('')).json().facets).toBeUndefined();
    const bad = await list('facets=yes');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.facets).toBe('Invalid facets value: use 1');
  });
});

describe('totals of word searches', () => {
  it(`count up to ${SEARCH_COUNT_CAP} and say "more than" past it; exact without words`, async () => {
    await more();
    const n = SEARCH_COUNT_CAP + 5;
    await t.database.query(
      `insert into book_listings (book_id, user_id, title, author, genre, listing_type, price, condition)
       select book_id, 'marco', 'Zibaldone ' || g, 'Giacomo Leopardi', 'poetry', 'sell', 3 + g % 40, 'good'
       from book_listings, generate_series(1, $2::int) g where id = $1`,
      [id[1], n],
    );
    try {
      advanceClock(11_000);
      const capped = listingPageSchema.parse((await list('q=zibaldone')).json());
      expect(capped.total).toBe(SEARCH_COUNT_CAP);
      expect(capped.totalCapped).toBe(true);
      expect(capped.items).toHaveLength(24);
      // Past the cap, the price bounds of the filters without the words.
      expect(capped.priceBounds).toEqual((await list('')).json().priceBounds);
      // Under the cap: exact, and not capped.
      const few = (await list('q=zibaldone&maxPrice=4.5')).json();
      expect(few.total).toBe(
        Array.from({ length: n }, (_, i) => 3 + ((i + 1) % 40)).filter((p) => p <= 4.5).length,
      );
      expect(few.totalCapped).toBeUndefined();
      // Without words: exact, whatever the number.
      const all = (await list('genre=poetry')).json();
      expect(all.total).toBe(n + 1);
      expect(all.totalCapped).toBeUndefined();
      // Past the cap, relevance orders as newest (ranking would read every match).
      expect(await ids('q=zibaldone')).toEqual(await ids('q=zibaldone&sort=newest'));
      // Facets past the cap: counts of the matches read, and say so.
      const { facets } = (await list('q=zibaldone&facets=1')).json();
      expect(facets.capped).toBe(true);
      const poetry = facets.genres.find((g: { value: string }) => g.value === 'poetry').count;
      expect(poetry).toBeGreaterThanOrEqual(SEARCH_COUNT_CAP);
      expect(poetry).toBeLessThanOrEqual(n);
      // Under the cap they are exact and not capped.
      const exact = (await list('q=zibaldone%201&facets=1')).json().facets;
      expect(exact.capped).toBeUndefined();
      // Past the cap with a price range (the matches estimated from the share of the table
      // read, then read on the words' index and the range checked on them): the pages are those
      // of the filtered listings, newest first, and the totals agree with them.
      const priced = async (query: string, where: string, order = 'created_at desc, id desc') => {
        const rows = await t.database.query<{ id: string }>(
          `select id from book_listings where title like 'Zibaldone %' and ${where}
           order by ${order}`,
        );
        const got: string[] = [];
        for (let page = 1; page <= Math.ceil(Math.min(rows.length, 120) / 60); page++) {
          const body = listingPageSchema.parse(
            (await list(`${query}&pageSize=60&page=${page}`)).json(),
          );
          got.push(...body.items.map((i) => i.id));
          if (rows.length > SEARCH_COUNT_CAP) {
            expect(body.total).toBe(SEARCH_COUNT_CAP);
            expect(body.totalCapped).toBe(true);
          } else {
            expect(body.total).toBe(rows.length);
            expect(body.totalCapped).toBeUndefined();
          }
        }
        expect(got).toEqual(rows.slice(0, 120).map((r) => r.id));
      };
      await priced('q=zibaldone&minPrice=3&maxPrice=40', 'price >= 3 and price <= 40');
      await priced('q=zibaldone&minPrice=10&maxPrice=14&sort=newest', 'price between 10 and 14');
      await priced('q=zibaldone&minPrice=41.5', 'price >= 41.5');
      await priced(
        'q=zibaldone&minPrice=10&maxPrice=14&sort=price_asc',
        'price between 10 and 14',
        'price asc, created_at desc, id desc',
      );
      await priced(
        'q=zibaldone&maxPrice=20&sort=price_desc',
        'price <= 20',
        'price desc, created_at desc, id desc',
      );
      // Every page is reachable in relevance and in newest order alike.
      const deep = (await list(`q=zibaldone&pageSize=60&page=${Math.ceil(n / 60)}`)).json();
      expect(deep.items).toHaveLength(n % 60 || 60);
    } finally {
      await t.database.query(`delete from book_listings where title like 'Zibaldone %'`);
      advanceClock(11_000);
    }
  });
});
