import {
  AD_RECENT_EVENTS,
  ratePercent,
  type AdAnalytics,
  type AdTimeframe,
} from '@shared/schemas/ads';
import type { Database } from '../../db/client';
import { addDays, dayOf, type AdRow } from './queries';

const money = (n: number) => Math.round(n * 100) / 100;

interface DayRow {
  date: string;
  impressions: number;
  clicks: number;
  billed_clicks: number;
  conversions: number;
}

interface EventRow {
  kind: AdAnalytics['recent'][number]['kind'];
  created_at: Date;
  placement: AdAnalytics['recent'][number]['placement'];
  device: AdAnalytics['recent'][number]['device'];
  referrer: string | null;
}

/**
 * An ad's figures over a timeframe: last 7 days and last 30 days end today (UTC) and include it;
 * all time starts on the ad's first day (its creation or its first counted event). Every day of
 * the range is in the series, zeros included. Cost = billed clicks × cost per click: clicks past
 * a budget are counted, not charged.
 */
export async function analyticsOf(
  database: Database,
  ad: AdRow,
  timeframe: AdTimeframe,
  today: string,
  costPerClick: number,
): Promise<AdAnalytics> {
  let from: string;
  if (timeframe === '7d') from = addDays(today, -6);
  else if (timeframe === '30d') from = addDays(today, -29);
  else {
    const [first] = await database.query<{ day: string | null }>(
      'select min(day)::text as day from ad_daily_stats where ad_id = $1',
      [ad.id],
    );
    const created = dayOf(new Date(ad.created_at));
    from = first.day && first.day < created ? first.day : created;
    if (from > today) from = today;
  }
  const [days, events, [todayRow]] = await Promise.all([
    database.query<DayRow>(
      `select d::date::text as date, coalesce(s.impressions, 0)::int as impressions,
         coalesce(s.clicks, 0)::int as clicks, coalesce(s.billed_clicks, 0)::int as billed_clicks,
         coalesce(s.conversions, 0)::int as conversions
       from generate_series($2::date, $3::date, interval '1 day') d
       left join ad_daily_stats s on s.ad_id = $1 and s.day = d::date
       order by d`,
      [ad.id, from, today],
    ),
    database.query<EventRow>(
      `select kind, created_at, placement, device, referrer from ad_events
       where ad_id = $1 and day >= $2::date and day <= $3::date
       order by created_at desc, id desc limit $4`,
      [ad.id, from, today, AD_RECENT_EVENTS],
    ),
    database.query<{ billed_clicks: number }>(
      'select billed_clicks from ad_daily_stats where ad_id = $1 and day = $2::date',
      [ad.id, today],
    ),
  ]);

  const sum = (k: 'impressions' | 'clicks' | 'billed_clicks' | 'conversions') =>
    days.reduce((n, d) => n + Number(d[k]), 0);
  const impressions = sum('impressions');
  const clicks = sum('clicks');
  const conversions = sum('conversions');
  const billedToday = todayRow?.billed_clicks ?? 0;
  const spentToday = money(billedToday * costPerClick);
  const spentTotal = money(ad.billed_click_count * costPerClick);
  // Reached: the next click would pass the budget (compared in cents, as the amounts are kept).
  const cents = (n: number) => Math.round(n * 100);
  const full = (budget: number, billed: number) =>
    budget > 0 && cents((billed + 1) * costPerClick) > cents(budget);
  const state = full(ad.total_budget, ad.billed_click_count)
    ? 'totalReached'
    : full(ad.daily_budget, billedToday)
      ? 'dailyReached'
      : 'ok';

  return {
    adId: ad.id,
    timeframe,
    from,
    to: today,
    currency: ad.currency,
    costPerClick,
    totals: {
      impressions,
      clicks,
      billedClicks: sum('billed_clicks'),
      conversions,
      clickRate: ratePercent(clicks, impressions),
      conversionRate: ratePercent(conversions, clicks),
      cost: money(sum('billed_clicks') * costPerClick),
    },
    series: days.map((d) => ({
      date: d.date,
      impressions: Number(d.impressions),
      clicks: Number(d.clicks),
      conversions: Number(d.conversions),
      cost: money(Number(d.billed_clicks) * costPerClick),
    })),
    recent: events.map((e) => ({
      kind: e.kind,
      at: (e.created_at instanceof Date ? e.created_at : new Date(e.created_at)).toISOString(),
      placement: e.placement,
      device: e.device,
      referrer: e.referrer,
    })),
    budget: {
      dailyBudget: ad.daily_budget,
      totalBudget: ad.total_budget,
      spentToday,
      spentTotal,
      state,
    },
  };
}

const fixed2 = (n: number) => n.toFixed(2);

/** One row a day, for a spreadsheet: rates as percentages with 2 decimals, cost in the currency. */
export function analyticsCsv(a: AdAnalytics): string {
  const lines = [
    `date,impressions,clicks,click_rate,conversions,conversion_rate,cost,currency`,
    ...a.series.map((d) =>
      [
        d.date,
        d.impressions,
        d.clicks,
        fixed2(ratePercent(d.clicks, d.impressions)),
        d.conversions,
        fixed2(ratePercent(d.conversions, d.clicks)),
        fixed2(d.cost),
        a.currency,
      ].join(','),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
