import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, type Member } from '../../test/members';

let t: TestApp;
let seller: Member;
let other: Member;
let buyer: Member;
/** The app's clock: moved forward to get past the 30 s cache of /api/stats. */
let clock = Date.now();

beforeAll(async () => {
  t = await createTestApp({
    config: { dataDir: mkdtempSync(join(tmpdir(), 'scaffale-listings-')) },
    deps: { now: () => new Date(clock) },
  });
  seller = await createMember(t, { username: 'seller_one', displayName: 'Sara Seller' });
  other = await createMember(t, { username: 'other_one', displayName: 'Otto Other' });
  buyer = await createMember(t, { username: 'buyer_one', displayName: 'Bruno Buyer' });
});

const full = {
  mode: 'full',
  title: 'Il Gattopardo',
  author: 'Giuseppe Tomasi di Lampedusa',
  genre: 'fiction',
  condition: 'likeNew',
  listingType: 'sell',
  price: 12.5,
  currency: 'EUR',
  description: 'Prima edizione Feltrinelli, ottime condizioni.',
  isbn: '978-88-07-88108-4',
  language: 'Italiano',
  location: 'Palermo',
  shippingCost: 4.9,
  isNegotiable: true,
};

function req(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  who?: Member,
  payload?: unknown,
  lang = 'en',
) {
  return t.inject({
    method,
    url,
    headers: { 'accept-language': lang, ...(who ? { cookie: who.cookie } : {}) },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

async function create(who: Member, body: object = full) {
  const res = await req('POST', '/api/listings', who, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('POST /api/listings', () => {
  it('creates a listing from the full form, with its book row and seller', async () => {
    const listing = await create(seller);
    expect(listing).toMatchObject({
      title: 'Il Gattopardo',
      author: 'Giuseppe Tomasi di Lampedusa',
      genre: 'fiction',
      condition: 'likeNew',
      listingType: 'sell',
      price: 12.5,
      currency: 'EUR',
      status: 'available',
      isActive: true,
      isbn: '9788807881084',
      language: 'Italiano',
      location: 'Palermo',
      shippingCost: 4.9,
      isNegotiable: true,
      images: [],
      coverUrl: null,
      seller: {
        id: seller.id,
        displayName: 'Sara Seller',
        username: 'seller_one',
        avatarUrl: null,
      },
    });
    expect(Date.parse(listing.seller.memberSince)).not.toBeNaN();
    const [book] = await t.database.query<{ title: string; isbn_13: string; author: string }>(
      'select title, isbn_13, author from books where id = $1',
      [listing.bookId],
    );
    expect(book).toEqual({
      title: 'Il Gattopardo',
      isbn_13: '9788807881084',
      author: 'Giuseppe Tomasi di Lampedusa',
    });
    // The same ISBN reuses the book row.
    const again = await create(other, { ...full, title: 'Gattopardo (tascabile)' });
    expect(again.bookId).toBe(listing.bookId);
  });

  it('shows every full-form message in the request language', async () => {
    const res = await req('POST', '/api/listings', seller, {
      mode: 'full',
      title: ' ',
      author: '',
      genre: '',
      listingType: 'sell',
      description: '   ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      title: 'Title is required',
      author: 'Author is required',
      genre: 'Please select a genre',
      description: 'Description is required',
      price: 'Price is required for sale listings',
    });
    const negative = await req('POST', '/api/listings', seller, { ...full, price: -1 });
    expect(negative.json().error.fields.price).toBe('Price cannot be negative');
    const both = await req('POST', '/api/listings', seller, {
      ...full,
      listingType: 'both',
      price: null,
    });
    expect(both.json().error.fields.price).toBe('Price is required for sale listings');
    const isbn = await req('POST', '/api/listings', seller, { ...full, isbn: '978-88-07-88108-3' });
    expect(isbn.json().error.fields.isbn).toBe('ISBN must be a valid ISBN-10 or ISBN-13');
    const italian = await req('POST', '/api/listings', seller, { ...full, title: '' }, 'it');
    expect(italian.json().error.fields.title).toBe('Il titolo è obbligatorio');
    const unknownMode = await req('POST', '/api/listings', seller, { ...full, mode: 'auction' });
    expect(unknownMode.statusCode).toBe(400);
    const shipping = await req('POST', '/api/listings', seller, { ...full, shippingCost: -2 });
    expect(shipping.json().error.fields.shippingCost).toBe('Shipping cost cannot be negative');
  });

  it('lets a trade listing go without a price, ISBN, language or location', async () => {
    const res = await create(seller, {
      mode: 'full',
      title: 'Se una notte d’inverno un viaggiatore',
      author: 'Italo Calvino',
      genre: 'fiction',
      listingType: 'trade',
      description: 'Scambio volentieri.',
      isbn: '',
      price: '',
    });
    expect(res).toMatchObject({ listingType: 'trade', price: null, isbn: null, condition: 'good' });
  });

  it('quick sell: title, author and a price above 0', async () => {
    const ok = await create(seller, {
      mode: 'quickSell',
      title: 'Lessico famigliare',
      author: 'Natalia Ginzburg',
      price: 10,
    });
    expect(ok).toMatchObject({
      listingType: 'sell',
      price: 10,
      currency: 'EUR',
      condition: 'good',
    });
    const zero = await req('POST', '/api/listings', seller, {
      mode: 'quickSell',
      title: 'x',
      author: 'y',
      price: 0,
    });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.fields.price).toBe('Price must be greater than 0');
    const missing = await req('POST', '/api/listings', seller, { mode: 'quickSell', price: 3 });
    expect(missing.json().error.fields).toMatchObject({
      title: 'Title is required',
      author: 'Author is required',
    });
  });

  it('quick trade: a catalogue result supplies the book; title and author are required', async () => {
    const [book] = await t.database.query<{ id: string }>(
      `insert into books (title, authors, author, isbn_13, categories, language, cover_url)
       values ('Il barone rampante', '{Italo Calvino}', 'Italo Calvino', '9788804668015',
         '{Fiction}', 'it', 'https://books.google.com/books/content?id=abc') returning id`,
    );
    const listing = await create(buyer, {
      mode: 'quickTrade',
      bookId: book.id,
      title: 'Il barone rampante',
      author: 'Italo Calvino',
      coverUrl: `/api/covers/${book.id}`,
    });
    expect(listing).toMatchObject({
      bookId: book.id,
      listingType: 'trade',
      price: null,
      genre: 'fiction',
      language: 'it',
      isbn: '9788804668015',
      coverUrl: `/api/covers/${book.id}`,
    });
    const bad = await req('POST', '/api/listings', buyer, {
      mode: 'quickTrade',
      title: '',
      author: '',
    });
    expect(bad.json().error.fields).toEqual({
      title: 'Title is required',
      author: 'Author is required',
    });
  });

  it('refuses anonymous requests with 401', async () => {
    const res = await req('POST', '/api/listings', undefined, full);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Unauthorized. Please login.');
  });
});

describe('GET /api/listings/:id', () => {
  it('returns the listing to anyone, 404 Book not found otherwise', async () => {
    const listing = await create(seller);
    const res = await req('GET', `/api/listings/${listing.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(listing);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' or '1'='1"]) {
      const missing = await req('GET', `/api/listings/${encodeURIComponent(id)}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('Book not found');
    }
    const it = await req('GET', '/api/listings/nope', undefined, undefined, 'it');
    expect(it.json().error.message).toBe('Libro non trovato');
  });
});

describe('owner-only changes', () => {
  const edit = { ...full, title: 'Il Gattopardo (nuova edizione)', price: 20 };

  it('PATCH: anonymous 401, another member 404 and nothing changes, the owner succeeds', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}`;
    expect((await req('PATCH', url, undefined, edit)).statusCode).toBe(401);
    const foreign = await req('PATCH', url, other, edit);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe('Book not found');
    expect((await req('GET', url)).json()).toEqual(listing);

    const mine = await req('PATCH', url, seller, edit);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ title: 'Il Gattopardo (nuova edizione)', price: 20 });
    expect(Date.parse(mine.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(listing.updatedAt));
    const invalid = await req('PATCH', url, seller, { ...edit, description: '' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields.description).toBe('Description is required');
  });

  it('PATCH changes only the fields sent: a lower price alone, a cleared field, the rules on the result', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}`;
    const { updatedAt: _u, ...before } = listing;
    // Anonymous 401 and another member 404 on a one-field body; nothing changes.
    expect((await req('PATCH', url, undefined, { price: 9 })).statusCode).toBe(401);
    expect((await req('PATCH', url, other, { price: 9 })).statusCode).toBe(404);
    expect((await req('GET', url)).json()).toEqual(listing);

    const cheaper = await req('PATCH', url, seller, { price: 9 });
    expect(cheaper.statusCode, cheaper.body).toBe(200);
    const { updatedAt: _c, ...after } = (await req('GET', url)).json();
    expect(after).toEqual({ ...before, price: 9 });

    // null (or empty text) clears an optional field; the others stay.
    const cleared = await req('PATCH', url, seller, { location: null, language: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ ...after, location: null, language: null });

    // An empty body (or one with only unknown keys) is a 400, nothing changed.
    for (const body of [{}, { mode: 'full' }]) {
      const empty = await req('PATCH', url, seller, body);
      expect(empty.statusCode).toBe(400);
    }
    // Cross-field rules run on the listing as it would be: a sale without a price is refused...
    const noPrice = await req('PATCH', url, seller, { price: null });
    expect(noPrice.statusCode).toBe(400);
    expect(noPrice.json().error.fields.price).toBe('Price is required for sale listings');
    // ...a trade without a price is fine, and selling it again needs a price.
    const trade = await req('PATCH', url, seller, { listingType: 'trade', price: null });
    expect(trade.json()).toMatchObject({ listingType: 'trade', price: null, title: full.title });
    const sell = await req('PATCH', url, seller, { listingType: 'sell' });
    expect(sell.statusCode).toBe(400);
    expect(sell.json().error.fields.price).toBe('Price is required for sale listings');
    expect((await req('GET', url)).json()).toMatchObject({ listingType: 'trade', price: null });

    // The OpenAPI document says so: no field of the body is required.
    const doc = (await req('GET', '/api/openapi.json')).json();
    const body = doc.paths['/api/listings/{id}'].patch.requestBody.content['application/json'];
    expect(body.schema.required ?? []).toEqual([]);
    expect(Object.keys(body.schema.properties)).toEqual(expect.arrayContaining(['price', 'title']));
  });

  it('status: toggles active; others 404; bad status 400', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}/status`;
    expect((await req('POST', url, undefined, { status: 'unavailable' })).statusCode).toBe(401);
    expect((await req('POST', url, other, { status: 'unavailable' })).statusCode).toBe(404);
    expect((await req('GET', `/api/listings/${listing.id}`)).json().isActive).toBe(true);
    const off = await req('POST', url, seller, { status: 'unavailable' });
    expect(off.json()).toMatchObject({ status: 'unavailable', isActive: false });
    const on = await req('POST', url, seller, { status: 'available' });
    expect(on.json()).toMatchObject({ status: 'available', isActive: true });
    const bad = await req('POST', url, seller, { status: 'lost' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.status).toMatch(/^Unknown status/);
  });

  it('DELETE: anonymous 401, another member 404 and the listing stays, the owner deletes', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}`;
    expect((await req('DELETE', url)).statusCode).toBe(401);
    expect((await req('DELETE', url, other)).statusCode).toBe(404);
    expect((await req('GET', url)).statusCode).toBe(200);
    expect((await req('DELETE', url, seller)).statusCode).toBe(204);
    expect((await req('GET', url)).statusCode).toBe(404);
    expect((await req('DELETE', url, seller)).statusCode).toBe(404);
  });
});

