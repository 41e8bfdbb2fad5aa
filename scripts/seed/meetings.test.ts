import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';
import { MEETING_PLACE } from './meetings';

describe('seed:demo meetings step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('opens a hand-to-hand deal with a meeting proposed, once', async () => {
    await runSeed({ config, database, log: quiet });
    const count = async () =>
      (
        await database.query<{ n: number }>(
          `select count(*)::int as n from deal_meetings m join deals d on d.id = m.deal_id
           join offers o on o.id = d.offer_id where o.kind = 'sale'`,
        )
      )[0].n;
    expect(await count()).toBe(1);
    await runSeed({ config, database, log: quiet });
    expect(await count()).toBe(1);

    // Marco reads the deal as the app shows it: Emily's proposal waits for his answer.
    const [{ id }] = await database.query<{ id: string }>(
      `select m.deal_id::text as id from deal_meetings m join deals d on d.id = m.deal_id
       join offers o on o.id = d.offer_id where o.kind = 'sale'`,
    );
    const cookie = await signIn(testApp, 'marco.rossi@example.org', DEMO_PASSWORD);
    const res = await inject({ method: 'GET', url: `/api/deals/${id}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deal).toMatchObject({
      method: 'hand',
      status: 'open',
      role: 'seller',
      buyer: { username: 'emily_reads' },
      meeting: { current: { place: MEETING_PLACE, proposedBy: 'buyer', status: 'open' } },
    });
    const room = (
      await inject({
        method: 'GET',
        url: `/api/chats/rooms/${res.json().deal.roomId}/messages`,
        headers: { cookie },
      })
    ).json();
    expect(room.items.at(-1)).toMatchObject({ type: 'deal', content: 'meeting.proposed' });
  }, 180_000);
});
