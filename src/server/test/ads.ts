// The ads tests' helpers: a browser's requests, a draft ad, the events a page sends.
import type { InjectOptions } from 'fastify';
import { adCreateSchema, type AdCreateInput } from '@shared/schemas/ads';
import { createAdService } from '../modules/ads';
import type { TestApp } from './app';
import type { Member } from './members';

/** A browser's User-Agent (not a bot). */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0 Safari/537.36';

/** A clock the tests move: the app reads it through deps.now. */
export function testClock(start = '2026-03-10T10:00:00Z') {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set(iso: string) {
      current = new Date(iso);
    },
  };
}

export const validAd = (over: Partial<AdCreateInput> = {}): AdCreateInput => ({
  title: 'Il nome della rosa',
  description: 'Un giallo in un monastero del Trecento.',
  genre: 'mystery',
  keywords: 'medieval, monastery, detective',
  ...over,
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export function adsClient(t: TestApp, clock: () => Date = () => new Date()) {
  const call = (
    who: Member | null,
    method: Method,
    url: string,
    payload?: unknown,
    headers: InjectOptions['headers'] = {},
  ) =>
    t.inject({
      method,
      url,
      payload: payload as never,
      headers: {
        'accept-language': 'en',
        'user-agent': BROWSER_UA,
        ...(who ? { cookie: who.cookie } : {}),
        ...headers,
      },
    });

  /**
   * A draft by `who`, activated too when `active`, made through the service (the routes'
   * per-member rate limit is for people, not for test set-up). Returns the ad's id.
   */
  const service = createAdService({ database: t.database, now: clock });
  const createAd = async (who: Member, over: Partial<AdCreateInput> = {}, active = true) => {
    const ad = await service.create(who.id, adCreateSchema.parse(validAd(over)));
    if (active) await service.transition(who.id, ad.id, 'activate');
    return ad.id;
  };

  /**
   * An event as a browser sends it; `as` a member or an anonymous visitor from `ip`. Like the web
   * page, a click sends back the token its viewer's last impression of the ad was answered with
   * (unless the body says otherwise).
   */
  const tokens = new Map<string, string>();
  const track = async (
    id: string,
    kind: 'impression' | 'click' | 'conversion',
    opts: { as?: Member | null; ip?: string; ua?: string | null; body?: object } = {},
  ) => {
    const ip = opts.ip ?? '203.0.113.7';
    const viewer = `${id}|${opts.as ? `user:${opts.as.id}` : `ip:${ip}`}`;
    const token = kind === 'click' ? tokens.get(viewer) : undefined;
    const res = await t.inject({
      method: 'POST',
      url: `/api/ads/${id}/events`,
      remoteAddress: ip,
      payload: { kind, ...(token ? { token } : {}), ...opts.body },
      headers: {
        // null: no User-Agent at all (the injector would add its own when left out).
        'user-agent': opts.ua === null ? '' : (opts.ua ?? BROWSER_UA),
        ...(opts.as ? { cookie: opts.as.cookie } : {}),
      },
    });
    const answer = res.statusCode === 202 ? (res.json() as { token?: string }) : {};
    if (kind === 'impression' && answer.token) tokens.set(viewer, answer.token);
    return res;
  };

  /** A viewer sees the ad, then clicks it, as a reader does. */
  const viewAndClick = async (id: string, opts: Parameters<typeof track>[2] = {}) => {
    await track(id, 'impression', opts);
    return track(id, 'click', opts);
  };

  const analytics = async (who: Member, id: string, timeframe = '30d') => {
    const res = await call(who, 'GET', `/api/ads/${id}/analytics?timeframe=${timeframe}`);
    if (res.statusCode !== 200) throw new Error(`analytics failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  const slot = async (query = 'placement=library&limit=12') => {
    const res = await call(null, 'GET', `/api/ads/slot?${query}`);
    if (res.statusCode !== 200) throw new Error(`slot failed: ${res.statusCode} ${res.body}`);
    return res.json().items as Array<{ id: string } & Record<string, unknown>>;
  };

  return { call, createAd, track, viewAndClick, analytics, slot };
}
