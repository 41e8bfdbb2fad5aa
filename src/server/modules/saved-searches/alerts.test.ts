import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { libraryQueryOf, type SavedSearchFiltersInput } from '@shared/schemas/savedSearches';
import { createTestApp, type TestApp } from '../../test/app';
import { callAs, createMember, type Member } from '../../test/members';
import { recordUserPushes } from '../../test/notifications';
import { savedSearchAlertsSettled } from './alerts';
import { insertSearches } from './queries';

let t: TestApp;
let ada: Member;
let bruno: Member;
let carla: Member;
const call = callAs(() => t);
const live = recordUserPushes((e) => e.type === 'notification.new');

beforeAll(async () => {
  t = await createTestApp({ deps: { realtime: live.realtime } });
  [ada, bruno, carla] = await Promise.all([
    createMember(t, { displayName: 'Ada' }),
    createMember(t, { displayName: 'Bruno' }),
    createMember(t, { displayName: 'Carla' }),
  ]);
});

beforeEach(async () => {
  await savedSearchAlertsSettled();
  await t.database.query('delete from notifications');
  await t.database.query('delete from saved_searches');
  await t.database.query('delete from book_listings');
  await t.database.query('delete from blocks');
  live.pushed.length = 0;
});

async function save(who: Member, filters: SavedSearchFiltersInput, name = 'search') {
  const res = await call(who, 'POST', '/api/me/saved-searches', { name, filters });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

interface Book {
  title: string;
  author: string;
  genre?: string;
  listingType?: 'sell' | 'trade' | 'both';
  condition?: string;
  price?: number | null;
  description?: string;
}
async function list(who: Member, b: Book) {
  const type = b.listingType ?? 'sell';
  const res = await call(who, 'POST', '/api/listings', {
    mode: 'full',
    genre: 'fiction',
    description: 'Buone condizioni',
    listingType: type,
    ...(type === 'trade' ? {} : { price: 8 }),
    ...b,
  });
  expect(res.statusCode, res.body).toBe(201);
  await savedSearchAlertsSettled();
  return res.json().id as string;
}

/** The saved-search notifications a member can read, as the bell lists them. */
async function told(who: Member) {
  const res = await call(who, 'GET', '/api/notifications');
  return (
    res.json().items as { type: string; subject: { id: string }; link: string; data: object }[]
  ).filter((n) => n.type === 'savedSearch.match');
}

describe('a new listing against saved searches', () => {
  it('tells the member live, with the book, the search and a link to the library with it', async () => {
    await save(ada, { q: 'harr pott', type: 'sell', maxPrice: 10 }, 'Potter cheap');
    const id = await list(bruno, {
      title: 'Harry Potter e la pietra filosofale',
      author: 'J. K. Rowling',
    });
    const [n] = await told(ada);
    expect(n).toMatchObject({
      subject: { id },
      data: { title: 'Harry Potter e la pietra filosofale', search: 'Potter cheap' },
      link: '/library?q=harr+pott&type=sell&maxPrice=10',
    });
    expect(live.pushed.some((p) => p.userIds.includes(ada.id))).toBe(true);
    const it_ = await call(ada, 'GET', '/api/notifications', undefined, 'it');
    expect(it_.statusCode).toBe(200);
  });

  it('reads words as the library does: prefixes, accents and case aside, every word needed', async () => {
    await save(ada, { q: 'perche' });
    await save(carla, { q: 'harry hole' });
    await list(bruno, { title: 'Perché il mondo', author: 'Anna Rossi' });
    await list(bruno, { title: 'Harry Potter', author: 'Rowling' });
    expect(await told(ada)).toHaveLength(1);
    expect(await told(carla)).toHaveLength(0);
  });

  it('matches the author as a part of it, and the description words', async () => {
    await save(ada, { author: 'garcia marq' });
    await save(carla, { q: 'macondo' });
    await list(bruno, {
      title: 'Cent’anni di solitudine',
      author: 'Gabriel García Márquez',
      description: 'La saga dei Buendía a Macondo',
    });
    expect(await told(ada)).toHaveLength(1);
    expect(await told(carla)).toHaveLength(1);
  });

  it('applies genre, type, condition and price as the library does', async () => {
    await save(ada, { genre: 'fantasy', type: 'trade' }, 'fantasy trade');
    await save(carla, { genre: 'fantasy', condition: 'new', minPrice: 5 }, 'new fantasy from 5');
    await list(bruno, {
      title: 'Il Trono di Spade',
      author: 'Martin',
      genre: 'fantasy',
      listingType: 'both',
      price: 3,
    });
    expect(await told(ada)).toHaveLength(1); // 'both' can be traded
    expect(await told(carla)).toHaveLength(0); // condition good, price 3
    await list(bruno, {
      title: 'Eragon',
      author: 'Paolini',
      genre: 'fantasy',
      listingType: 'sell',
      condition: 'new',
      price: 6,
    });
    expect(await told(ada)).toHaveLength(1); // sell only
    expect(await told(carla)).toHaveLength(1);
  });

  it('a trade listing (no price) fits a maximum price, not a minimum above 0', async () => {
    await save(ada, { q: 'dune', maxPrice: 5 });
    await save(carla, { q: 'dune', minPrice: 1 });
    await list(bruno, { title: 'Dune', author: 'Herbert', listingType: 'trade' });
    expect(await told(ada)).toHaveLength(1);
    expect(await told(carla)).toHaveLength(0);
  });

  it('never tells the seller, across a block, or for a search whose alerts are off', async () => {
    await save(bruno, { q: 'gattopardo' });
    await save(ada, { q: 'gattopardo' });
    const off = await save(carla, { q: 'gattopardo' });
    expect(
      (await call(carla, 'PATCH', `/api/me/saved-searches/${off}`, { notify: false })).statusCode,
    ).toBe(200);
    expect((await call(ada, 'PUT', `/api/blocks/${bruno.id}`)).statusCode).toBeLessThan(300);
    await list(bruno, { title: 'Il Gattopardo', author: 'Tomasi di Lampedusa' });
    expect(await told(bruno)).toHaveLength(0);
    expect(await told(ada)).toHaveLength(0);
    expect(await told(carla)).toHaveLength(0);
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from saved_search_matches',
    );
    expect(n).toBe(0);
  });

  it('tells a member once per listing, even for two searches or when it is listed again', async () => {
    await save(ada, { q: 'rosa' }, 'first');
    await save(ada, { author: 'eco' }, 'second');
    const id = await list(bruno, { title: 'Il nome della rosa', author: 'Umberto Eco' });
    expect(await told(ada)).toHaveLength(1);
    expect((await told(ada))[0].data).toMatchObject({ search: 'first' });
    for (const status of ['reserved', 'available']) {
      const res = await call(bruno, 'POST', `/api/listings/${id}/status`, { status });
      expect(res.statusCode, res.body).toBe(200);
    }
    await savedSearchAlertsSettled();
    expect(await told(ada)).toHaveLength(1);
  });

  it('a listing available again is matched against searches saved meanwhile', async () => {
    const id = await list(bruno, { title: 'Lessico famigliare', author: 'Natalia Ginzburg' });
    await call(bruno, 'POST', `/api/listings/${id}/status`, { status: 'reserved' });
    await save(ada, { q: 'lessico' });
    await call(bruno, 'POST', `/api/listings/${id}/status`, { status: 'available' });
    await savedSearchAlertsSettled();
    expect(await told(ada)).toHaveLength(1);
  });

  it('the member no longer sees the notification once the listing is sold', async () => {
    await save(ada, { q: 'solaris' });
    const id = await list(bruno, { title: 'Solaris', author: 'Lem' });
    expect(await told(ada)).toHaveLength(1);
    await call(bruno, 'POST', `/api/listings/${id}/status`, { status: 'sold' });
    expect(await told(ada)).toHaveLength(0);
  });
});

