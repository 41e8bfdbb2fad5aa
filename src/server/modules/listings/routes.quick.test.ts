import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { callAs, createMember, type Member } from '../../test/members';
import {
  startFakeGoogleBooks,
  type FakeGoogleBooks,
} from '../../test/google-books/fake-google-books';
import { openDealBetween } from '../../test/deals';

/**
 * Issue 33 item 9, the small frictions of selling: a quick listing takes its genre from the
 * catalogue book it was made from, changes its price without a description it never had, and a
 * sold or traded book is never put back on sale; the owner's list says which books a deal holds.
 */
let fake: FakeGoogleBooks;
let t: TestApp;
let seller: Member;
let other: Member;
let buyer: Member;
const call = callAs(() => t);

beforeAll(async () => {
  fake = await startFakeGoogleBooks();
  t = await createTestApp({
    config: {
      dataDir: mkdtempSync(join(tmpdir(), 'scaffale-quick-')),
      googleBooks: { baseUrl: fake.url, apiKey: 'test-key', enabled: true, timeoutMs: 1500 },
    },
  });
  [seller, other, buyer] = await Promise.all([
    createMember(t, { username: 'quick_seller' }),
    createMember(t, { username: 'quick_other' }),
    createMember(t, { username: 'quick_buyer' }),
  ]);
});
afterAll(() => fake.close());

interface Found {
  id: string;
  googleBooksId: string;
  title: string;
  author: string;
  isbn: string | null;
  categories: string[];
}

