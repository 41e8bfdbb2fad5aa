import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import WebSocket from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createMember, type Member } from '../test/members';
import { createWebFixture, type WebFixture } from './spa/web.fixture';
import { registerCompression, registerHttpCache } from './http-cache';

let t: TestApp;
let web: WebFixture;
let member: Member;
let listingId: string;

beforeAll(async () => {
  web = createWebFixture();
  t = await createTestApp({ config: { webDir: web.dir } });
  member = await createMember(t, { username: 'cache_reader', displayName: 'Carla Cache' });
  const [book] = await t.database.query<{ id: string }>(
    `insert into books (title, author) values ('Il nome della rosa', 'Umberto Eco') returning id`,
  );
  // Enough listings for the library's JSON to pass the 1 KB compression threshold.
  for (let i = 0; i < 6; i++) {
    const [row] = await t.database.query<{ id: string }>(
      `insert into book_listings (book_id, user_id, title, author, listing_type, price, description)
       values ($1, $2, $3, 'Umberto Eco', 'sell', 9.5, $4) returning id`,
      [
        book.id,
        member.id,
        `Il nome della rosa ${i}`,
        'Copia con qualche segno a matita. '.repeat(3),
      ],
    );
    listingId = row.id;
  }
});

type Encoding = 'br' | 'gzip';
const get = (url: string, headers: Record<string, string | undefined> = {}) =>
  t.inject({ method: 'GET', url, headers: headers as Record<string, string> });
const decode = (encoding: Encoding, body: Buffer) =>
  (encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body)).toString('utf8');

describe('compression', () => {
  const files = () => [
    ['JavaScript', web.js.url, web.js.body],
    ['CSS', web.css.url, web.css.body],
  ];

  for (const encoding of ['br', 'gzip'] as const) {
    it(`sends the build's ${encoding} twin of JS and CSS when asked`, async () => {
      for (const [, url, body] of files()) {
        const res = await get(url, { 'accept-encoding': encoding });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers['vary']).toContain('accept-encoding');
        expect(res.rawPayload.length).toBeLessThan(body.length / 2);
        expect(decode(encoding, res.rawPayload)).toBe(body);
      }
      const js = await get(web.js.url, { 'accept-encoding': encoding });
      expect(js.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    });

    it(`compresses the page's HTML and API JSON on the fly with ${encoding}`, async () => {
      const html = await get('/library', { 'accept-encoding': encoding });
      expect(html.headers['content-encoding']).toBe(encoding);
      expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(decode(encoding, html.rawPayload)).toBe((await get('/library')).body);

      const json = await get('/api/listings', { 'accept-encoding': encoding });
      expect(json.headers['content-encoding']).toBe(encoding);
      const plain = await get('/api/listings');
      expect(plain.body.length).toBeGreaterThan(1024);
      expect(JSON.parse(decode(encoding, json.rawPayload))).toEqual(plain.json());
    });
  }

  it('prefers Brotli when both are accepted', async () => {
    for (const url of [web.js.url, '/library', '/api/listings']) {
      const res = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.headers['content-encoding'], url).toBe('br');
    }
  });

  it('sends plain bodies without Accept-Encoding, with identity, or for deflate only', async () => {
    for (const headers of [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'deflate' },
    ]) {
      for (const [, url, body] of files()) {
        const res = await get(url, headers);
        expect(res.headers['content-encoding'], url).toBeUndefined();
        expect(res.body).toBe(body);
      }
      const html = await get('/library', headers);
      expect(html.headers['content-encoding']).toBeUndefined();
      expect(html.body).toContain('<div id="root"></div>');
      const json = await get('/api/listings', headers);
      expect(json.headers['content-encoding']).toBeUndefined();
      expect(json.json().items).toHaveLength(6);
    }
  });

  it('leaves small answers alone', async () => {
    const res = await get('/api/health', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('does not touch a WebSocket upgrade', async () => {
    const app = Fastify();
    await registerCompression(app);
    registerHttpCache(app);
    await app.register(websocket);
    app.get('/api/realtime', { websocket: true }, (socket) => {
      socket.on('message', (data) => socket.send(`echo ${'x'.repeat(2000)} ${String(data)}`));
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/realtime`, {
        headers: { 'accept-encoding': 'br, gzip' },
      });
      const reply = await new Promise<string>((resolve, reject) => {
        ws.on('open', () => ws.send('ciao'));
        ws.on('message', (data) => resolve(String(data)));
        ws.on('error', reject);
      });
      ws.close();
      expect(reply).toMatch(/^echo x+ ciao$/);
    } finally {
      await app.close();
    }
  });
});

describe('cache headers', () => {
  it('keeps hashed assets for a year, immutable, whatever the encoding', async () => {
    for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }]) {
      for (const url of [web.js.url, web.css.url]) {
        const res = await get(url, headers);
        expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      }
    }
  });

  it('revalidates files that are not hashed', async () => {
    const res = await get(web.icon.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['etag']).toBeTruthy();
  });

  it('a missing asset is a 404, not the app', async () => {
    const res = await get('/assets/index-Gone0000.js');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('serves the HTML with no-cache and an ETag, and 304 when it has not changed', async () => {
    const first = await get('/about');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers['etag']);
    // Weak: the same tag stands for the plain, Brotli and gzip bytes.
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['vary']).toBe('accept-language, cookie, accept-encoding');

    const again = await get('/about', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['etag']).toBe(etag);

    // Another language is another page: the old validator no longer matches.
    const english = await get('/about', { 'if-none-match': etag, 'accept-language': 'en' });
    expect(english.statusCode).toBe(200);
    expect(english.headers['etag']).not.toBe(etag);
    // /index.html itself is the app, not a raw copy of the template.
    const index = await get('/index.html');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.body).not.toContain("The build's own description");
  });

  const publicReads = () => [
    '/api/listings',
    '/api/listings?q=rosa&sort=price_asc',
    '/api/shelves',
    `/api/listings/${listingId}`,
    `/api/users/${member.id}/profile`,
    `/api/users/${member.id}/listings`,
  ];

  it('makes browsers revalidate anonymous reads of public data; shared caches keep them 5 s', async () => {
    for (const url of publicReads()) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(
        'public, max-age=0, must-revalidate, s-maxage=5',
      );
      expect(res.headers['cache-control'], url).not.toContain('stale-while-revalidate');
      expect(res.headers['vary'], url).toBe('accept-language, accept-encoding, cookie');
      expect(res.headers['etag'], url).toMatch(/^W\/"[\w-]+"$/);
    }
  });

  it('never makes a signed-in read public', async () => {
    for (const url of publicReads()) {
      const res = await get(url, { cookie: member.cookie });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-cache');
      expect(res.headers['vary'], url).toContain('cookie');
      // The member's browser may keep it and must ask again: it has a validator too.
      expect(res.headers['etag'], url).toBeTruthy();
    }
    for (const url of ['/api/me', '/api/me/listings', '/api/me/listings/stats']) {
      const res = await get(url, { cookie: member.cookie });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(res.headers['etag'], url).toBeUndefined();
    }
  });

  it('keeps a not-found public read out of shared caches', async () => {
    const res = await get('/api/listings/00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).not.toMatch(/public/);
    expect(res.headers['etag']).toBeUndefined();
    // If-None-Match: * never turns a missing listing into a 304.
    const star = await get('/api/listings/00000000-0000-4000-8000-000000000000', {
      'if-none-match': '*',
    });
    expect(star.statusCode).toBe(404);
  });

  it('gives every other API answer private, no-store', async () => {
    for (const url of ['/api/health', '/api/nothing-here']) {
      const res = await get(url);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
    }
  });
});
