import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { callAs, createMember, type Member } from '../../test/members';
import {
  startFakeGoogleBooks,
  type FakeGoogleBooks,
} from '../../test/google-books/fake-google-books';

let fake: FakeGoogleBooks;
let t: TestApp;
let ada: Member;
let bruno: Member;

beforeAll(async () => {
  fake = await startFakeGoogleBooks();
  t = await createTestApp({
    config: {
      dataDir: mkdtempSync(join(tmpdir(), 'scaffale-wishlist-')),
      googleBooks: { baseUrl: fake.url, apiKey: '', enabled: true, timeoutMs: 1500 },
    },
  });
  [ada, bruno] = await Promise.all([
    createMember(t, { username: 'ada_wish', displayName: 'Ada Lovelace' }),
    createMember(t, { username: 'bruno_wish', displayName: 'Bruno Bianchi' }),
  ]);
});
afterAll(() => fake.close());

beforeEach(async () => {
  await t.database.query('delete from wishlist_items');
  await t.database.query('delete from wishlists');
});

const call = callAs(() => t);
const wishlistOf = (who: Member | null, owner: Member, query = '') =>
  call(who, 'GET', `/api/users/${owner.id}/wishlist${query}`);
const add = (who: Member | null, bookId: string, lang = 'en') =>
  call(who, 'POST', '/api/me/wishlist/items', { bookId }, lang);
const count = async (table: 'wishlists' | 'wishlist_items') =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n;

/** A catalogue result, as the add panel gets it: the search stores every result in `books`. */
async function catalogueBook(q = 'Il nome della rosa') {
  const res = await call(null, 'GET', `/api/catalogue/search?q=${encodeURIComponent(q)}&limit=8`);
  expect(res.statusCode).toBe(200);
  return res.json().items[0] as { id: string; title: string; author: string; isbn: string };
}

describe('the default wishlist', () => {
  it("is created on first use as 'My Wishlist', empty, and read again afterwards", async () => {
    const res = await wishlistOf(ada, ada);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json();
    expect(body.wishlist).toMatchObject({
      name: 'My Wishlist',
      description: 'Books I want to read or acquire',
      isDefault: true,
    });
    expect(body).toMatchObject({ items: [], total: 0, page: 1, pageSize: 24 });
    const again = (await wishlistOf(ada, ada)).json();
    expect(again.wishlist.id).toBe(body.wishlist.id);
    expect(await count('wishlists')).toBe(1);
  });

  it('gives one list when many first uses race (reads and adds at once)', async () => {
    const book = await catalogueBook();
    for (let round = 0; round < 3; round++) {
      await t.database.query('delete from wishlists');
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => wishlistOf(ada, ada)),
        add(ada, book.id),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 201]);
      expect(await count('wishlists')).toBe(1);
      const ids = new Set(answers.slice(0, 6).map((a) => a.json().wishlist.id));
      expect(ids.size).toBe(1);
      expect((await wishlistOf(ada, ada)).json().total).toBe(1);
    }
  });

  it('is private: a visitor gets 401, another member 403, and nothing is created', async () => {
    const visitor = await wishlistOf(null, ada);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().error.message).toBe('Unauthorized. Please login.');
    const other = await wishlistOf(bruno, ada);
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toEqual({
      code: 'forbidden',
      message: 'Could not access this wishlist: it is visible only to its owner.',
    });
    const otherIt = await call(bruno, 'GET', `/api/users/${ada.id}/wishlist`, undefined, 'it');
    expect(otherIt.json().error.message).toBe(
      'Impossibile accedere a questa lista dei desideri: è visibile solo a chi la possiede.',
    );
    expect(await count('wishlists')).toBe(0);
  });

  it('refuses a bad page with a field message', async () => {
    const res = await wishlistOf(ada, ada, '?page=0');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ page: 'The page must be a whole number from 1.' });
  });
});

