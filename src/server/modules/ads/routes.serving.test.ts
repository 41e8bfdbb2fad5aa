import { describe, expect, it } from 'vitest';
import { t, ada, api, call, useFixture } from './routes.fixture';

useFixture();

describe('the promoted books list', () => {
  it('lists running ads newest first, 20 a page, filtered by genre, keywords and rating', async () => {
    const mystery = await api.createAd(ada, { genre: 'mystery', keywords: 'giallo, milano' });
    const fantasy = await api.createAd(ada, { genre: 'fantasy', keywords: 'draghi' });
    await api.createAd(ada, { genre: 'fantasy' }, false); // a draft
    await t.database.query('update book_advertisements set average_rating = 4.5 where id = $1', [
      fantasy,
    ]);
    const ids = async (q = '') =>
      (await call(null, 'GET', `/api/ads${q}`)).json().items.map((a: { id: string }) => a.id);

    expect(await ids()).toEqual([fantasy, mystery]);
    expect(await ids('?genre=mystery')).toEqual([mystery]);
    expect(await ids('?keywords=Draghi,%20elfi')).toEqual([fantasy]);
    expect(await ids('?minRating=4')).toEqual([fantasy]);
    const page = (await call(null, 'GET', '/api/ads')).json();
    expect(page).toMatchObject({ page: 1, pageSize: 20, total: 2 });
    expect(page.items[0]).toMatchObject({
      sponsor: { id: ada.id, displayName: 'Ada Autrice', username: 'ada_writes' },
      genre: 'fantasy',
      keywords: ['draghi'],
    });
    const bad = await call(null, 'GET', '/api/ads?genre=cookbooks&minRating=6&page=x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      genre: 'Unknown genre',
      minRating: 'Minimum rating must be a number from 0 to 5',
      page: 'Page must be a whole number of 1 or more',
    });
  });
});

describe('the sponsored slot', () => {
  it('prefers the page’s genre and search words, says why, and never repeats an excluded ad', async () => {
    const mystery = await api.createAd(ada, { genre: 'mystery', keywords: 'milano, noir' });
    const fantasy = await api.createAd(ada, { genre: 'fantasy', keywords: 'draghi' });
    const sciFi = await api.createAd(ada, { genre: 'sciFi', keywords: 'robot, milano' });

    for (let i = 0; i < 5; i++) {
      const [ad] = await api.slot('placement=library&genre=mystery&q=Milano%20noir');
      expect(ad.id).toBe(mystery);
      expect(ad.reasons).toEqual({
        genre: 'mystery',
        keywords: ['milano', 'noir'],
        matchedGenre: true,
        matchedKeywords: ['milano', 'noir'],
      });
      expect(ad.sponsor).toMatchObject({ id: ada.id, displayName: 'Ada Autrice' });
    }
    // A marketplace genre maps to its ad genre (sciFi is the same key in both lists).
    const [robot] = await api.slot('placement=buy&genre=sciFi');
    expect(robot.id).toBe(sciFi);
    // Both matching (genre and keyword) before only one.
    const two = await api.slot('placement=library&genre=sciFi&q=milano&limit=2');
    expect(two.map((a) => a.id)).toEqual([sciFi, mystery]);

    const shelf = await api.slot(`placement=buy&limit=12&exclude=${mystery},not-an-id`);
    expect(shelf.map((a) => a.id).sort()).toEqual([fantasy, sciFi].sort());

    const bad = await call(null, 'GET', '/api/ads/slot?placement=sidebar&limit=13');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      placement: 'Unknown placement. Use library, buy, community, promoted or ad',
      limit: 'Limit must be a whole number from 1 to 12',
    });
  });

  it('rotates among ads that match equally, favouring the less seen today', async () => {
    const a = await api.createAd(ada, { genre: 'fantasy', keywords: '' });
    const b = await api.createAd(ada, { genre: 'fantasy', keywords: '' });
    const seen = new Set<string>();
    for (let i = 0; i < 30 && seen.size < 2; i++)
      seen.add((await api.slot('placement=library'))[0].id);
    expect([...seen].sort()).toEqual([a, b].sort());

    // b has been seen 999 times today: a comes up nearly always.
    await t.database.query(
      `insert into ad_daily_stats (ad_id, day, impressions) values ($1, '2026-03-10', 999)`,
      [b],
    );
    let firstA = 0;
    for (let i = 0; i < 40; i++) if ((await api.slot('placement=library'))[0].id === a) firstA++;
    expect(firstA).toBeGreaterThanOrEqual(36);
  });
});

describe('the API document', () => {
  it('lists every advertisements route with its errors', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    // 403 on a member's changes: the terms not accepted yet (platform/auth.ts).
    const routes: Array<[string, string, string[]]> = [
      ['/api/ads', 'get', ['200', '400']],
      ['/api/ads', 'post', ['201', '400', '401', '403']],
      ['/api/ads/slot', 'get', ['200', '400']],
      ['/api/ads/mine', 'get', ['200', '400', '401']],
      ['/api/ads/{id}', 'get', ['200', '404']],
      ['/api/ads/{id}', 'patch', ['200', '400', '401', '403', '404']],
      ['/api/ads/{id}', 'delete', ['204', '401', '403', '404']],
      ['/api/ads/{id}/activate', 'post', ['200', '401', '403', '404', '409']],
      ['/api/ads/{id}/pause', 'post', ['200', '401', '403', '404', '409']],
      ['/api/ads/{id}/resume', 'post', ['200', '401', '403', '404', '409']],
      ['/api/ads/{id}/events', 'post', ['202', '400', '404', '503']],
      ['/api/ads/{id}/analytics', 'get', ['200', '400', '401', '404']],
      ['/api/ads/{id}/analytics.csv', 'get', ['200', '400', '401', '404']],
      ['/api/ads/{id}/reviews', 'get', ['200', '400', '404']],
      ['/api/ads/{id}/reviews', 'post', ['201', '400', '401', '403', '404', '409']],
    ];
    for (const [path, method, statuses] of routes) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      expect(Object.keys(doc.paths[path][method].responses).sort(), `${method} ${path}`).toEqual(
        statuses.sort(),
      );
    }
  });
});