/** The catalogue's first result for `q` (the fake Google Books answers from its fixtures). */
async function firstResult(q: string): Promise<Found> {
  const res = await call(seller, 'GET', `/api/catalogue/search?q=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items[0];
}

async function quick(who: Member, body: object) {
  const res = await call(who, 'POST', '/api/listings', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('quick listings take their genre from the catalogue', () => {
  it('a quick sale of a chosen result: Google’s categories as our genre, its book and ISBN', async () => {
    const harry = await firstResult('harry potter');
    expect(harry.categories).toEqual(['Juvenile Fiction']);
    const sold = await quick(seller, {
      mode: 'quickSell',
      title: harry.title,
      author: harry.author,
      price: 7,
      bookId: harry.id,
      googleBooksId: harry.googleBooksId,
      isbn: harry.isbn,
    });
    expect(sold).toMatchObject({ genre: 'children', bookId: harry.id, listingType: 'sell' });
    expect(sold.isbn).toBe(harry.isbn);

    const rosa = await firstResult('il nome della rosa');
    expect(rosa.categories).toEqual(['Fiction']);
    // Google's id alone finds the same book.
    const byGoogleId = await quick(seller, {
      mode: 'quickSell',
      title: rosa.title,
      author: rosa.author,
      price: 9,
      googleBooksId: rosa.googleBooksId,
    });
    expect(byGoogleId).toMatchObject({ genre: 'fiction', bookId: rosa.id, language: 'Italiano' });
    const traded = await quick(buyer, {
      mode: 'quickTrade',
      title: rosa.title,
      author: rosa.author,
      bookId: rosa.id,
    });
    expect(traded).toMatchObject({ genre: 'fiction', listingType: 'trade' });
  });

  it('a catalogue book without categories takes the genre its other listings carry', async () => {
    const [book] = await t.database.query<{ id: string }>(
      `insert into books (title, authors, author) values ('La Storia', '{Elsa Morante}',
         'Elsa Morante') returning id`,
    );
    for (const [who, genre] of [
      [other, 'history'],
      [buyer, 'history'],
      [other, 'fiction'],
    ] as const)
      await t.database.query(
        `insert into book_listings (book_id, user_id, title, author, genre, listing_type, price)
         values ($1, $2, 'La Storia', 'Elsa Morante', $3, 'sell', 5)`,
        [book.id, who.id, genre],
      );
    const listing = await quick(seller, {
      mode: 'quickSell',
      title: 'La Storia',
      author: 'Elsa Morante',
      price: 6,
      bookId: book.id,
    });
    expect(listing).toMatchObject({ bookId: book.id, genre: 'history' });
  });

  it('a quick listing of a book the catalogue does not know is "other"; a bad id is a 400', async () => {
    const unknown = await quick(seller, {
      mode: 'quickSell',
      title: 'Quaderno di appunti mai pubblicato',
      author: 'Anonimo',
      price: 3,
    });
    expect(unknown.genre).toBe('other');
    const bad = await call(seller, 'POST', '/api/listings', {
      mode: 'quickSell',
      title: 'x',
      author: 'y',
      price: 3,
      bookId: "1' or '1'='1",
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('a quick listing changes its price alone', () => {
  it('PATCH price: 200 without a description; anonymous 401, another member 404, nothing changes', async () => {
    const listing = await quick(seller, {
      mode: 'quickSell',
      title: 'Il barone rampante',
      author: 'Italo Calvino',
      price: 10,
    });
    expect(listing.description).toBeNull();
    const url = `/api/listings/${listing.id}`;
    expect((await call(null, 'PATCH', url, { price: 8.5 })).statusCode).toBe(401);
    const foreign = await call(other, 'PATCH', url, { price: 1 });
    expect(foreign.statusCode).toBe(404);
    expect((await call(null, 'GET', url)).json().price).toBe(10);

    const cheaper = await call(seller, 'PATCH', url, { price: 8.5 });
    expect(cheaper.statusCode, cheaper.body).toBe(200);
    const { updatedAt: _a, ...after } = cheaper.json();
    const { updatedAt: _b, ...before } = listing;
    expect(after).toEqual({ ...before, price: 8.5 });

    // A description, when one is sent, is still required to say something.
    const empty = await call(seller, 'PATCH', url, { description: '  ' }, 'it');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.description).toBe('La descrizione è obbligatoria');
    const described = await call(seller, 'PATCH', url, { description: 'Copertina un po’ usata' });
    expect(described.json()).toMatchObject({ description: 'Copertina un po’ usata', price: 8.5 });
  });
});

describe('a sold or traded book stays sold', () => {
  it('its status cannot change by hand: 409 for the owner, 401 and 404 for others', async () => {
    for (const finished of ['sold', 'traded'] as const) {
      const listing = await quick(seller, {
        mode: 'quickSell',
        title: `Finito ${finished}`,
        author: 'A. Autore',
        price: 4,
      });
      await t.database.query('update book_listings set status = $2 where id = $1', [
        listing.id,
        finished,
      ]);
      const url = `/api/listings/${listing.id}/status`;
      expect((await call(null, 'POST', url, { status: 'available' })).statusCode).toBe(401);
      expect((await call(other, 'POST', url, { status: 'available' })).statusCode).toBe(404);
      for (const status of ['available', 'unavailable', 'reserved']) {
        const res = await call(seller, 'POST', url, { status });
        expect(res.statusCode, status).toBe(409);
        expect(res.json().error.message).toBe('This book has already been sold or traded');
      }
      const italian = await call(seller, 'POST', url, { status: 'available' }, 'it');
      expect(italian.json().error.message).toBe('Questo libro è già stato venduto o scambiato');
      const row = (await call(null, 'GET', `/api/listings/${listing.id}`)).json();
      expect(row).toMatchObject({ status: finished, isActive: false });
    }
  });
});

describe('GET /api/me/listings', () => {
  it('says which of the owner’s books an open deal holds, until the deal ends', async () => {
    const deal = await openDealBetween(t, seller, buyer);
    const free = await quick(seller, { mode: 'quickSell', title: 'Libero', author: 'B', price: 2 });
    const mine = async () =>
      new Map(
        ((await call(seller, 'GET', '/api/me/listings')).json().items as never[]).map(
          (i: { id: string; inOpenDeal: boolean }) => [i.id, i.inOpenDeal],
        ),
      );
    let flags = await mine();
    expect(flags.get(deal.listingId)).toBe(true);
    expect(flags.get(free.id)).toBe(false);
    // The buyer's own list holds nothing of the seller's.
    const theirs = (await call(buyer, 'GET', '/api/me/listings')).json().items;
    expect(theirs.map((i: { id: string }) => i.id)).not.toContain(deal.listingId);
    expect((await call(null, 'GET', '/api/me/listings')).statusCode).toBe(401);

    expect((await call(seller, 'POST', `/api/deals/${deal.dealId}/cancel`)).statusCode).toBe(200);
    flags = await mine();
    expect(flags.get(deal.listingId)).toBe(false);
  });
});
