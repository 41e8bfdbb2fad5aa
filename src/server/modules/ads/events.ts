import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AdEventKind, AdPlacement, AdPurchaseStore } from '@shared/schemas/ads';
import type { Database } from '../../db/client';
import { inTransaction } from '../../db/tx';
import { dayOf } from './queries';

/**
 * Known automated clients, matched in the User-Agent (case-insensitive). Requests without a
 * User-Agent count as bots too. Search and social crawlers, link previewers, SEO tools, AI
 * crawlers, uptime monitors and HTTP libraries; headless browsers are not listed (they can send
 * any User-Agent, and real readers' browsers are sometimes driven that way by accessibility tools).
 */
export const BOT_PATTERN = new RegExp(
  [
    // "bot" as a word or before a version, but not the CUBOT phone brand.
    '(?<!cu)bot\\b',
    'bot/',
    'crawl',
    'spider',
    'slurp',
    'bingpreview',
    'mediapartners',
    'adsbot',
    'facebookexternalhit',
    'facebookcatalog',
    'embedly',
    'quora link preview',
    'whatsapp',
    'telegrambot',
    'discordbot',
    'slackbot',
    'skypeuripreview',
    'vkshare',
    'redditbot',
    'linkedinbot',
    'baiduspider',
    'duckduckbot',
    'applebot',
    'petalbot',
    'semrush',
    'ahrefs',
    'mj12bot',
    'dotbot',
    'gptbot',
    'chatgpt-user',
    'ccbot',
    'claudebot',
    'anthropic-ai',
    'bytespider',
    'perplexitybot',
    'lighthouse',
    'pagespeed',
    'pingdom',
    'uptimerobot',
    'statuscake',
    'curl/',
    'wget/',
    'python-requests',
    'python-urllib',
    'aiohttp',
    'httpx',
    'go-http-client',
    'java/',
    'okhttp',
    'apache-httpclient',
    'node-fetch',
    'undici',
    'axios/',
    'libwww-perl',
    'scrapy',
    'phantomjs',
  ].join('|'),
  'i',
);

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || !userAgent.trim() || BOT_PATTERN.test(userAgent);
}

export type Device = 'mobile' | 'tablet' | 'desktop';
export function deviceOf(userAgent: string): Device {
  if (/ipad|tablet|kindle|silk|playbook|(android(?!.*mobile))/i.test(userAgent)) return 'tablet';
  if (/mobi|iphone|ipod|android|blackberry|opera mini|iemobile/i.test(userAgent)) return 'mobile';
  return 'desktop';
}

export interface AdEvent {
  adId: string;
  kind: AdEventKind;
  /** The viewer (viewerOf): 'user:<id>' for a member, 'anon:<address>' otherwise. */
  who: string;
  /** The signed-in viewer, only to leave the author's own events out; never stored. */
  userId: string | null;
  placement: AdPlacement | null;
  store: AdPurchaseStore | null;
  /** Kept only with marketing consent. */
  userAgent: string | null;
  referrer: string | null;
  device: Device | null;
}

interface Pending extends Omit<AdEvent, 'who'> {
  day: string;
  viewerHash: string;
  at: Date;
}

/** Events buffered before a flush starts at once (otherwise every FLUSH_MS). */
export const FLUSH_BATCH = 200;
export const FLUSH_MS = 1000;
/** Beyond this many unwritten events (a database outage), new ones are dropped. */
const MAX_PENDING = 20_000;

export interface EventWriterDeps {
  database: Database;
  now: () => Date;
  log: { warn: (obj: object, msg: string) => void };
  /** What a billed click costs, in the ad's currency (ADS_COST_PER_CLICK). */
  costPerClick: number;
  flushMs?: number;
  /** Called after a batch is written (counters, and so budgets, may have moved). */
  onWritten?: () => void;
}

/**
 * Counted ad events, written in batches: `add` only hashes and buffers; a flush (every second,
 * at FLUSH_BATCH events, before analytics are read and when the app closes) writes them with one
 * statement: a multi-row INSERT ... ON CONFLICT DO NOTHING on the once-a-day unique index, the
 * per-day counters and the ad's all-time counters updated from the rows actually inserted.
 */
