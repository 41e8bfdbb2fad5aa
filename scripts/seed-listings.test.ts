import { describe, expect, it } from 'vitest';
import { createTestApp } from '../src/server/test/helpers';
import { runSeed } from './seed-demo';
import { demoListings } from './seed-listings';

describe('seed:demo listings step', async () => {
  const { inject, database, config } = await createTestApp();
  const quiet = () => {};

  it('lists the demo books once, with one completed sale; a second run adds nothing', async () => {
    await runSeed({ config, database, log: quiet });
    await runSeed({ config, database, log: quiet });
    const [{ n }] = await database.query<{ n: number }>(
      'select count(*)::int as n from book_listings',
    );
    expect(n).toBe(demoListings.length);
    const [{ tx }] = await database.query<{ tx: number }>(
      `select count(*)::int as tx from transactions where status = 'completed'`,
    );
    expect(tx).toBe(1);
    const res = await inject({ method: 'GET', url: '/api/listings?q=ferrante&status=all' });
    expect(
      res
        .json()
        .items.map((i: { title: string }) => i.title)
        .sort(),
    ).toEqual(['L’amica geniale', 'Storia del nuovo cognome']);
    const shelves = (await inject({ method: 'GET', url: '/api/shelves' })).json();
    expect(shelves.shelves.length).toBeGreaterThan(8);
  });
});
