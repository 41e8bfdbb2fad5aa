import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';
import { DEMO_TRACKING } from './deals-post';

describe('seed:demo parcel in transit', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('adds one deal by post shipped with tracking, once, as its two sides read it', async () => {
    await runSeed({ config, database, log: quiet });
    await runSeed({ config, database, log: quiet });
    const rows = await database.query<{ id: string }>(
      'select deal_id::text as id from deal_posts where tracking = $1',
      [DEMO_TRACKING],
    );
    expect(rows).toHaveLength(1);
    const buyer = await signIn(testApp, 'emily.carter@example.org', DEMO_PASSWORD);
    const deal = (
      await inject({ method: 'GET', url: `/api/deals/${rows[0].id}`, headers: { cookie: buyer } })
    ).json().deal;
    expect(deal).toMatchObject({
      method: 'post',
      status: 'open',
      role: 'buyer',
      post: { state: 'shipped', carrier: 'poste_italiane', tracking: DEMO_TRACKING },
    });
    expect(deal.post.trackingUrl).toMatch(/^https:\/\//);
    expect(deal.total).toBeGreaterThan(deal.amount);
  }, 180_000);
});
