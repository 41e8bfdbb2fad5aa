import { describe, expect, it } from 'vitest';
import { flushAdEvents } from './routes';
import { isBot } from './events';
import { BROWSER_UA } from '../../test/ads';
import {
  clock,
  t,
  ada,
  bruno,
  carla,
  api,
  totals,
  storedEvents,
  useFixture,
} from './events.fixture';

useFixture();

describe('counting events', () => {
  it('counts once per viewer, ad, kind and day: a reload does not double count', async () => {
    const id = await api.createAd(ada);
    for (let i = 0; i < 3; i++) {
      const res = await api.track(id, 'impression', { as: bruno });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ received: true, token: expect.stringMatching(/^2026-03-10\./) });
    }
    await flushAdEvents(t.database);
    await api.track(id, 'impression', { as: bruno }); // after the flush: the unique index decides
    await api.track(id, 'click', { as: bruno });
    await api.track(id, 'impression', { as: carla });
    // Two anonymous visitors: told apart by address, each once.
    await api.track(id, 'impression', { ip: '198.51.100.1' });
    await api.track(id, 'impression', { ip: '198.51.100.1' });
    await api.track(id, 'impression', { ip: '198.51.100.2' });
    expect(await totals(id)).toMatchObject({ impressions: 4, clicks: 1, conversions: 0 });

    // The next day the same reader counts again.
    clock.set('2026-03-11T08:00:00Z');
    await api.track(id, 'impression', { as: bruno });
    expect(await totals(id)).toMatchObject({ impressions: 5 });
    const ad = (await api.call(ada, 'GET', `/api/ads/${id}`)).json().ad;
    expect(ad).toMatchObject({ viewCount: 5, clickCount: 1, conversionCount: 0 });
  });

  it('never counts the author’s own views and clicks', async () => {
    const id = await api.createAd(ada);
    await api.track(id, 'impression', { as: ada });
    await api.track(id, 'click', { as: ada });
    await api.track(id, 'conversion', { as: ada });
    expect(await totals(id)).toMatchObject({ impressions: 0, clicks: 0, conversions: 0 });
    expect(await storedEvents(id)).toEqual([]);
  });

  it('never counts known bots, nor requests without a User-Agent', async () => {
    const id = await api.createAd(ada);
    for (const ua of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'facebookexternalhit/1.1',
      'curl/8.4.0',
      'python-requests/2.31',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)',
    ]) {
      expect((await api.track(id, 'impression', { ua, ip: '192.0.2.9' })).statusCode).toBe(202);
    }
    expect((await api.track(id, 'click', { ua: null, ip: '192.0.2.10' })).statusCode).toBe(202);
    expect(await totals(id)).toMatchObject({ impressions: 0, clicks: 0 });
    expect(isBot(BROWSER_UA)).toBe(false);
    expect(isBot('Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)')).toBe(true);
    expect(isBot('Pinterestbot/1.0 (+http://www.pinterest.com/bot.html)')).toBe(true);
    // A CUBOT phone and the Yandex browser are people.
    expect(
      isBot(
        'Mozilla/5.0 (Linux; Android 12; CUBOT X50) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      ),
    ).toBe(false);
    expect(
      isBot(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 YaBrowser/24.1 Safari/537.36',
      ),
    ).toBe(false);
    expect(
      isBot(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe(false);
  });

  it('ignores events of ads that are not running, and answers 404 for ids that are not ads', async () => {
    const draft = await api.createAd(ada, {}, false);
    const ended = await api.createAd(ada, { endDate: '2026-03-10' });
    clock.set('2026-03-11T00:00:00Z');
    await api.track(draft, 'impression', { as: bruno });
    await api.track(ended, 'impression', { as: bruno });
    await flushAdEvents(t.database);
    expect(await storedEvents(draft)).toEqual([]);
    expect(await storedEvents(ended)).toEqual([]);
    const res = await api.track('nope', 'impression', { as: bruno });
    expect(res.statusCode).toBe(404);
    const unknown = await api.track('00000000-0000-4000-8000-000000000000', 'click', { as: bruno });
    expect(unknown.statusCode).toBe(202);
    await flushAdEvents(t.database);
  });

  it('refuses an unknown kind with its message', async () => {
    const id = await api.createAd(ada);
    const res = await t.inject({
      method: 'POST',
      url: `/api/ads/${id}/events`,
      payload: { kind: 'hover' },
      headers: { 'user-agent': BROWSER_UA, 'accept-language': 'it' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      kind: 'Evento sconosciuto. Usa impression, click o conversion',
    });
  });

  it('takes sendBeacon’s text/plain body from our own pages, and refuses other sites', async () => {
    const id = await api.createAd(ada);
    await api.track(id, 'impression', { ip: '203.0.113.50' });
    const token = (await api.track(id, 'impression', { ip: '203.0.113.50' })).json().token;
    const click = JSON.stringify({ kind: 'click', token });
    const beacon = (headers: Record<string, string | undefined>, body = click) =>
      t.inject({
        method: 'POST',
        url: `/api/ads/${id}/events`,
        remoteAddress: '203.0.113.50',
        payload: body,
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          'user-agent': BROWSER_UA,
          ...headers,
        },
      });
    // Chromium sends Origin (or Sec-Fetch-Site: same-origin) with a beacon from our page.
    expect((await beacon({})).statusCode).toBe(202);
    expect((await beacon({ origin: undefined, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(
      202,
    );
    expect((await beacon({ origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await beacon({ origin: undefined })).statusCode).toBe(403);
    expect((await beacon({}, 'kind=click')).statusCode).toBe(400);
    expect(await totals(id)).toMatchObject({ clicks: 1 });
  });
});

describe('privacy', () => {
  it('stores a daily-salted hash, never the address, browser or member id; details only with consent', async () => {
    const id = await api.createAd(ada);
    await api.track(id, 'impression', {
      ip: '198.51.100.77',
      body: { placement: 'library', referrer: 'https://scaffale.example/library' },
    });
    await api.track(id, 'impression', { as: bruno });
    await api.track(id, 'click', {
      as: bruno,
      ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1',
      body: { placement: 'library', consent: true, referrer: 'https://scaffale.example/library' },
    });
    await flushAdEvents(t.database);
    const [anon, , member] = await storedEvents(id);
    expect(anon).toMatchObject({
      kind: 'impression',
      placement: 'library',
      device: null,
      user_agent: null,
      referrer: null,
    });
    expect(member).toMatchObject({
      kind: 'click',
      device: 'mobile',
      referrer: 'https://scaffale.example/library',
    });
    expect(member.user_agent).toContain('iPhone');
    const everything = JSON.stringify(
      await t.database.query('select * from ad_events where ad_id = $1', [id]),
    );
    expect(everything).not.toContain('198.51.100.77');
    expect(everything).not.toContain(bruno.id);
    expect(String(anon.viewer_hash)).toMatch(/^[\w-]{43}$/);

    // A new day, a new salt: yesterday's is gone, and the same reader gets another hash.
    clock.set('2026-03-11T09:00:00Z');
    await api.track(id, 'impression', { ip: '198.51.100.77' });
    await flushAdEvents(t.database);
    const salts = await t.database.query<{ day: string }>(
      'select day::text as day from ad_viewer_salts',
    );
    expect(salts).toEqual([{ day: '2026-03-11' }]);
    const hashes = (await storedEvents(id))
      .filter((e) => e.kind === 'impression')
      .map((e) => e.viewer_hash);
    // The anonymous reader on two days, and Bruno: three hashes.
    expect(new Set(hashes).size).toBe(3);
  });
});

describe('budgets', () => {
  const click = (id: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) => api.viewAndClick(id, { ip: `198.51.100.${i + 1}` })),
    );
  const served = async (id: string) => {
    await flushAdEvents(t.database);
    return (await api.slot('placement=library&limit=12')).some((a) => a.id === id);
  };

  it('stops serving for the rest of the day when the daily budget is reached, and serves again tomorrow', async () => {
    // 0.25 a click: 0.50 is two clicks.
    const id = await api.createAd(ada, { dailyBudget: 0.5 });
    await click(id, 1);
    expect(await served(id)).toBe(true);
    await click(id, 2);
    expect(await served(id)).toBe(false);
    expect((await api.call(null, 'GET', '/api/ads')).json().items).toEqual([]);
    const a = await api.analytics(ada, id);
    expect(a.budget).toEqual({
      dailyBudget: 0.5,
      totalBudget: 0,
      spentToday: 0.5,
      spentTotal: 0.5,
      state: 'dailyReached',
    });
    // The ad's own page still opens (it is only no longer served).
    expect((await api.call(bruno, 'GET', `/api/ads/${id}`)).statusCode).toBe(200);

    clock.set('2026-03-11T00:00:00Z');
    expect(await served(id)).toBe(true);
  });

  it('stops for good when the total budget is reached; 0 means no cap', async () => {
    const capped = await api.createAd(ada, { totalBudget: 0.75, dailyBudget: 0.5 });
    const uncapped = await api.createAd(ada, { title: 'No cap' });
    await click(capped, 2);
    await click(uncapped, 30);
    clock.set('2026-03-11T10:00:00Z');
    expect(await served(capped)).toBe(true); // 0.50 of 0.75 spent
    await click(capped, 1);
    expect(await served(capped)).toBe(false);
    clock.set('2026-03-20T10:00:00Z');
    expect(await served(capped)).toBe(false);
    expect(await served(uncapped)).toBe(true);
    expect((await api.analytics(ada, capped, 'all')).budget).toMatchObject({
      spentTotal: 0.75,
      state: 'totalReached',
    });
  });
});
