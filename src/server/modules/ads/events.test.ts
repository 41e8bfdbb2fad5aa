import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, type Member } from '../../test/members';
import { flushAdEvents } from './routes';
import { isBot } from './events';
import { adsClient, BROWSER_UA, testClock } from './test-support';

const clock = testClock('2026-03-10T10:00:00Z');
let t: TestApp;
let ada: Member; // the author
let bruno: Member; // a reader
let carla: Member; // another reader
let api: ReturnType<typeof adsClient>;

beforeAll(async () => {
  // A cost per click of 0.25 (ADS_COST_PER_CLICK) keeps the sums exact in binary too.
  t = await createTestApp({
    deps: { now: clock.now },
    config: { adsCostPerClick: 0.25, adsServingCacheMs: 0 },
  });
  api = adsClient(t, clock.now);
  [ada, bruno, carla] = await Promise.all([
    createMember(t, { username: 'ada_ev', displayName: 'Ada' }),
    createMember(t, { username: 'bruno_ev', displayName: 'Bruno' }),
    createMember(t, { username: 'carla_ev', displayName: 'Carla' }),
  ]);
});

beforeEach(async () => {
  clock.set('2026-03-10T10:00:00Z');
  await t.database.query('delete from book_advertisements');
});

const totals = async (id: string, timeframe = '30d') =>
  (await api.analytics(ada, id, timeframe)).totals;
const storedEvents = async (id: string) =>
  t.database.query<Record<string, unknown>>(
    'select kind, day::text as day, viewer_hash, placement, device, user_agent, referrer from ad_events where ad_id = $1 order by id',
    [id],
  );

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

