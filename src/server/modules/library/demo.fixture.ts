import { beforeAll } from 'vitest';
import { demoMembers } from '../../../../scripts/seed/members';
import { seedListings } from '../../../../scripts/seed/listings';
import { seedWorks } from '../../../../scripts/seed/works';
import { createTestApp, type TestApp } from '../../test/app';

/** The demo library (`npm run seed:demo`'s members and listings) on a fresh test app. */
export let demo: TestApp;

/** A card as a search answers it. */
export interface Hit {
  id: string;
  title: string;
  author: string;
  language: string | null;
}

/** The demo library's search for `query` (a query string), its cards in order. */
export async function search(query: string, lang = 'en'): Promise<Hit[]> {
  const res = await demo.inject({
    method: 'GET',
    url: `/api/listings?${query}&pageSize=60`,
    headers: { 'accept-language': lang },
  });
  if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`);
  return res.json().items;
}

/**
 * Registers the set-up for the test file that calls it: the demo members inserted as they are
 * (no password, no sign-in), then the demo listings and works as the seed writes them.
 */
export function useDemoLibrary(): void {
  beforeAll(async () => {
    demo = await createTestApp();
    const members = demoMembers.map((m, i) => ({ ...m, id: `demo-${i}` }));
    for (const m of members)
      await demo.database.query(
        `insert into users (id, email, display_name, username) values ($1, $2, $3, $4)`,
        [m.id, m.email, `${m.firstName} ${m.lastName}`, m.username],
      );
    const ctx = {
      config: demo.config,
      database: demo.database,
      auth: undefined as never,
      members,
      log: () => {},
    };
    await seedListings(ctx);
    await seedWorks(ctx);
  });
}
