import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';

describe('seed:demo bundles step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('adds one open bundle offer for three books of one seller, with their rule, once', async () => {
    await runSeed({ config, database, log: quiet });
    const bundles = () =>
      database.query<{ id: string; seller_id: string; books: number; shipping: number }>(
        `select o.id::text, o.seller_id, o.shipping_amount::float8 as shipping,
           (select count(*)::int from offer_listings ol where ol.offer_id = o.id) as books
         from offers o where o.bundle and o.status = 'pending'`,
      );
    const first = await bundles();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ books: 3 });
    const [rule] = await database.query<{ shipping: number }>(
      'select shipping_amount::float8 as shipping from bundle_rules where seller_id = $1',
      [first[0].seller_id],
    );
    expect(rule.shipping).toBe(6);
    await runSeed({ config, database, log: quiet });
    expect(await bundles()).toEqual(first);

    // The buyer sees the offer in the conversation, after a card of each book.
    const cookie = await signIn(testApp, 'chiara.romano@example.org', DEMO_PASSWORD);
    const rooms = (
      await inject({ method: 'GET', url: '/api/chats/rooms', headers: { cookie } })
    ).json();
    const found = [];
    for (const room of rooms.items) {
      const page = (
        await inject({
          method: 'GET',
          url: `/api/chats/rooms/${room.id}/messages`,
          headers: { cookie },
        })
      ).json();
      const offer = page.items.find((m: { offer?: { id: string } }) => m.offer?.id === first[0].id);
      if (offer) found.push(page.items.filter((m: { type: string }) => m.type === 'listing'));
    }
    expect(found).toHaveLength(1);
    expect(found[0].length).toBeGreaterThanOrEqual(3);
  }, 180_000);
});