describe('analytics', () => {
  it('sums the timeframe with rates, cost, a series with zero days and the recent events', async () => {
    const id = await api.createAd(ada, { currency: 'USD' });
    // Day 1: 4 impressions, 2 clicks, 1 conversion. Day 3: 1 impression, 1 click.
    for (let i = 1; i <= 4; i++) await api.track(id, 'impression', { ip: `198.51.100.${i}` });
    await api.track(id, 'click', { ip: '198.51.100.1' });
    await api.track(id, 'click', { ip: '198.51.100.2' });
    await api.track(id, 'conversion', { ip: '198.51.100.1', body: { store: 'amazon' } });
    clock.set('2026-03-12T15:00:00Z');
    await api.track(id, 'impression', { as: bruno, body: { placement: 'buy' } });
    // A second later: events of the same instant have no order of their own (random ids).
    clock.set('2026-03-12T15:00:01Z');
    await api.track(id, 'click', { as: bruno, body: { placement: 'buy' } });

    const a = await api.analytics(ada, id, '7d');
    expect(a).toMatchObject({
      adId: id,
      timeframe: '7d',
      from: '2026-03-06',
      to: '2026-03-12',
      currency: 'USD',
      costPerClick: 0.25,
      totals: {
        impressions: 5,
        clicks: 3,
        conversions: 1,
        clickRate: 60,
        conversionRate: 33.33,
        cost: 0.75,
      },
    });
    expect(a.series).toHaveLength(7);
    expect(a.series.slice(3)).toEqual([
      { date: '2026-03-09', impressions: 0, clicks: 0, conversions: 0, cost: 0 },
      { date: '2026-03-10', impressions: 4, clicks: 2, conversions: 1, cost: 0.5 },
      { date: '2026-03-11', impressions: 0, clicks: 0, conversions: 0, cost: 0 },
      { date: '2026-03-12', impressions: 1, clicks: 1, conversions: 0, cost: 0.25 },
    ]);
    expect(a.recent).toHaveLength(9);
    expect(a.recent[0]).toMatchObject({ kind: 'click', placement: 'buy', device: null });
    expect((await api.analytics(ada, id, '30d')).series).toHaveLength(30);
    const all = await api.analytics(ada, id, 'all');
    expect(all.from).toBe('2026-03-10');
    expect(all.series).toHaveLength(3);

    const csv = await api.call(ada, 'GET', `/api/ads/${id}/analytics.csv?timeframe=7d`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="ad-${id}-7d.csv"`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'date,impressions,clicks,click_rate,conversions,conversion_rate,cost,currency',
    );
    expect(lines).toHaveLength(8);
    expect(lines[5]).toBe('2026-03-10,4,2,50.00,1,50.00,0.50,USD');
    expect(lines[7]).toBe('2026-03-12,1,1,100.00,0,0.00,0.25,USD');
  });

  it('keeps only the 20 most recent events and shows 0% rates without impressions', async () => {
    const id = await api.createAd(ada);
    const empty = await api.analytics(ada, id);
    expect(empty.totals).toEqual({
      impressions: 0,
      clicks: 0,
      billedClicks: 0,
      conversions: 0,
      clickRate: 0,
      conversionRate: 0,
      cost: 0,
    });
    for (let i = 1; i <= 25; i++) await api.track(id, 'impression', { ip: `198.51.100.${i}` });
    expect((await api.analytics(ada, id)).recent).toHaveLength(20);
    const bad = await api.call(ada, 'GET', `/api/ads/${id}/analytics?timeframe=90d`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      timeframe: 'Unknown timeframe. Use 7d, 30d or all',
    });
  });

  it('counts exactly under concurrent events from many viewers', async () => {
    const id = await api.createAd(ada);
    await Promise.all(
      Array.from({ length: 250 }, (_, i) =>
        api.track(id, 'impression', { ip: `10.1.${Math.floor(i / 200)}.${i % 200}` }),
      ),
    );
    await Promise.all(
      Array.from({ length: 250 }, (_, i) =>
        api.track(id, 'impression', { ip: `10.1.${Math.floor(i / 200)}.${i % 200}` }),
      ),
    );
    const a = await api.analytics(ada, id);
    expect(a.totals.impressions).toBe(250);
    const [row] = await t.database.query<{ impressions: number }>(
      'select impressions from ad_daily_stats where ad_id = $1',
      [id],
    );
    expect(row.impressions).toBe(250);
  });
});

describe('reviews', () => {
  it('lets a signed-in reader rate once with a text; the ad’s rating follows', async () => {
    const id = await api.createAd(ada);
    const review = (who: Member | null, body: object) =>
      api.call(who, 'POST', `/api/ads/${id}/reviews`, body);

    expect((await review(null, { rating: 5, text: 'Bello' })).statusCode).toBe(401);
    const own = await review(ada, { rating: 5, text: 'Il mio libro' });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe('You cannot review your own advertisement');

    const bad = await review(bruno, { rating: 6, text: '  ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      rating: 'Choose a rating from 1 to 5',
      text: 'Write a few words about the book',
    });
    const long = await review(bruno, { rating: 3, text: 'x'.repeat(2001) });
    expect(long.json().error.fields).toEqual({
      text: 'A review can be at most 2000 characters',
    });

    const first = await review(bruno, { rating: 4, text: '  Avvincente.  ' });
    expect(first.statusCode).toBe(201);
    expect(first.json().review).toMatchObject({
      adId: id,
      reviewer: { id: bruno.id, displayName: 'Bruno', username: 'bruno_ev' },
      rating: 4,
      text: 'Avvincente.',
      verifiedPurchase: false,
    });
    const again = await review(bruno, { rating: 1, text: 'Cambiato idea' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('You have already reviewed this book');
    await review(carla, { rating: 5, text: 'Capolavoro' });

    const ad = (await api.call(null, 'GET', `/api/ads/${id}`)).json().ad;
    expect(ad).toMatchObject({ averageRating: 4.5, reviewCount: 2 });
    const page = (await api.call(null, 'GET', `/api/ads/${id}/reviews`)).json();
    expect(page).toMatchObject({ page: 1, pageSize: 10, total: 2, averageRating: 4.5 });
    expect(page.items.map((r: { text: string }) => r.text)).toEqual(['Capolavoro', 'Avvincente.']);
  });

  it('pages reviews 10 at a time and refuses ads readers cannot see', async () => {
    const id = await api.createAd(ada);
    // Nine readers' reviews written straight into the table (signing up nine members through
    // better-auth costs seconds), the rating trigger keeping the ad's figures; two through the API.
    await t.database.query(
      `insert into users (id, email, display_name)
       select 'reader-' || g, 'reader-' || g || '@example.com', 'Reader ' || g
       from generate_series(0, 8) g on conflict do nothing`,
    );
    await t.database.query(
      `insert into ad_book_reviews (ad_id, reviewer_id, rating, review_text, created_at)
       select $1, 'reader-' || g, (g % 5) + 1, 'Recensione ' || g,
         now() - make_interval(mins => 20 - g)
       from generate_series(0, 8) g`,
      [id],
    );
    for (const [r, rating] of [
      [bruno, 5],
      [carla, 1],
    ] as const) {
      const res = await api.call(r, 'POST', `/api/ads/${id}/reviews`, {
        rating,
        text: `Recensione di ${r.username}`,
      });
      expect(res.statusCode).toBe(201);
    }
    const first = (await api.call(null, 'GET', `/api/ads/${id}/reviews`)).json();
    const second = (await api.call(null, 'GET', `/api/ads/${id}/reviews?page=2`)).json();
    expect(first.items).toHaveLength(10);
    expect(second.items).toHaveLength(1);
    expect(first.total).toBe(11);
    // 1+2+3+4+5+1+2+3+4 = 25, + 5 + 1 = 31 over 11
    expect(first.averageRating).toBe(2.82);
    expect(first.items[0].text).toBe('Recensione di carla_ev');
    expect(second.items[0].text).toBe('Recensione 0');

    const draft = await api.createAd(ada, {}, false);
    expect((await api.call(bruno, 'GET', `/api/ads/${draft}/reviews`)).statusCode).toBe(404);
    expect(
      (await api.call(bruno, 'POST', `/api/ads/${draft}/reviews`, { rating: 3, text: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await api.call(ada, 'GET', `/api/ads/${draft}/reviews`)).statusCode).toBe(200);
  }, 60_000);
});
