import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.database.query(
    `insert into users (id, email, display_name, username, avatar_url, created_at) values
       ('lucia', 'Lucia@Example.com', 'Lucia Verdi', 'lucia', null, '2024-03-01T10:00:00Z'),
       ('piero', 'piero@example.com', 'Piero Neri', 'piero', '/uploads/avatars/x.webp', now())`,
  );
  const [book] = await t.database.query<{ id: string }>(
    `insert into books (title, author) values ('Libro', 'Autore') returning id`,
  );
  // Lucia: 8 listings, one a day: sell, trade, both, sell, ...; the oldest is sold.
  for (let i = 0; i < 8; i++) {
    await t.database.query(
      `insert into book_listings (book_id, user_id, title, author, listing_type, price, status, created_at)
       values ($1, 'lucia', $2, 'Autore', $3, $4, $5, now() - make_interval(days => $6::int))`,
      [
        book.id,
        `Libro ${i}`,
        ['sell', 'trade', 'both'][i % 3],
        i % 3 === 1 ? null : 10 + i,
        i === 7 ? 'sold' : 'available',
        i,
      ],
    );
  }
});

const get = (url: string) => t.inject({ method: 'GET', url, headers: { 'accept-language': 'en' } });

describe('GET /api/users/:id/profile', () => {
  it('shows counters, rating, member since and the 6 most recent books', async () => {
    const res = await get('/api/users/lucia/profile');
    expect(res.statusCode).toBe(200);
    const p = res.json();
    // The public profile never reveals the e-mail, not even hashed.
    expect(JSON.stringify(p)).not.toContain(
      createHash('sha256').update('lucia@example.com').digest('hex'),
    );
    expect(p).toMatchObject({
      id: 'lucia',
      displayName: 'Lucia Verdi',
      username: 'lucia',
      avatarUrl: null,
      avatarSeed: createHash('sha256').update('scaffale-identicon:lucia').digest('hex'),
      memberSince: '2024-03-01T10:00:00.000Z',
      rating: null,
      reviewCount: 0,
      booksListed: 8,
      totalTrades: 0,
    });
    expect(p.recentBooks.map((b: { title: string }) => b.title)).toEqual([
      'Libro 0',
      'Libro 1',
      'Libro 2',
      'Libro 3',
      'Libro 4',
      'Libro 5',
    ]);
    expect(JSON.stringify(p)).not.toContain('@example.com');
  });

  it('completed trades are counted but never shown as a rating: only reviews rate', async () => {
    for (let i = 0; i < 3; i++)
      await t.database.query(
        `insert into transactions (buyer_id, seller_id, kind) values ('piero', 'lucia', 'sale')`,
      );
    await t.database.query(
      `insert into transactions (buyer_id, seller_id, kind, status) values ('lucia', 'piero', 'trade', 'cancelled')`,
    );
    expect((await get('/api/users/lucia/profile')).json()).toMatchObject({
      rating: null,
      reviewCount: 0,
      totalTrades: 3,
    });
    expect((await get('/api/users/piero/profile')).json()).toMatchObject({
      rating: null,
      totalTrades: 3,
      avatarUrl: '/uploads/avatars/x.webp',
    });
  });

  it('with reviews, the rating is their mean and count (the same rule as the sidebar)', async () => {
    const [tx] = await t.database.query<{ id: string }>(
      `insert into transactions (buyer_id, seller_id, kind) values ('piero', 'lucia', 'sale') returning id`,
    );
    const [tx2] = await t.database.query<{ id: string }>(
      `insert into transactions (buyer_id, seller_id, kind) values ('piero', 'lucia', 'sale') returning id`,
    );
    await t.database.query(
      // Published (double-blind reviews show once published: decision 0073), a minute ago: the
      // route compares with the app's clock in milliseconds, and PostgreSQL's now() in
      // microseconds can be later than that within the same millisecond (a CI failure).
      `insert into reviews (transaction_id, author_id, subject_id, rating, published_at)
       values ($1, 'piero', 'lucia', 5, now() - interval '1 minute'),
              ($2, 'piero', 'lucia', 4, now() - interval '1 minute')`,
      [tx.id, tx2.id],
    );
    expect((await get('/api/users/lucia/profile')).json()).toMatchObject({
      rating: 4.5,
      reviewCount: 2,
    });
    expect((await get('/api/users/piero/profile')).json()).toMatchObject({ rating: null });
  });

  it('answers 404 with its not-found message for unknown members', async () => {
    const res = await get('/api/users/nobody/profile');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(
      "The user profile you're looking for doesn't exist or has been removed.",
    );
  });
});

describe('GET /api/users/:id/listings', () => {
  it('lists every listing with tabs all, sell (sell or both) and trade (trade or both)', async () => {
    const all = (await get('/api/users/lucia/listings')).json();
    expect(all).toMatchObject({ total: 8, page: 1, pageSize: 24 });
    expect(all.items).toHaveLength(8);
    const sell = (await get('/api/users/lucia/listings?type=sell')).json();
    expect(sell.items.map((i: { listingType: string }) => i.listingType).sort()).toEqual([
      'both',
      'both',
      'sell',
      'sell',
      'sell',
    ]);
    const trade = (await get('/api/users/lucia/listings?type=trade')).json();
    expect(trade.total).toBe(5);
    expect(trade.items.every((i: { listingType: string }) => i.listingType !== 'sell')).toBe(true);
    const page2 = (await get('/api/users/lucia/listings?page=2')).json();
    expect(page2).toMatchObject({ total: 8, page: 2, items: [] });
  });

  it('refuses bad tabs and pages, and unknown members', async () => {
    expect((await get('/api/users/lucia/listings?type=rent')).statusCode).toBe(400);
    expect((await get('/api/users/lucia/listings?page=0')).statusCode).toBe(400);
    expect((await get('/api/users/nobody/listings')).statusCode).toBe(404);
  });
});
