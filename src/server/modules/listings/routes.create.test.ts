import { describe, expect, it } from 'vitest';
import { t, seller, other, buyer, full, req, create, useFixture } from './routes.fixture';

useFixture();

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
      language: 'Italiano',
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

  it('quick listings store the language by name, as the full form does', async () => {
    const stored = async (id: string) =>
      (
        await t.database.query<{ language: string | null }>(
          'select language from book_listings where id = $1',
          [id],
        )
      )[0].language;
    const quick = { mode: 'quickSell', title: 'Se una notte', author: 'Italo Calvino', price: 9 };
    const named = await create(seller, { ...quick, language: 'Italiano' });
    const coded = await create(seller, { ...quick, language: 'en' });
    const trade = await create(seller, {
      mode: 'quickTrade',
      title: 'If on a winter',
      author: 'Italo Calvino',
      language: 'en',
    });
    const fullCoded = await create(seller, { ...full, language: 'it' });
    expect([named, coded, trade, fullCoded].map((l) => l.language)).toEqual([
      'Italiano',
      'English',
      'English',
      'Italiano',
    ]);
    expect(await stored(coded.id)).toBe('English');
    expect(await stored(trade.id)).toBe('English');
    // Without a language from the form or the catalogue, nothing is invented.
    expect((await create(seller, { ...quick, title: 'Palomar' })).language).toBeNull();
    // A listing stored with a code before shows the name.
    await t.database.query("update book_listings set language = 'it' where id = $1", [coded.id]);
    expect((await req('GET', `/api/listings/${coded.id}`)).json().language).toBe('Italiano');
    const long = await req('POST', '/api/listings', seller, { ...quick, language: 'x'.repeat(51) });
    expect(long.statusCode).toBe(400);
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
