import { beforeAll, describe, expect, it } from 'vitest';
import { listingPageSchema } from '@shared/marketplace';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember } from '../../test/members';

let t: TestApp;
/** The app's clock: moved forward past the shelves' 30 s cache. */
let clock = Date.now();
/** Listing ids by their number in the table below. */
const id: Record<number, string> = {};

interface Seed {
  n: number;
  title: string;
  author: string;
  genre: string;
  type: 'sell' | 'trade' | 'both';
  price: number | null;
  condition: string;
  status?: string;
  description?: string;
  /** Same catalogue book as listing n. */
  sameBookAs?: number;
  seller?: 'anna' | 'marco';
}

// Listing n was listed n days ago.
const seeds: Seed[] = [
  {
    n: 1,
    title: 'Il nome della rosa',
    author: 'Umberto Eco',
    genre: 'fiction',
    type: 'sell',
    price: 15,
    condition: 'good',
    description: "Un giallo medievale in un'abbazia",
  },
  {
    n: 2,
    title: 'La coscienza di Zeno',
    author: 'Italo Svevo',
    genre: 'fiction',
    type: 'both',
    price: 8,
    condition: 'fair',
  },
  {
    n: 3,
    title: 'Harry Potter e la pietra filosofale',
    author: 'J.K. Rowling',
    genre: 'fantasy',
    type: 'sell',
    price: 25,
    condition: 'likeNew',
  },
  {
    n: 4,
    title: 'Harry Potter e la camera dei segreti',
    author: 'J.K. Rowling',
    genre: 'fantasy',
    type: 'trade',
    price: null,
    condition: 'good',
  },
  {
    n: 5,
    title: 'Perché le nazioni falliscono',
    author: 'Daron Acemoğlu',
    genre: 'business',
    type: 'sell',
    price: 30,
    condition: 'new',
  },
  {
    n: 6,
    title: "Storia d'Italia",
    author: 'Indro Montanelli',
    genre: 'history',
    type: 'sell',
    price: 50,
    condition: 'new',
    status: 'sold',
  },
  {
    n: 7,
    title: 'Il piccolo principe',
    author: 'Antoine de Saint-Exupéry',
    genre: 'children',
    type: 'sell',
    price: 5,
    condition: 'poor',
    status: 'unavailable',
  },
  {
    n: 8,
    title: 'Analisi matematica 1',
    author: 'Enrico Giusti',
    genre: 'textbook',
    type: 'sell',
    price: 40,
    condition: 'likeNew',
  },
  {
    n: 9,
    title: 'Harry Potter e la pietra filosofale',
    author: 'J.K. Rowling',
    genre: 'fantasy',
    type: 'sell',
    price: 12,
    condition: 'good',
    sameBookAs: 3,
    seller: 'marco',
  },
];

async function seed(test: TestApp, rows: Seed[], offsetDays = 0) {
  for (const s of rows) {
    let bookId: string;
    if (s.sameBookAs) {
      [{ book_id: bookId }] = await test.database.query<{ book_id: string }>(
        'select book_id from book_listings where id = $1',
        [id[s.sameBookAs]],
      );
    } else {
      [{ id: bookId }] = await test.database.query<{ id: string }>(
        `insert into books (title, authors, author) values ($1, array[$2], $2) returning id`,
        [s.title, s.author],
      );
    }
    const [row] = await test.database.query<{ id: string }>(
      `insert into book_listings (book_id, user_id, title, author, genre, listing_type, price,
         condition, status, description, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() - make_interval(days => $11::int))
       returning id`,
      [
        bookId,
        s.seller ?? 'anna',
        s.title,
        s.author,
        s.genre,
        s.type,
        s.price,
        s.condition,
        s.status ?? 'available',
        s.description ?? null,
        s.n + offsetDays,
      ],
    );
    id[s.n] = row.id;
  }
}

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => new Date(clock) } });
  await t.database.query(
    `insert into users (id, email, display_name, username) values
       ('anna', 'anna@example.com', 'Anna Rossi', 'anna'),
       ('marco', 'marco@example.com', 'Marco Bianchi', 'marco')`,
  );
  await seed(t, seeds);
});

async function list(query: string, lang = 'en') {
  const res = await t.inject({
    method: 'GET',
    url: `/api/listings${query ? `?${query}` : ''}`,
    headers: { 'accept-language': lang },
  });
  return res;
}
async function ids(query: string): Promise<number[]> {
  const res = await list(query);
  expect(res.statusCode, res.body).toBe(200);
  const byId = Object.fromEntries(Object.entries(id).map(([n, v]) => [v, Number(n)]));
  return res.json().items.map((i: { id: string }) => byId[i.id]);
}

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
    expect(await ids('q=harry%20pot')).toEqual([3, 4, 9]);
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
    clock += 11_000;
    await check();
    expect((await list('genre=fantasy')).json().total).toBe(4);
    await t.database.query(`update book_listings set status = 'sold', price = 8.5 where id = $1`, [
      added,
    ]);
    clock += 11_000;
    await check();
    expect((await list('status=sold&maxPrice=9')).json().total).toBe(1);
    await t.database.query('delete from book_listings where id = $1', [added]);
    clock += 11_000;
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
      ['sort=oldest', 'sort', 'Unknown sort order. Use newest, price_asc or price_desc'],
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
    clock += 31_000;
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
    clock += 4_001;
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
