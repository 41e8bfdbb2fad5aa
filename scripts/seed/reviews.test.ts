import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { runSeed } from '../seed-demo';

describe('seed:demo reviews step', async () => {
  const { database, config, inject } = await createTestApp();
  const quiet = () => {};

  it('reviews completed demo trades once; the profiles show them', async () => {
    await runSeed({ config, database, log: quiet });
    const [first] = await database.query<{ n: number }>('select count(*)::int as n from reviews');
    expect(first.n).toBeGreaterThan(0);
    await runSeed({ config, database, log: quiet });
    const [second] = await database.query<{ n: number }>('select count(*)::int as n from reviews');
    expect(second.n).toBe(first.n);

    // Every review is by a party of a completed transaction, about the other party.
    const [wrong] = await database.query<{ n: number }>(
      `select count(*)::int as n from reviews r join transactions t on t.id = r.transaction_id
       where t.status <> 'completed'
          or not ((r.author_id = t.buyer_id and r.subject_id = t.seller_id)
               or (r.author_id = t.seller_id and r.subject_id = t.buyer_id))`,
    );
    expect(wrong.n).toBe(0);
    // A pair is published when its second review was written, a lone review 14 days after
    // the trade (decision 0073).
    const [unpublishedPair] = await database.query<{ n: number }>(
      `select count(*)::int as n from reviews r
       where (select count(*) from reviews o where o.transaction_id = r.transaction_id) = 2
         and r.published_at <> (select max(o.created_at) from reviews o
                                where o.transaction_id = r.transaction_id)`,
    );
    expect(unpublishedPair.n).toBe(0);
    const [reviewed] = await database.query<{ subject_id: string }>(
      'select subject_id from reviews where published_at <= now() limit 1',
    );
    const page = (
      await inject({ method: 'GET', url: `/api/users/${reviewed.subject_id}/reviews` })
    ).json();
    expect(page.total).toBeGreaterThan(0);
    const profile = (
      await inject({ method: 'GET', url: `/api/users/${reviewed.subject_id}/profile` })
    ).json();
    expect(profile.rating).toBe(page.average);
  }, 120_000); // the whole seed, twice
});
