import { describe, expect, it } from 'vitest';
import { t, advanceClock, id, list, ids, useFixture } from './routes.fixture';

useFixture();

describe('GET /api/listings', () => {
  it('shows available listings newest first by default, with total, paging and cards', async () => {
    const res = await list('');
    const body = res.json();
    expect(body.total).toBe(7);
    expect(body.page).toBe(1);
    expect(body.pageSize).toBe(24);
    expect(await ids('')).toEqual([1, 2, 3, 4, 5, 8, 9]);
    expect(body.items[0]).toMatchObject({
      title: 'Il nome della rosa',
      author: 'Umberto Eco',
      genre: 'fiction',
      listingType: 'sell',
      price: 15,
      currency: 'EUR',
      status: 'available',
      isActive: true,
      condition: 'good',
      coverUrl: null,
      seller: { id: 'anna', displayName: 'Anna Rossi', username: 'anna' },
    });
  });

  it('filters by status; all means any', async () => {
    expect((await list('status=all')).json().total).toBe(9);
    expect(await ids('status=sold')).toEqual([6]);
    expect(await ids('status=unavailable')).toEqual([7]);
    expect(await ids('status=reserved')).toEqual([]);
  });

  it('searches title, author and description as word prefixes, ignoring accents and case', async () => {
    expect(await ids('q=rosa')).toEqual([1]);
    expect(await ids('q=ABBAZIA')).toEqual([1]);
    expect(await ids('q=harry%20pot&sort=newest')).toEqual([3, 4, 9]);
    expect(await ids('q=perche')).toEqual([5]);
    expect(await ids('q=acemoglu')).toEqual([5]);
    expect(await ids('q=svevo%20zeno')).toEqual([2]);
    expect(await ids('q=montanelli&status=all')).toEqual([6]);
    expect(await ids('q=%27%3B%20drop%20table%20book_listings%3B%20--')).toEqual([]);
  });

  it('forgives typos when the words match nothing', async () => {
    expect(await ids('q=Hary%20Poter')).toEqual([3, 4, 9]);
    expect(await ids('q=Umbreto%20Eco')).toEqual([1]);
    expect(await ids('q=qwxzv')).toEqual([]);
  });

  it('filters by author (part of the name, accents ignored), genre and type', async () => {
    expect(await ids('author=rowling')).toEqual([3, 4, 9]);
    expect(await ids('author=Acemoglu')).toEqual([5]);
    expect(await ids('author=%25')).toEqual([]);
    expect(await ids('genre=fantasy')).toEqual([3, 4, 9]);
    expect(await ids('genre=comics')).toEqual([]);
    expect(await ids('type=sell')).toEqual([1, 2, 3, 5, 8, 9]);
    expect(await ids('type=trade')).toEqual([2, 4]);
    expect(await ids('type=both')).toEqual([2]);
    expect(await ids('genre=fantasy&type=sell&author=rowling')).toEqual([3, 9]);
  });

  it('filters by price: trade-only listings stay unless a minimum above 0 is asked', async () => {
    expect(await ids('minPrice=10&maxPrice=30')).toEqual([1, 3, 5, 9]);
    expect(await ids('minPrice=0&maxPrice=10')).toEqual([2, 4]);
    expect(await ids('maxPrice=12')).toEqual([2, 4, 9]);
    expect(await ids('minPrice=12.5')).toEqual([1, 3, 5, 8]);
  });

  it('reports price bounds under every filter but the price range', async () => {
    expect((await list('')).json().priceBounds).toEqual({ min: 8, max: 40 });
    expect((await list('minPrice=20&maxPrice=30')).json().priceBounds).toEqual({ min: 8, max: 40 });
    expect((await list('genre=fantasy')).json().priceBounds).toEqual({ min: 12, max: 25 });
    expect((await list('status=all')).json().priceBounds).toEqual({ min: 5, max: 50 });
    // Nothing priced: the default range.
    expect((await list('q=qwxzv')).json().priceBounds).toEqual({ min: 0, max: 1000 });
  });

  it('sorts by price either way, listings without a price last', async () => {
    expect(await ids('sort=price_asc')).toEqual([2, 9, 1, 3, 5, 8, 4]);
    expect(await ids('sort=price_desc')).toEqual([8, 5, 3, 1, 9, 2, 4]);
    expect(await ids('sort=newest')).toEqual([1, 2, 3, 4, 5, 8, 9]);
  });

  it('pages through the results', async () => {
    const second = await list('pageSize=2&page=2');
    expect(second.json()).toMatchObject({ total: 7, page: 2, pageSize: 2 });
    expect(await ids('pageSize=2&page=2')).toEqual([3, 4]);
    expect(await ids('pageSize=2&page=4')).toEqual([9]);
    expect(await ids('pageSize=2&page=5')).toEqual([]);
    expect(await ids('pageSize=60')).toHaveLength(7);
    // Few matches are found then sorted, many read in index order: the same pages either way.
    const pages: number[] = [];
    for (const p of [1, 2, 3, 4])
      pages.push(...(await ids(`q=harry&sort=price_asc&pageSize=1&page=${p}`)));
    expect(pages).toEqual([9, 3, 4]);
  });

  it('counts every match exactly, whole and partial euros of a price range alike, and follows changes', async () => {
    const queries = [
      '',
      'status=all',
      'status=sold',
      'genre=fantasy',
      'type=sell',
      'type=trade&status=all',
      'genre=fantasy&type=sell',
      'minPrice=10&maxPrice=30',
      'minPrice=0&maxPrice=10',
      'maxPrice=12',
      'maxPrice=12.5',
      'minPrice=12.5',
      'minPrice=12.5&maxPrice=12.9',
      'minPrice=8&maxPrice=8',
      'minPrice=7.99&maxPrice=8.01&status=all',
      'minPrice=5&status=all&type=sell',
      'q=harry&maxPrice=24.99',
      'author=rowling&minPrice=12',
    ];
    const check = async () => {
      for (const query of queries) {
        const res = await list(`${query}&pageSize=60`);
        expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
        expect(res.json().total, query).toBe(res.json().items.length);
      }
    };
    await check();
    // A new listing, then sold at another price, then gone: totals follow once the 10 s pass.
    const [{ id: added }] = await t.database.query<{ id: string }>(
      `insert into book_listings (book_id, user_id, title, author, genre, listing_type, price)
       select book_id, 'marco', 'Harry Potter', 'J.K. Rowling', 'fantasy', 'sell', 12.75
       from book_listings where id = $1 returning id`,
      [id[3]],
    );
    advanceClock(11_000);
    await check();
    expect((await list('genre=fantasy')).json().total).toBe(4);
    await t.database.query(`update book_listings set status = 'sold', price = 8.5 where id = $1`, [
      added,
    ]);
    advanceClock(11_000);
    await check();
    expect((await list('status=sold&maxPrice=9')).json().total).toBe(1);
    await t.database.query('delete from book_listings where id = $1', [added]);
    advanceClock(11_000);
    await check();
    expect((await list('genre=fantasy')).json().total).toBe(3);
    // What the trigger kept is what a recount finds.
    const counts = () =>
      t.database.query(
        `select status, genre, listing_type, price_floor, n::int from listing_counts
         where n <> 0 order by 1, 2, 3, 4`,
      );
    const kept = await counts();
    await t.database.query('select refresh_listing_counts()');
    expect(await counts()).toEqual(kept);
  });

  it('refuses bad filters with 400 and a clear message, never 500', async () => {
    const cases: [string, string, string][] = [
      ['minPrice=abc', 'minPrice', 'Minimum price must be a number between 0 and 100000'],
      ['maxPrice=-1', 'maxPrice', 'Maximum price must be a number between 0 and 100000'],
      [
        'minPrice=20&maxPrice=10',
        'maxPrice',
        'Maximum price must be greater than or equal to the minimum price',
      ],
      [`q=${'a'.repeat(201)}`, 'q', 'The search text can be at most 200 characters'],
      ['page=0', 'page', 'Page must be a whole number of 1 or more'],
      ['page=1.5', 'page', 'Page must be a whole number of 1 or more'],
      ['page=abc', 'page', 'Page must be a whole number of 1 or more'],
      ['pageSize=1000', 'pageSize', 'Page size must be a whole number between 1 and 60'],
      ['pageSize=0', 'pageSize', 'Page size must be a whole number between 1 and 60'],
      ['genre=westerns', 'genre', 'Unknown genre'],
      ['type=rent', 'type', 'Unknown listing type'],
      ['sort=oldest', 'sort', 'Unknown sort order. Use relevance, newest, price_asc or price_desc'],
      [
        'status=lost',
        'status',
        'Unknown status. Use all, available, reserved, sold, traded or unavailable',
      ],
    ];
    for (const [query, field, message] of cases) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.fields[field], query).toBe(message);
    }
    const italian = await list('minPrice=abc', 'it');
    expect(italian.json().error.fields.minPrice).toBe(
      'Il prezzo minimo deve essere un numero tra 0 e 100000',
    );
    // 200 characters is fine.
    expect((await list(`q=${'a'.repeat(200)}`)).statusCode).toBe(200);
  });
});
