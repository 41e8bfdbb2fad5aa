import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';

describe('seed:demo saved-searches step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('adds saved searches whose matches ring the bell, once', async () => {
    await runSeed({ config, database, log: quiet });
    const count = async () =>
      (
        await database.query<{ searches: number; matches: number; told: number }>(
          `select (select count(*)::int from saved_searches) as searches,
             (select count(*)::int from saved_search_matches) as matches,
             (select count(*)::int from notifications where type = 'savedSearch.match') as told`,
        )
      )[0];
    const first = await count();
    expect(first.searches).toBe(7);
    expect(first.matches).toBeGreaterThan(3);
    expect(first.told).toBe(first.matches);
    await runSeed({ config, database, log: quiet });
    expect(await count()).toEqual(first);

    const cookie = await signIn(testApp, 'giulia.bianchi@example.org', DEMO_PASSWORD);
    const mine = (
      await inject({ method: 'GET', url: '/api/me/saved-searches', headers: { cookie } })
    ).json();
    expect(mine.items.map((s: { name: string }) => s.name)).toEqual(['Calvino']);
  }, 240_000);
});
