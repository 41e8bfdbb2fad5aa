import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { createEventWriter, viewerOf } from './events';
import { flushAdEvents } from './routes';
import { adGenreOf, pickAds, searchTerms } from './serving';
import { adsClient, BROWSER_UA, validAd } from '../../test/ads';

const candidate = (id: string, genre: string, keywords: string[], impressions = 0) => ({
  id,
  title: id,
  subtitle: null,
  description: 'd',
  genre: genre as 'fantasy',
  ad_type: 'banner' as const,
  keywords,
  cover_image_url: null,
  book_price: null,
  currency: 'EUR' as const,
  average_rating: 0,
  review_count: 0,
  author_id: 'u1',
  display_name: 'Ada',
  username: 'ada',
  avatar_url: null,
  impressions_today: impressions,
});

describe('picking the ads of a slot', () => {
  const ads = [
    candidate('both', 'mystery', ['milano']),
    candidate('genre', 'mystery', []),
    candidate('keyword', 'fantasy', ['milano']),
    candidate('none', 'poetry', ['mare']),
  ];

  it('puts genre and keyword matches first, then one of them, then the rest', () => {
    for (let i = 0; i < 20; i++) {
      const picked = pickAds(ads, { genre: 'mystery', terms: ['milano'], exclude: [], limit: 4 });
      expect(picked.map((a) => a.id).slice(0, 1)).toEqual(['both']);
      expect(
        picked
          .map((a) => a.id)
          .slice(1, 3)
          .sort(),
      ).toEqual(['genre', 'keyword']);
      expect(picked[3].id).toBe('none');
      expect(picked[3].reasons).toEqual({
        genre: 'poetry',
        keywords: ['mare'],
        matchedGenre: false,
        matchedKeywords: [],
      });
    }
    expect(
      pickAds(ads, { genre: null, terms: [], exclude: ['both', 'genre', 'keyword'], limit: 3 }).map(
        (a) => a.id,
      ),
    ).toEqual(['none']);
  });

  it('draws in proportion to 1 / (1 + impressions today)', () => {
    const pair = [candidate('fresh', 'art', [], 0), candidate('seen', 'art', [], 9)];
    let fresh = 0;
    const draws = 20_000;
    for (let i = 0; i < draws; i++)
      if (pickAds(pair, { genre: null, terms: [], exclude: [], limit: 1 })[0].id === 'fresh')
        fresh++;
    // Weights 1 and 1/10: the fresh ad wins 10 times in 11.
    expect(fresh / draws).toBeGreaterThan(0.88);
    expect(fresh / draws).toBeLessThan(0.94);
  });

  it('reads the page’s context: marketplace genres and search words', () => {
    expect(adGenreOf('sciFi')).toBe('sciFi');
    // One list of genres: the listings' keys are the ads' keys; an old ad genre maps onto one.
    expect(adGenreOf('textbook')).toBe('textbook');
    expect(adGenreOf('thriller')).toBe('mystery');
    expect(adGenreOf('toString')).toBeNull();
    expect(adGenreOf('nonsense')).toBeNull();
    expect(searchTerms('  Il Nome della  ROSA ')).toEqual([
      'il nome della rosa',
      'il',
      'nome',
      'della',
      'rosa',
    ]);
  });
});

describe('the in-memory list of running ads', () => {
  let t: TestApp;
  let ada: Member;
  let api: ReturnType<typeof adsClient>;
  beforeAll(async () => {
    t = await createTestApp({ config: { adsServingCacheMs: 60_000, adsCostPerClick: 0.5 } });
    api = adsClient(t);
    ada = await createMember(t, { username: 'ada_cache' });
  });

  it('serves from memory, yet an author’s change or a reached budget shows at once', async () => {
    const created = await api.call(ada, 'POST', '/api/ads', validAd({ dailyBudget: 1 }));
    const id = created.json().ad.id;
    expect(await api.slot()).toEqual([]);
    await api.call(ada, 'POST', `/api/ads/${id}/activate`);
    expect((await api.slot()).map((a) => a.id)).toEqual([id]);

    // A change behind the server's back is seen only when the list is read again.
    await t.database.query(`update book_advertisements set status = 'paused' where id = $1`, [id]);
    expect((await api.slot()).map((a) => a.id)).toEqual([id]);
    await t.database.query(`update book_advertisements set status = 'active' where id = $1`, [id]);

    await api.call(ada, 'POST', `/api/ads/${id}/pause`);
    expect(await api.slot()).toEqual([]);
    await api.call(ada, 'POST', `/api/ads/${id}/resume`);
    expect((await api.slot()).map((a) => a.id)).toEqual([id]);

    // Two clicks at 0.50 reach the daily budget of 1.00: gone after the next flush.
    await api.viewAndClick(id, { ip: '198.51.100.1' });
    await api.viewAndClick(id, { ip: '198.51.100.2' });
    await flushAdEvents(t.database);
    expect(await api.slot()).toEqual([]);
  });
});

describe('closing the app', () => {
  it('writes the buffered events before the database goes', async () => {
    const database = await createTestDatabase();
    try {
      const app = await buildApp({ config: testConfig(), database });
      await app.ready();
      await database.query(
        `insert into users (id, email, display_name) values ('author-close', 'close@example.com', 'A')`,
      );
      const [{ id }] = await database.query<{ id: string }>(
        `insert into book_advertisements (author_id, title, description, genre, status)
         values ('author-close', 'T', 'D', 'art', 'active') returning id`,
      );
      const res = await app.inject({
        method: 'POST',
        url: `/api/ads/${id}/events`,
        remoteAddress: '198.51.100.9',
        headers: { origin: 'http://localhost:3000', 'user-agent': BROWSER_UA },
        payload: { kind: 'impression' },
      });
      expect(res.statusCode).toBe(202);
      const count = async () =>
        (
          await database.query<{ n: number }>(
            'select count(*)::int as n from ad_events where ad_id = $1',
            [id],
          )
        )[0].n;
      await app.close();
      expect(await count()).toBe(1);

      // The writer alone, with a flush far away: the event waits in memory until close.
      const writer = createEventWriter({
        database,
        now: () => new Date(),
        log: { warn: () => {} },
        costPerClick: 0.2,
        flushMs: 3_600_000,
      });
      await writer.add({
        adId: id,
        kind: 'click',
        who: viewerOf(null, '198.51.100.9'),
        userId: null,
        placement: 'library',
        store: null,
        userAgent: null,
        referrer: null,
        device: null,
      });
      expect(writer.pendingCount).toBe(1);
      expect(await count()).toBe(1);
      await writer.close();
      expect(await count()).toBe(2);
    } finally {
      await database.close();
    }
  });
});