describe('matching finds what the library finds', () => {
  // Each search belongs to its own member (a member is told once per listing); the library is
  // asked with the same filters (exact=1: no typo correction) whether it shows the listing.
  const searches: SavedSearchFiltersInput[] = [
    { q: 'il' },
    { q: 'rosa eco' },
    { q: 'nom ros' },
    { q: "l'amica" },
    { q: 'GENIALE' },
    { q: 'solitudine', maxPrice: 10 },
    { author: 'eco' },
    { author: 'ferrante' },
    { author: 'márquez' },
    { genre: 'fiction', minPrice: 9 },
    { genre: 'mystery' },
    { type: 'trade', q: 'il' },
    { type: 'both' },
    { minPrice: 0, maxPrice: 8 },
    { q: 'zzz' },
    { q: 'àmica' },
  ];
  const books: Book[] = [
    { title: 'Il nome della rosa', author: 'Umberto Eco', genre: 'mystery', price: 12 },
    { title: "L'amica geniale", author: 'Elena Ferrante', listingType: 'both', price: 7 },
    { title: 'Cent’anni di solitudine', author: 'Gabriel García Márquez', price: 9.5 },
    { title: 'Il pendolo di Foucault', author: 'Umberto Eco', listingType: 'trade' },
    { title: 'Ecologia della mente', author: 'Gregory Bateson', genre: 'nonFiction', price: 20 },
  ];

  it('for every pair of saved search and new listing', async () => {
    const members = await Promise.all(searches.map(() => createMember(t)));
    for (const [i, f] of searches.entries()) await save(members[i], f);
    const mismatches: string[] = [];
    let pairs = 0;
    for (const b of books) {
      const id = await list(bruno, b);
      const rows = await t.database.query<{ user_id: string }>(
        'select user_id from saved_search_matches where listing_id = $1',
        [id],
      );
      const matched = new Set(rows.map((r) => r.user_id));
      for (const [i, f] of searches.entries()) {
        const res = await call(
          members[i],
          'GET',
          `/api/listings?${libraryQueryOf(f as never)}&exact=1&pageSize=60`,
        );
        expect(res.statusCode, res.body).toBe(200);
        const shown = (res.json().items as { id: string }[]).some((l) => l.id === id);
        if (shown) pairs++;
        if (shown !== matched.has(members[i].id))
          mismatches.push(`${JSON.stringify(f)} × ${b.title}: library ${shown}, matched ${!shown}`);
      }
    }
    expect(mismatches).toEqual([]);
    // Not a vacuous agreement: many pairs match, many do not.
    expect(pairs).toBeGreaterThan(15);
    expect(pairs).toBeLessThan(searches.length * books.length - 15);
  }, 120_000);
});

describe('the keys a search is found by', () => {
  it('are the same saved one by one or in bulk (the demo seed and the benchmark)', async () => {
    const cases: SavedSearchFiltersInput[] = [
      { q: "L'amica  Geniale" },
      { author: 'García Márquez' },
      { genre: 'poetry', maxPrice: 5 },
      { type: 'trade' },
    ];
    for (const [i, f] of cases.entries()) await save(ada, f, `one ${i}`);
    await insertSearches(
      t.database,
      cases.map((f, i) => ({ userId: carla.id, name: `bulk ${i}`, filters: f as never })),
    );
    const keys = async (who: Member) =>
      (
        await t.database.query<{ keys: string[]; query: string | null }>(
          `select keys, query::text as query from saved_searches where user_id = $1
           order by name`,
          [who.id],
        )
      ).map((r) => ({ keys: [...r.keys].sort(), query: r.query }));
    const one = await keys(ada);
    expect(one).toEqual(await keys(carla));
    expect(one.map((r) => r.keys)).toEqual([
      ['w:amica', 'w:geniale', 'w:l'],
      ['a:gar'],
      ['g:poetry'],
      ['g:*'],
    ]);
  });
});