describe('POST /api/listings/:id/complete', () => {
  it('records a transaction that, once the member confirms, feeds site stats, ratings and total trades', async () => {
    const listing = await create(seller);
    const url = `/api/listings/${listing.id}/complete`;
    const body = { kind: 'sale', counterpartUsername: 'buyer_one' };
    expect((await req('POST', url, undefined, body)).statusCode).toBe(401);
    expect((await req('POST', url, other, body)).statusCode).toBe(404);
    const unknown = await req('POST', url, seller, { kind: 'sale', counterpartUsername: 'ghost' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('No user found with this username');
    const self = await req('POST', url, seller, {
      kind: 'sale',
      counterpartUsername: 'Seller_One',
    });
    expect(self.statusCode).toBe(400);
    const [{ n: none }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from transactions',
    );
    expect(none).toBe(0);

    const before = (await req('GET', '/api/stats')).json();
    const asked = await req('POST', url, seller, {
      kind: 'sale',
      counterpartUsername: 'BUYER_ONE',
    });
    expect(asked.statusCode).toBe(200);
    // Nothing counts until the buyer confirms (complete.test.ts covers the refusals).
    expect(asked.json()).toMatchObject({ outcome: 'pending', listing: { status: 'available' } });
    const confirmed = await req(
      'POST',
      `/api/transactions/${asked.json().transactionId}/confirm`,
      buyer,
    );
    expect(confirmed.statusCode).toBe(200);
    expect((await req('GET', `/api/listings/${listing.id}`)).json()).toMatchObject({
      status: 'sold',
      isActive: false,
    });
    const [tx] = await t.database.query<{ buyer_id: string; seller_id: string; kind: string }>(
      'select buyer_id, seller_id, kind from transactions where listing_id = $1',
      [listing.id],
    );
    expect(tx).toEqual({ buyer_id: buyer.id, seller_id: seller.id, kind: 'sale' });

    // A second completion of the same listing is refused.
    const twice = await req('POST', url, seller, body);
    expect(twice.statusCode).toBe(409);

    const sellerProfile = (await req('GET', `/api/users/${seller.id}/profile`)).json();
    expect(sellerProfile).toMatchObject({ rating: 3.6, totalTrades: 1 });
    const buyerProfile = (await req('GET', `/api/users/${buyer.id}/profile`)).json();
    expect(buyerProfile).toMatchObject({ rating: 3.6, totalTrades: 1 });

    const trade = await create(seller, { ...full, listingType: 'trade', price: null });
    const traded = await req('POST', `/api/listings/${trade.id}/complete`, seller, {
      kind: 'trade',
      counterpartUsername: 'other_one',
    });
    const tradeId = traded.json().transactionId;
    expect((await req('POST', `/api/transactions/${tradeId}/confirm`, other)).statusCode).toBe(200);
    expect((await req('GET', `/api/listings/${trade.id}`)).json().status).toBe('traded');
    expect((await req('GET', `/api/users/${seller.id}/profile`)).json()).toMatchObject({
      rating: 3.7,
      totalTrades: 2,
    });

    // /api/stats caches for 30 s.
    clock += 31_000;
    const after = (await req('GET', '/api/stats')).json();
    expect(after.totalTransactions).toBe(before.totalTransactions + 2);
    // one more listed since, two no longer available
    expect(after.booksAvailable).toBe(before.booksAvailable + 1 - 2);
  });
});

describe('my listings', () => {
  it('lists every status newest first and sums the value of active sale listings', async () => {
    const me = await createMember(t, { username: 'counting_me' });
    expect((await req('GET', '/api/me/listings')).statusCode).toBe(401);
    expect((await req('GET', '/api/me/listings/stats')).statusCode).toBe(401);
    const a = await create(me, { ...full, price: 10.4 });
    const b = await create(me, { ...full, listingType: 'both', price: 5.3 });
    const c = await create(me, { ...full, listingType: 'trade', price: null });
    const d = await create(me, { ...full, price: 100 });
    await req('POST', `/api/listings/${d.id}/status`, me, { status: 'reserved' });

    const list = (await req('GET', '/api/me/listings', me)).json();
    expect(list.items.map((i: { id: string }) => i.id)).toEqual([d.id, c.id, b.id, a.id]);
    expect(list.items[0].status).toBe('reserved');
    const stats = (await req('GET', '/api/me/listings/stats', me)).json();
    expect(stats).toEqual({ total: 4, available: 3, totalValue: 16 });
  });
});

describe('POST /api/uploads/cover', () => {
  function multipart(buffer: Buffer, filename = 'cover.png', type = 'image/png') {
    const boundary = '----scaffale' + Math.random().toString(16).slice(2);
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      buffer,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }
  const png = () =>
    sharp({ create: { width: 40, height: 60, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();

  it('stores an image for a signed-in member and the listing keeps it as its cover', async () => {
    const body = multipart(await png());
    const anon = await t.inject({
      method: 'POST',
      url: '/api/uploads/cover',
      headers: { ...body.headers, 'accept-language': 'en' },
      payload: body.payload,
    });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().error.message).toBe(
      'Authentication required for upload. Please log in again.',
    );

    const res = await t.inject({
      method: 'POST',
      url: '/api/uploads/cover',
      headers: { ...body.headers, cookie: seller.cookie },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const { url } = res.json();
    expect(url).toMatch(new RegExp(`^/uploads/covers/${seller.id}/[a-f0-9]{32}\\.webp$`));
    const served = await t.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);

    const listing = await create(seller, { ...full, coverUrl: url });
    expect(listing.coverUrl).toBe(url);
    expect(listing.images).toEqual([url]);
    // Another member cannot claim this file as their cover.
    const stolen = await create(other, { ...full, coverUrl: url });
    expect(stolen.coverUrl).toBeNull();
    // Deleting the listing deletes the file.
    await req('DELETE', `/api/listings/${listing.id}`, seller);
    expect((await t.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('refuses what is not an image and files over 5 MB', async () => {
    const text = multipart(Buffer.from('just text, not an image'), 'cover.png');
    const notImage = await t.inject({
      method: 'POST',
      url: '/api/uploads/cover',
      headers: { ...text.headers, cookie: seller.cookie, 'accept-language': 'en' },
      payload: text.payload,
    });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().error.message).toBe('Please upload an image file');

    const big = multipart(Buffer.alloc(5 * 1024 * 1024 + 10, 1));
    const tooLarge = await t.inject({
      method: 'POST',
      url: '/api/uploads/cover',
      headers: { ...big.headers, cookie: seller.cookie, 'accept-language': 'en' },
      payload: big.payload,
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.message).toBe('File size must be less than 5MB');
  });
});
