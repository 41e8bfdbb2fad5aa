import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createTestApp, testConfig, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { flushAdEvents } from './routes';
import { adsClient, BROWSER_UA, testClock } from '../../test/ads';

/**
 * Forged clicks and spend past budget (issue 19, finding 2), attacked as a script would through
 * HTTP: rotating the User-Agent, clicking without an impression, forging or replaying the token,
 * and many viewers clicking a capped ad, with two server processes flushing at once.
 */
const clock = testClock('2026-03-10T10:00:00Z');
const config = { adsCostPerClick: 0.2, adsServingCacheMs: 0 };
let t: TestApp;
let ada: Member; // the author
let bruno: Member; // a reader
let api: ReturnType<typeof adsClient>;

beforeAll(async () => {
  t = await createTestApp({ deps: { now: clock.now }, config });
  api = adsClient(t, clock.now);
  [ada, bruno] = await Promise.all([
    createMember(t, { username: 'ada_clicks', displayName: 'Ada' }),
    createMember(t, { username: 'bruno_clicks', displayName: 'Bruno' }),
  ]);
});

beforeEach(async () => {
  clock.set('2026-03-10T10:00:00Z');
  await t.database.query('delete from book_advertisements');
});

const figures = async (id: string, timeframe = '30d') => {
  const a = await api.analytics(ada, id, timeframe);
  return { ...a.totals, ...a.budget };
};
const billedRows = async (id: string) =>
  t.database.query<{ billed: boolean; n: number }>(
    `select billed, count(*)::int as n from ad_events where ad_id = $1 and kind = 'click'
     group by billed order by billed`,
    [id],
  );
const served = async (id: string) => {
  await flushAdEvents(t.database);
  return (await api.slot('placement=library&limit=12')).some((a) => a.id === id);
};
const rawClick = (id: string, ip: string, body: object = {}, ua = BROWSER_UA) =>
  t.inject({
    method: 'POST',
    url: `/api/ads/${id}/events`,
    remoteAddress: ip,
    payload: { kind: 'click', ...body },
    headers: { 'user-agent': ua },
  });

describe('who a viewer is', () => {
  it('counts one click from one address, however often the User-Agent changes', async () => {
    const id = await api.createAd(ada);
    for (let i = 0; i < 31; i++) {
      const ua = `${BROWSER_UA} Rotated/${i}`;
      expect((await api.viewAndClick(id, { ip: '198.51.100.66', ua })).statusCode).toBe(202);
    }
    expect(await figures(id)).toMatchObject({ impressions: 1, clicks: 1, cost: 0.2 });
  });

  it('counts no click without an impression by the same viewer that day', async () => {
    const id = await api.createAd(ada);
    for (let i = 1; i <= 5; i++) {
      expect((await rawClick(id, `198.51.100.${i}`)).statusCode).toBe(202);
    }
    // A member's click, with no impression of theirs.
    expect((await api.track(id, 'click', { as: bruno })).statusCode).toBe(202);
    expect(await figures(id)).toMatchObject({ clicks: 0, cost: 0, spentTotal: 0 });
    expect(await billedRows(id)).toEqual([]);
  });

  it('counts no click with a forged, expired, another ad’s or another viewer’s token', async () => {
    const id = await api.createAd(ada);
    const other = await api.createAd(ada, { title: 'Altro' });
    const tokenOf = async (ad: string, ip: string) =>
      (await api.track(ad, 'impression', { ip })).json().token as string;

    // Yesterday's impression, and its token: a new day needs a new impression.
    clock.set('2026-03-09T23:59:00Z');
    const yesterdays = await tokenOf(id, '198.51.100.1');
    clock.set('2026-03-10T10:00:00Z');
    // Today's impressions give each of these viewers the right to click… with their own token.
    await tokenOf(id, '198.51.100.1');
    const othersToken = await tokenOf(other, '198.51.100.2');
    await tokenOf(id, '198.51.100.2');
    const someoneElses = await tokenOf(id, '198.51.100.3');
    await tokenOf(id, '198.51.100.4');
    await tokenOf(id, '198.51.100.5');
    const [day, mac] = someoneElses.split('.');

    for (const [ip, token] of [
      ['198.51.100.1', yesterdays],
      ['198.51.100.2', othersToken],
      ['198.51.100.4', someoneElses],
      ['198.51.100.5', `${day}.${'A'.repeat(mac.length)}`],
      ['198.51.100.5', `2026-03-10.${mac}x`],
      ['198.51.100.5', ''],
    ] as const) {
      expect((await rawClick(id, ip, { token })).statusCode).toBe(202);
    }
    // A member cannot click with the token an anonymous viewer was given, nor the reverse.
    const brunos = (await api.track(id, 'impression', { as: bruno })).json().token;
    expect(
      (await api.track(id, 'click', { as: bruno, body: { token: someoneElses } })).statusCode,
    ).toBe(202);
    expect((await rawClick(id, '198.51.100.5', { token: brunos })).statusCode).toBe(202);
    // A huge or wrongly typed token is bad input, not a server error.
    expect((await rawClick(id, '198.51.100.5', { token: 'x'.repeat(10_000) })).statusCode).toBe(
      400,
    );
    expect((await rawClick(id, '198.51.100.5', { token: 42 })).statusCode).toBe(400);
    expect((await figures(id)).clicks).toBe(0);

    // The genuine token of the right viewer counts, once.
    expect((await rawClick(id, '198.51.100.3', { token: someoneElses })).statusCode).toBe(202);
    expect((await rawClick(id, '198.51.100.3', { token: someoneElses })).statusCode).toBe(202);
    expect((await figures(id)).clicks).toBe(1);
  });
});

