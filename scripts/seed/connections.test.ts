import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';
import { demoConnections } from './connections';

describe('seed:demo connections step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('adds friendships and pending requests both ways once; a second run adds nothing', async () => {
    await runSeed({ config, database, log: quiet });
    await runSeed({ config, database, log: quiet });
    const rows = await database.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from connections group by status order by status',
    );
    const pending = demoConnections.filter((c) => c[3] === null).length;
    expect(rows).toEqual([
      { status: 'accepted', n: demoConnections.length - pending },
      { status: 'pending', n: pending },
    ]);

    // Giulia: three friends, two requests to answer and one waiting.
    const cookie = await signIn(testApp, 'giulia.bianchi@example.org', DEMO_PASSWORD);
    const get = (url: string) => inject({ method: 'GET', url, headers: { cookie } });
    expect((await get('/api/connections')).json().total).toBe(3);
    const requests = (await get('/api/connections/requests')).json();
    expect(requests.incoming.total).toBe(2);
    expect(requests.outgoing.total).toBe(1);

    // Francesca and Emily have traded books (the listings seed records the sales): that
    // friendship comes first, and the list is sorted by interactions.
    const fra = await signIn(testApp, 'francesca.esposito@example.org', DEMO_PASSWORD);
    const friends = (
      await inject({ method: 'GET', url: '/api/connections', headers: { cookie: fra } })
    ).json();
    expect(friends.items[0].member.username).toBe('emily_reads');
    expect(friends.items[0].booksExchanged).toBeGreaterThan(0);
    const counts = friends.items.map((f: { interactions: number }) => f.interactions);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // Twelve sign-ups hash twelve passwords: slow on a busy machine.
  }, 90_000);
});
