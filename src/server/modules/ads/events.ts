import { createHmac, randomBytes } from 'node:crypto';
import type { AdEventKind, AdPlacement, AdPurchaseStore } from '@shared/schemas/ads';
import type { Database } from '../../db/client';
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
  /** The viewer: 'user:<id>' for a member, 'anon:<ip>\n<user agent>' otherwise. */
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

  async function write(batch: Pending[]): Promise<void> {
    const col = <K extends keyof Pending>(k: K) => batch.map((e) => e[k] ?? null);
    await database.query(
      `with input as (
         select * from unnest($1::uuid[], $2::text[], $3::date[], $4::text[], $5::text[],
           $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[])
           as t(ad_id, kind, day, viewer_hash, viewer_user, placement, store, device, user_agent,
             referrer, created_at)
       ),
       ins as (
         insert into ad_events (ad_id, kind, day, viewer_hash, placement, store, device,
           user_agent, referrer, created_at)
         select i.ad_id, i.kind, i.day, i.viewer_hash, i.placement, i.store, i.device,
           i.user_agent, i.referrer, i.created_at
         from input i join book_advertisements a on a.id = i.ad_id
         where a.author_id is distinct from i.viewer_user
           and a.status = 'active' and (a.start_date is null or a.start_date <= i.day)
           and (a.end_date is null or a.end_date >= i.day)
         on conflict (ad_id, kind, day, viewer_hash) do nothing
         returning ad_id, kind, day
       ),
       per_day as (
         select ad_id, day,
           count(*) filter (where kind = 'impression')::int as impressions,
           count(*) filter (where kind = 'click')::int as clicks,
           count(*) filter (where kind = 'conversion')::int as conversions
         from ins group by ad_id, day
       ),
       daily as (
         insert into ad_daily_stats (ad_id, day, impressions, clicks, conversions)
         select ad_id, day, impressions, clicks, conversions from per_day
         on conflict (ad_id, day) do update set
           impressions = ad_daily_stats.impressions + excluded.impressions,
           clicks = ad_daily_stats.clicks + excluded.clicks,
           conversions = ad_daily_stats.conversions + excluded.conversions
         returning ad_id
       )
       update book_advertisements a set
         view_count = a.view_count + t.impressions,
         click_count = a.click_count + t.clicks,
         conversion_count = a.conversion_count + t.conversions
       from (select ad_id, sum(impressions)::int as impressions, sum(clicks)::int as clicks,
               sum(conversions)::int as conversions
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
      ],
    );
  }

  /** Writes what is buffered; flushes run one after another. */
  function flush(): Promise<void> {
    running = running.then(async () => {
      if (!pending.size) return;
      const batch = [...pending.values()];
      pending = new Map();
      try {
        await write(batch);
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

/** The viewer key hashed into viewer_hash (never stored). */
export function viewerOf(userId: string | null, ip: string, userAgent: string): string {
  return userId ? `user:${userId}` : `anon:${ip}\n${userAgent}`;
}