describe('budgets', () => {
  const viewers = (n: number, from = 1) =>
    Array.from({ length: n }, (_, i) => `198.51.100.${from + i}`);

  it('never bills past the total budget: 20 clicks at 0.20 on 1.00 bill 5, the rest are recorded', async () => {
    const id = await api.createAd(ada, { totalBudget: 1 });
    // All in one batch: the writer itself must stop billing at the budget.
    await Promise.all(viewers(20).map((ip) => api.viewAndClick(id, { ip })));
    const f = await figures(id);
    expect(f).toMatchObject({
      clicks: 20,
      billedClicks: 5,
      cost: 1,
      spentTotal: 1,
      state: 'totalReached',
    });
    expect(await billedRows(id)).toEqual([
      { billed: false, n: 15 },
      { billed: true, n: 5 },
    ]);
    expect(await served(id)).toBe(false);
    // The next day neither: the total budget is spent for good.
    clock.set('2026-03-11T10:00:00Z');
    await Promise.all(viewers(3, 50).map((ip) => api.viewAndClick(id, { ip })));
    expect(await figures(id, 'all')).toMatchObject({ clicks: 23, billedClicks: 5, spentTotal: 1 });
    expect(await served(id)).toBe(false);
  });

  it('never bills past the daily budget, and bills again the next day', async () => {
    const id = await api.createAd(ada, { dailyBudget: 0.4, totalBudget: 1 });
    for (const ip of viewers(3)) await api.viewAndClick(id, { ip });
    await flushAdEvents(t.database);
    await Promise.all(viewers(5, 10).map((ip) => api.viewAndClick(id, { ip })));
    expect(await figures(id)).toMatchObject({
      clicks: 8,
      billedClicks: 2,
      spentToday: 0.4,
      spentTotal: 0.4,
      state: 'dailyReached',
    });
    expect(await served(id)).toBe(false);
    clock.set('2026-03-11T10:00:00Z');
    expect(await served(id)).toBe(true);
    await Promise.all(viewers(6, 20).map((ip) => api.viewAndClick(id, { ip })));
    expect(await figures(id, '7d')).toMatchObject({
      clicks: 14,
      billedClicks: 4,
      spentToday: 0.4,
      spentTotal: 0.8,
      cost: 0.8,
    });
    const series = (await api.analytics(ada, id, '7d')).series.slice(-2);
    expect(series).toEqual([
      { date: '2026-03-10', impressions: 8, clicks: 8, conversions: 0, cost: 0.4 },
      { date: '2026-03-11', impressions: 6, clicks: 6, conversions: 0, cost: 0.4 },
    ]);
  });

  it('never bills past the budget when two server processes flush at once', async () => {
    // A second process on the same database: its own event writer and buffer.
    const secondDatabase = { ...t.database };
    const second = await buildApp({
      config: testConfig(config),
      database: secondDatabase,
      backgroundJobs: false,
      now: clock.now,
    });
    await second.ready();
    try {
      for (let round = 0; round < 3; round++) {
        const id = await api.createAd(ada, { title: `Round ${round}`, totalBudget: 1 });
        const clickOn = async (app: typeof second, ip: string) => {
          const send = (payload: object) =>
            app.inject({
              method: 'POST',
              url: `/api/ads/${id}/events`,
              remoteAddress: ip,
              payload,
              headers: { 'user-agent': BROWSER_UA, origin: t.config.publicUrl },
            });
          const { token } = (await send({ kind: 'impression' })).json();
          expect((await send({ kind: 'click', token })).statusCode).toBe(202);
        };
        await Promise.all([
          ...viewers(10, 1).map((ip) => clickOn(t.app, ip)),
          ...viewers(10, 11).map((ip) => clickOn(second, ip)),
        ]);
        // Both processes write their batches at the same moment.
        await Promise.all([flushAdEvents(t.database), flushAdEvents(secondDatabase)]);
        expect(await figures(id)).toMatchObject({ clicks: 20, billedClicks: 5, spentTotal: 1 });
        expect(await billedRows(id)).toEqual([
          { billed: false, n: 15 },
          { billed: true, n: 5 },
        ]);
      }
    } finally {
      await second.close();
    }
  });
});