export function createEventWriter({
  database,
  now,
  log,
  costPerClick,
  flushMs = FLUSH_MS,
  onWritten = () => {},
}: EventWriterDeps) {
  let pending = new Map<string, Pending>();
  let running: Promise<void> = Promise.resolve();
  let salt: { day: string; key: Buffer } | null = null;
  let closed = false;

  /**
   * Today's salt, shared by every process through ad_viewer_salts; older salts are deleted, so a
   * past day's hashes cannot be recomputed from a guessed address.
   */
  async function saltOf(day: string): Promise<Buffer> {
    if (salt?.day === day) return salt.key;
    await database.query(
      'insert into ad_viewer_salts (day, salt) values ($1::date, $2) on conflict (day) do nothing',
      [day, randomBytes(32)],
    );
    const [row] = await database.query<{ salt: Buffer | Uint8Array }>(
      'select salt from ad_viewer_salts where day = $1::date',
      [day],
    );
    await database.query('delete from ad_viewer_salts where day < $1::date', [day]);
    salt = { day, key: Buffer.from(row.salt) };
    return salt.key;
  }

  /**
   * Writes one UTC day's events. The ads of the batch are locked first (in id order, so two
   * processes flushing at once never deadlock): the counting statement then starts after any other
   * flush of these ads has committed, and sees the clicks already billed. That statement bills each
   * new click only while it still fits the ad's daily and total budgets (the n-th new click of the
   * batch costs n × cost per click on top of what is billed), and records the rest as not billed.
   */
  async function write(batch: Pending[]): Promise<void> {
    const col = <K extends keyof Pending>(k: K) => batch.map((e) => e[k] ?? null);
    const ads = [...new Set(batch.map((e) => e.adId))].sort();
    await inTransaction(database, async (query) => {
      await query(
        'select id from book_advertisements where id = any($1::uuid[]) order by id for update',
        [ads],
      );
      await query(
        `with input as (
           select * from unnest($1::uuid[], $2::text[], $3::date[], $4::text[], $5::text[],
             $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[])
             as t(ad_id, kind, day, viewer_hash, viewer_user, placement, store, device, user_agent,
               referrer, created_at)
         ),
         -- What counts: a running ad, not its author, not counted before; a click only after an
         -- impression of the same ad by the same viewer that day (already counted, or in this batch).
         fresh as (
           select i.*, a.daily_budget, a.total_budget, a.billed_click_count
           from input i join book_advertisements a on a.id = i.ad_id
           where a.author_id is distinct from i.viewer_user
             and a.status = 'active' and (a.start_date is null or a.start_date <= i.day)
             and (a.end_date is null or a.end_date >= i.day)
             and not exists (select 1 from ad_events e where e.ad_id = i.ad_id and e.kind = i.kind
               and e.day = i.day and e.viewer_hash = i.viewer_hash)
             and (i.kind <> 'click'
               or exists (select 1 from ad_events e where e.ad_id = i.ad_id
                 and e.kind = 'impression' and e.day = i.day and e.viewer_hash = i.viewer_hash)
               or exists (select 1 from input j where j.ad_id = i.ad_id
                 and j.kind = 'impression' and j.day = i.day and j.viewer_hash = i.viewer_hash))
         ),
         billing as (
           select f.ad_id, f.viewer_hash,
             (f.daily_budget = 0 or (coalesce(s.billed_clicks, 0) + row_number() over w)
                 * $12::numeric <= f.daily_budget)
             and (f.total_budget = 0 or (f.billed_click_count + row_number() over w)
                 * $12::numeric <= f.total_budget) as billed
           from fresh f left join ad_daily_stats s on s.ad_id = f.ad_id and s.day = f.day
           where f.kind = 'click'
           window w as (partition by f.ad_id order by f.created_at, f.viewer_hash)
         ),
         ins as (
           insert into ad_events (ad_id, kind, day, viewer_hash, placement, store, device,
             user_agent, referrer, created_at, billed)
           select f.ad_id, f.kind, f.day, f.viewer_hash, f.placement, f.store, f.device,
             f.user_agent, f.referrer, f.created_at, b.billed
           from fresh f left join billing b
             on f.kind = 'click' and b.ad_id = f.ad_id and b.viewer_hash = f.viewer_hash
           on conflict (ad_id, kind, day, viewer_hash) do nothing
           returning ad_id, kind, day, billed
         ),
         per_day as (
           select ad_id, day,
             count(*) filter (where kind = 'impression')::int as impressions,
             count(*) filter (where kind = 'click')::int as clicks,
             count(*) filter (where kind = 'click' and billed)::int as billed_clicks,
             count(*) filter (where kind = 'conversion')::int as conversions
           from ins group by ad_id, day
         ),
         daily as (
           insert into ad_daily_stats (ad_id, day, impressions, clicks, billed_clicks, conversions)
           select ad_id, day, impressions, clicks, billed_clicks, conversions from per_day
           on conflict (ad_id, day) do update set
             impressions = ad_daily_stats.impressions + excluded.impressions,
             clicks = ad_daily_stats.clicks + excluded.clicks,
             billed_clicks = ad_daily_stats.billed_clicks + excluded.billed_clicks,
             conversions = ad_daily_stats.conversions + excluded.conversions
           returning ad_id
         )
         update book_advertisements a set
           view_count = a.view_count + t.impressions,
           click_count = a.click_count + t.clicks,
           billed_click_count = a.billed_click_count + t.billed_clicks,
           conversion_count = a.conversion_count + t.conversions
         from (select ad_id, sum(impressions)::int as impressions, sum(clicks)::int as clicks,
                 sum(billed_clicks)::int as billed_clicks, sum(conversions)::int as conversions
               from per_day group by ad_id) t
         where a.id = t.ad_id`,
        [
          col('adId'),
          col('kind'),
          col('day'),
          col('viewerHash'),
          col('userId'),
          col('placement'),
          col('store'),
          col('device'),
          col('userAgent'),
          col('referrer'),
          batch.map((e) => e.at.toISOString()),
          costPerClick,
        ],
      );
    });
  }

  /** Writes what is buffered; flushes run one after another. */
  function flush(): Promise<void> {
    running = running.then(async () => {
      if (!pending.size) return;
      const batch = [...pending.values()];
      pending = new Map();
      try {
        // A day at a time: a day's budget is checked against that day's billed clicks.
        const days = [...new Set(batch.map((e) => e.day))].sort();
        for (const day of days) await write(batch.filter((e) => e.day === day));
        onWritten();
      } catch (err) {
        log.warn({ err, events: batch.length }, 'ad events could not be written; retrying');
        // Kept for the next flush, unless the buffer is already full (the database is away).
        for (const e of batch) {
          if (pending.size >= MAX_PENDING) break;
          const key = `${e.adId}|${e.kind}|${e.day}|${e.viewerHash}`;
          if (!pending.has(key)) pending.set(key, e);
        }
      }
    });
    return running;
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    /** Buffers one event (already checked: not a bot). Repeats within the batch are merged. */
    async add(event: AdEvent): Promise<void> {
      if (closed) return;
      const at = now();
      const day = dayOf(at);
      const viewerHash = createHmac('sha256', await saltOf(day))
        .update(event.who)
        .digest('base64url');
      const key = `${event.adId}|${event.kind}|${day}|${viewerHash}`;
      if (pending.has(key) || pending.size >= MAX_PENDING) return;
      const { who: _who, ...rest } = event;
      pending.set(key, { ...rest, day, viewerHash, at });
      if (pending.size >= FLUSH_BATCH) void flush();
    },
    flush,
    get pendingCount() {
      return pending.size;
    },
    async close(): Promise<void> {
      closed = true;
      clearInterval(timer);
      await flush();
    },
  };
}

export type EventWriter = ReturnType<typeof createEventWriter>;

/**
 * The viewer key hashed into viewer_hash (never stored): the member, or else the address alone.
 * Nothing a client may change at will per request (its User-Agent, a cookie it drops) makes it
 * another viewer.
 */
export function viewerOf(userId: string | null, ip: string): string {
  return userId ? `user:${userId}` : `anon:${ip}`;
}

/**
 * The token an impression answers with, which the click on that ad must bring back: an HMAC,
 * under a key derived from the app's secret, of the ad, the viewer key and the UTC day, as
 * '<day>.<mac>'. A click without it, with another ad's or viewer's, or from another day, is not
 * counted.
 */
export function createViewerTokens(secret: string) {
  const key = createHmac('sha256', secret).update('scaffale ad viewer token v1').digest();
  const mac = (adId: string, viewer: string, day: string) =>
    createHmac('sha256', key).update(`${adId}\n${viewer}\n${day}`).digest('base64url');
  return {
    issue: (adId: string, viewer: string, day: string) => `${day}.${mac(adId, viewer, day)}`,
    check(token: string | undefined, adId: string, viewer: string, day: string): boolean {
      if (!token) return false;
      const expected = Buffer.from(`${day}.${mac(adId, viewer, day)}`);
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
