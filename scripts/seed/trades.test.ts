import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';
import { TRADE_MEETING_PLACE } from './trades';

describe('seed:demo trades step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('opens a trade deal with a meeting proposed, once', async () => {
    await runSeed({ config, database, log: quiet });
    const trades = async () =>
      database.query<{ id: string }>(
        `select d.id::text from deals d join offers o on o.id = d.offer_id
         where o.kind = 'trade'`,
      );
    expect(await trades()).toHaveLength(1);
    await runSeed({ config, database, log: quiet });
    const [{ id }] = await trades();
    expect(await trades()).toHaveLength(1);

    // Davide reads the deal as the app shows it: a trade of two books, Sofia's meeting to answer.
    const [davide] = await database.query<{ email: string }>(
      `select email from users where username = 'davidegreco'`,
    );
    const cookie = await signIn(testApp, davide.email, DEMO_PASSWORD);
    const res = await inject({ method: 'GET', url: `/api/deals/${id}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const deal = res.json().deal;
    expect(deal).toMatchObject({
      kind: 'trade',
      method: 'hand',
      status: 'open',
      role: 'seller',
      amount: null,
      buyer: { username: 'sofia_ricci' },
      meeting: { current: { place: TRADE_MEETING_PLACE, proposedBy: 'buyer', status: 'open' } },
    });
    expect(new Set(deal.listings.map((l: { ownerId: string }) => l.ownerId)).size).toBe(2);
  }, 180_000);
});