describe('adding and removing books', () => {
  it('adds a catalogue result with its joined book (cover, title, author, ISBN)', async () => {
    const book = await catalogueBook();
    const res = await add(ada, book.id);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'Il nome della rosa',
      author: 'Umberto Eco',
      book: {
        id: book.id,
        title: 'Il nome della rosa',
        author: 'Umberto Eco',
        isbn: '9788845292613',
        coverUrl: `/api/covers/${book.id}`,
      },
      availableListings: 0,
      newestListingId: null,
    });
    const list = (await wishlistOf(ada, ada)).json();
    expect(list.total).toBe(1);
    expect(list.items[0].book.id).toBe(book.id);
    const ids = (await call(ada, 'GET', '/api/me/wishlist/book-ids')).json();
    expect(ids).toEqual({ bookIds: [book.id] });
    const member = (await call(ada, 'GET', `/api/me/wishlist/books/${book.id}`)).json();
    expect(member).toEqual({ wished: true, itemId: res.json().id });
    // Bruno's wishlist is his own.
    expect((await call(bruno, 'GET', `/api/me/wishlist/books/${book.id}`)).json()).toEqual({
      wished: false,
      itemId: null,
    });
    expect((await call(bruno, 'GET', '/api/me/wishlist/book-ids')).json()).toEqual({
      bookIds: [],
    });
  });

  it('refuses the same book twice with 409 and a clear message, in both languages', async () => {
    const book = await catalogueBook();
    expect((await add(ada, book.id)).statusCode).toBe(201);
    const again = await add(ada, book.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({
      code: 'conflict',
      message: 'This book is already on your wishlist.',
    });
    const it = await add(ada, book.id, 'it');
    expect(it.json().error.message).toBe('Questo libro è già nella tua lista dei desideri.');
    expect(await count('wishlist_items')).toBe(1);
    // Two adds of one book at once: one 201, one 409, never a 500.
    await t.database.query('delete from wishlist_items');
    const both = await Promise.all([add(ada, book.id), add(ada, book.id)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await count('wishlist_items')).toBe(1);
  });

  it('refuses visitors (401), unknown books (404) and a missing book id (400)', async () => {
    const book = await catalogueBook();
    expect((await add(null, book.id)).statusCode).toBe(401);
    const unknown = await add(ada, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('This book is not in the catalogue.');
    const empty = await call(ada, 'POST', '/api/me/wishlist/items', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ bookId: 'Choose a book.' });
    const garbage = await add(ada, 'not-a-book');
    expect(garbage.statusCode).toBe(400);
    expect(await count('wishlist_items')).toBe(0);
  });

  it('removes an item for its owner only: visitors 401, another member 404, nothing changed', async () => {
    const book = await catalogueBook();
    const item = (await add(ada, book.id)).json();
    const visitor = await call(null, 'DELETE', `/api/me/wishlist/items/${item.id}`);
    expect(visitor.statusCode).toBe(401);
    const other = await call(bruno, 'DELETE', `/api/me/wishlist/items/${item.id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toBe('This book is not on your wishlist.');
    const otherByBook = await call(bruno, 'DELETE', `/api/me/wishlist/books/${book.id}`);
    expect(otherByBook.statusCode).toBe(404);
    expect(await count('wishlist_items')).toBe(1);

    const mine = await call(ada, 'DELETE', `/api/me/wishlist/items/${item.id}`);
    expect(mine.statusCode).toBe(204);
    expect(await count('wishlist_items')).toBe(0);
    const gone = await call(ada, 'DELETE', `/api/me/wishlist/items/${item.id}`);
    expect(gone.statusCode).toBe(404);
  });

  it('the heart removes by book id', async () => {
    const book = await catalogueBook();
    await add(ada, book.id);
    expect((await call(ada, 'DELETE', `/api/me/wishlist/books/${book.id}`)).statusCode).toBe(204);
    expect((await call(ada, 'GET', `/api/me/wishlist/books/${book.id}`)).json()).toEqual({
      wished: false,
      itemId: null,
    });
  });

  it('membership of an unknown or malformed book is simply false; visitors get 401', async () => {
    expect((await call(ada, 'GET', '/api/me/wishlist/books/nope')).json()).toEqual({
      wished: false,
      itemId: null,
    });
    expect((await call(null, 'GET', '/api/me/wishlist/books/nope')).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/me/wishlist/book-ids')).statusCode).toBe(401);
  });

  it('pages the items, newest first', async () => {
    const books = await t.database.query<{ id: string }>(
      `insert into books (title, author)
       select 'Libro ' || g, 'Autore ' || g from generate_series(1, 30) g returning id`,
    );
    for (const b of books) expect((await add(ada, b.id)).statusCode).toBe(201);
    const first = (await wishlistOf(ada, ada)).json();
    expect(first).toMatchObject({ total: 30, page: 1, pageSize: 24 });
    expect(first.items).toHaveLength(24);
    expect(first.items[0].title).toBe('Libro 30');
    const second = (await wishlistOf(ada, ada, '?page=2')).json();
    expect(second.items.map((i: { title: string }) => i.title)).toEqual([
      'Libro 6',
      'Libro 5',
      'Libro 4',
      'Libro 3',
      'Libro 2',
      'Libro 1',
    ]);
  });
});

describe('the listings that offer a wished book', () => {
  it('counts available listings by others: same book, same ISBN or same title and author', async () => {
    const book = await catalogueBook();
    await add(ada, book.id);
    const list = async (who: Member, body: object) => {
      const res = await call(who, 'POST', '/api/listings', body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    // The same title and author typed differently (case, accents, punctuation).
    const byTitle = await list(bruno, {
      mode: 'quickSell',
      title: 'IL NOME DELLA ROSA!',
      author: 'umberto  eco',
      price: 5,
    });
    // Ada's own listing does not count.
    await list(ada, {
      mode: 'quickSell',
      title: 'Il nome della rosa',
      author: 'Umberto Eco',
      price: 5,
    });
    let item = (await wishlistOf(ada, ada)).json().items[0];
    expect(item.availableListings).toBe(1);
    expect(item.newestListingId).toBe(byTitle);
    const byIsbn = await list(bruno, {
      mode: 'full',
      title: 'The Name of the Rose',
      author: 'U. Eco',
      genre: 'fiction',
      listingType: 'trade',
      description: 'English edition',
      isbn: '9788845292613',
    });
    item = (await wishlistOf(ada, ada)).json().items[0];
    expect(item.availableListings).toBe(2);
    expect(item.newestListingId).toBe(byIsbn);
    await call(bruno, 'POST', `/api/listings/${byIsbn}/status`, { status: 'reserved' });
    item = (await wishlistOf(ada, ada)).json().items[0];
    expect(item.availableListings).toBe(1);
  });
});
