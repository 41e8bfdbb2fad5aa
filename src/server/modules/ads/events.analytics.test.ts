import { describe, expect, it } from 'vitest';
import type { Member } from '../../test/members';
import { clock, t, ada, bruno, carla, api, useFixture } from './events.fixture';

useFixture();

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
