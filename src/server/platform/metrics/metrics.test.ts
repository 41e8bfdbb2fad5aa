import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/app';
import { createMember } from '../../test/members';
import { createPgBus, type BusMessage } from '../realtime/bus';
import { eventually, mustOpen } from '../realtime/testing';

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('GET /metrics, open (development and tests)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('answers the Prometheus text format with every metric, after requests and a socket', async () => {
    const member = await createMember(t); // sends a confirmation e-mail to the outbox
    expect((await t.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const listing = await t.inject({
      method: 'GET',
      url: '/api/listings/00000000-0000-4000-8000-00000000beef',
    });
    expect(listing.statusCode).toBe(404);
    await t.inject({ method: 'GET', url: '/api/no-such-route/12345' });

    const socket = await mustOpen(base, { cookie: member.cookie, origin: t.config.publicUrl });
    socket.send({ type: 'subscribe', topic: 'nosuchkind:1' });
    await socket.next((f) => f.type === 'error');

    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();

    // Requests, by the route's pattern and status; never a raw URL.
    expect(
      sample(text, 'scaffale_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/health',
        status: '200',
      }),
    ).toBe(1);
    const byPattern = [...text.matchAll(/route="(\/api\/listings\/[^"]*)",status="404"/g)];
    expect(byPattern.map((m) => m[1])).toContain('/api/listings/:id');
    expect(text).not.toContain('00000000beef');
    expect(text).not.toContain('12345');
    expect(
      sample(text, 'scaffale_http_request_duration_seconds_count', {
        route: '(unmatched)',
        status: '404',
      }),
    ).toBeGreaterThanOrEqual(1);

    // Sockets and realtime events: the frame in, the error answer out.
    expect(sample(text, 'scaffale_realtime_open_sockets')).toBe(1);
    expect(sample(text, 'scaffale_http_open_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'scaffale_realtime_events_total', { direction: 'in' })).toBe(1);
    expect(sample(text, 'scaffale_realtime_events_total', { direction: 'out' })).toBe(1);
    expect(sample(text, 'scaffale_realtime_bus_messages_total', { direction: 'received' })).toBe(0);
    expect(text).toContain('# TYPE scaffale_realtime_bus_delay_seconds histogram');

    // The database, the event loop, mail and ads.
    expect(sample(text, 'scaffale_db_pool_connections', { state: 'max' })).toBe(
      t.database.kind === 'pglite' ? 1 : 4,
    );
    expect(sample(text, 'scaffale_db_pool_waiting')).toBe(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(
      sample(text, 'scaffale_mail_messages_total', { transport: 'outbox', outcome: 'sent' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'scaffale_mail_messages_total', { transport: 'outbox', outcome: 'failed' }),
    ).toBe(0);
    expect(sample(text, 'scaffale_ad_events_buffered')).toBe(0);

    socket.ws.close();
    await socket.closed;
    await eventually(async () => {
      const again = await (await fetch(`${base}/metrics`)).text();
      return sample(again, 'scaffale_realtime_open_sockets') === 0;
    });
  });

  it('is in the OpenAPI document with its errors', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths['/metrics'].get.responses).sort()).toEqual(['200', '401', '404']);
  });
});

describe('GET /metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { metrics: { enabled: true, token: 'scrape-me-7f3a' } } });
  });

  it('answers 401 without the token or with another one, 200 with it', async () => {
    for (const authorization of [
      undefined,
      'Bearer scrape-me-7f3',
      'Bearer scrape-me-7f3a-and-more',
      'Basic c2NyYXBlLW1lLTdmM2E=',
      'Bearer ',
      `Bearer scrape-me-7f3a\u0000`,
    ]) {
      const res = await t.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization, 'accept-language': 'en' },
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json().error.code).toBe('unauthorized');
      expect(res.body).not.toContain('scaffale_http_request_duration_seconds');
    }
    const ok = await t.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-me-7f3a' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('# TYPE scaffale_http_request_duration_seconds histogram');
  });
});

describe('GET /metrics turned off (production without a token)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { metrics: { enabled: false } } });
  });

  it('answers 404 in the error format, whatever the token', async () => {
    for (const authorization of [undefined, 'Bearer anything']) {
      const res = await t.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization, 'accept-language': 'en' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the PostgreSQL bus delay', () => {
  it('is measured from publish on one process to receipt on another', async () => {
    const database = await createTestDatabase();
    const delays: number[] = [];
    let published = 0;
    const log = { warn() {}, info() {} };
    const a = createPgBus({
      pool: database.pool!,
      processId: 'a',
      log,
      observe: { published: () => published++, received() {} },
    });
    const b = createPgBus({
      pool: database.pool!,
      processId: 'b',
      log,
      observe: { published() {}, received: (ms) => delays.push(ms) },
    });
    const got: BusMessage[] = [];
    b.onMessage((m) => got.push(m));
    await Promise.all([a.ready, b.ready]);
    await a.publish({ users: ['u1'], event: { type: 'ping' } });
    await eventually(() => got.length === 1);
    expect(published).toBe(1);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(0);
    expect(delays[0]).toBeLessThan(5000);
    await a.close();
    await b.close();
  });
});
