import { describe, expect, it } from 'vitest';
import { CONDITIONS, LISTING_TYPES } from '../src/shared/marketplace';
import { createTestApp } from '../src/server/test/helpers';
import { demoMembers, runSeed } from './seed-demo';
import { demoListings, planDemoListings } from './seed-listings';
import { ON_HOLIDAY } from './seed/watching';

describe('seed:demo listings step', async () => {
  const { inject, database, config } = await createTestApp();
  const quiet = () => {};
  const plan = planDemoListings(demoMembers);
  const count = async (sql: string) => (await database.query<{ n: number }>(sql))[0].n;

  it('plans a few hundred listings, the same on every run, spread over members and kinds', () => {
    expect(plan.length).toBeGreaterThanOrEqual(300);
    expect(plan.length).toBeLessThanOrEqual(420);
    expect(planDemoListings(demoMembers)).toEqual(plan);
    expect(plan.slice(0, demoListings.length).map((l) => l.title)).toEqual(
      demoListings.map((l) => l.title),
    );
    // No member lists the same title twice (the idempotency key).
    expect(new Set(plan.map((l) => `${l.seller}|${l.title}`)).size).toBe(plan.length);
    for (const m of demoMembers) {
      expect(plan.filter((l) => l.seller === m.username).length, m.username).toBeGreaterThan(10);
    }
    expect(new Set(plan.map((l) => l.type))).toEqual(new Set(LISTING_TYPES));
    expect(new Set(plan.map((l) => l.condition))).toEqual(new Set(CONDITIONS));
    expect(new Set(plan.map((l) => l.status))).toEqual(
      new Set(['available', 'reserved', 'sold', 'traded']),
    );
    expect(new Set(plan.map((l) => l.genre)).size).toBeGreaterThanOrEqual(17);
    for (const l of plan) {
      // Trade-only listings have no price; the others a positive one.
      if (l.type === 'trade') expect(l.price).toBeNull();
      else expect(l.price).toBeGreaterThan(0);
      if (l.status === 'sold') expect(l.type).not.toBe('trade');
      if (l.status === 'traded') expect(l.type).not.toBe('sell');
      if (l.buyer) expect(l.buyer).not.toBe(l.seller);
    }
  });

  it('lists every planned book once with its deals; a second run adds nothing', async () => {
    const started = Date.now();
    await runSeed({ config, database, log: quiet });
    const firstRunMs = Date.now() - started;
    const books = await count('select count(*)::int as n from books');
    await runSeed({ config, database, log: quiet });
    expect(await count('select count(*)::int as n from book_listings')).toBe(plan.length);
    expect(await count('select count(*)::int as n from books')).toBe(books);
    expect(
      await count(`select count(*)::int as n from transactions where status = 'completed'`),
    ).toBe(plan.filter((l) => l.buyer).length);
    expect(
      await count(`select count(*)::int as n from book_listings where cover_url is not null`),
    ).toBe(0);
    // Batched: seconds, not a statement per listing (generous for a busy machine).
    expect(firstRunMs).toBeLessThan(60_000);

    const ferrante = await inject({
      method: 'GET',
      url: '/api/listings?q=ferrante&status=all&limit=60',
    });
    const titles = new Set(ferrante.json().items.map((i: { title: string }) => i.title));
    // The library leaves out the listings of the demo seller on holiday (seed/watching.ts).
    const listed = plan.filter((l) => l.seller !== ON_HOLIDAY);
    expect(titles).toEqual(
      new Set(listed.filter((l) => l.author === 'Elena Ferrante').map((l) => l.title)),
    );
    expect(titles.has('L’amica geniale')).toBe(true);

    const library = (await inject({ method: 'GET', url: '/api/listings' })).json();
    // The demo deals seeded later (a meeting proposed, a parcel in transit) reserve one each, the
    // trade (seed/trades.ts) both its books.
    const inDeals = await count(
      `select count(*)::int as n from offer_listings ol join deals d on d.offer_id = ol.offer_id
       where d.status = 'open'`,
    );
    expect(inDeals).toBe(4);
    expect(library.total).toBe(listed.filter((l) => l.status === 'available').length - inDeals);
    const shelves = (await inject({ method: 'GET', url: '/api/shelves' })).json();
    expect(shelves.shelves.length).toBeGreaterThan(15);
    for (const shelf of shelves.shelves.slice(0, 4)) expect(shelf.items).toHaveLength(12);
  }, 120_000); // the whole seed: a dozen password hashes and a few hundred listings
});
