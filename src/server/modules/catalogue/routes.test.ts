import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../../test/app';
import { COVER_WIDTHS, coverSvg } from '@shared/cover';
import { GOOGLE_FIELDS } from './google';
import {
  startFakeGoogleBooks,
  type FakeGoogleBooks,
} from '../../test/google-books/fake-google-books';

let fake: FakeGoogleBooks;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeGoogleBooks();
  t = await createTestApp({
    config: {
      dataDir: mkdtempSync(join(tmpdir(), 'scaffale-catalogue-')),
      googleBooks: { baseUrl: fake.url, apiKey: 'test-key', enabled: true, timeoutMs: 1500 },
    },
  });
});
afterAll(() => fake.close());

const search = (q: string, extra = '', lang = 'en') =>
  t.inject({
    method: 'GET',
    url: `/api/catalogue/search?q=${encodeURIComponent(q)}${extra}`,
    headers: { 'accept-language': lang },
  });

describe('GET /api/catalogue/search', () => {
  it('asks Google with the restricted fields and converts volumes to catalogue books', async () => {
    const res = await search('  Il nome della rosa ');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.source).toBe('google');
    expect(body.items).toHaveLength(3);

    const sent = fake.requests.at(-1)!;
    expect(sent.searchParams.get('q')).toBe('Il nome della rosa');
    expect(sent.searchParams.get('maxResults')).toBe('8');
    expect(sent.searchParams.get('fields')).toBe(GOOGLE_FIELDS);
    expect(sent.searchParams.get('key')).toBe('test-key');

    const [rosa, postille, guide] = body.items;
    expect(rosa).toMatchObject({
      googleBooksId: 'uB2kDwAAQBAJ',
      title: 'Il nome della rosa',
      authors: ['Umberto Eco'],
      author: 'Umberto Eco',
      isbn10: '8845292614',
      isbn13: '9788845292613',
      isbn: '9788845292613',
      publisher: 'La nave di Teseo',
      publishedDate: '2020-01-30',
      pageCount: 624,
      categories: ['Fiction'],
      language: 'it',
    });
    expect(rosa.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rosa.coverUrl).toBe(`/api/covers/${rosa.id}`);
    // ISBN-13 preferred, ISBN-10 when that is all there is.
    expect(postille.isbn).toBe('8845258718');
    expect(postille.isbn13).toBeNull();
    // No authors, no ISBN, no cover.
    expect(guide).toMatchObject({ authors: [], author: '', isbn: null, coverUrl: null });
  });

  it('keeps Google answers in the books table: the same volume keeps its id', async () => {
    const first = (await search('Il nome della rosa')).json().items[0];
    const again = (await search('Il nome della rosa')).json().items[0];
    expect(again.id).toBe(first.id);
    const [{ n }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from books where google_books_id = 'uB2kDwAAQBAJ'`,
    );
    expect(n).toBe(1);
    const [stored] = await t.database.query<{ cover_url: string }>(
      `select cover_url from books where google_books_id = 'uB2kDwAAQBAJ'`,
    );
    // large preferred over medium, small and thumbnail
    expect(stored.cover_url).toContain('zoom=4');
  });

  it('joins several authors with a comma and honours limit', async () => {
    const res = await search('harry potter', '&limit=2');
    expect(res.statusCode).toBe(200);
    expect(fake.requests.at(-1)!.searchParams.get('maxResults')).toBe('2');
    const azkaban = res.json().items[1];
    expect(azkaban.author).toBe('J.K. Rowling, Mary GrandPré');
    expect(azkaban.isbn).toBe('9780439655484');
    const [stored] = await t.database.query<{ cover_url: string }>(
      `select cover_url from books where google_books_id = '5iTebBW-w7QC'`,
    );
    expect(stored.cover_url).toContain('zoom=3'); // medium over thumbnail
  });

  it('answers an empty list when Google finds nothing', async () => {
    const res = await search('zzzz nothing at all');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ source: 'google', items: [] });
  });

  it('refuses a query of 1 character or less (trimmed) and a bad limit, in the request language', async () => {
    for (const q of ['a', '   a   ', '']) {
      const res = await search(q);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.q).toBe('Type at least 2 characters to search');
    }
    const it = await search('a', '', 'it');
    expect(it.json().error.fields.q).toBe('Scrivi almeno 2 caratteri per cercare');
    for (const limit of ['0', '21', 'abc', '2.5']) {
      const res = await search('rosa', `&limit=${limit}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.limit).toBe('The number of results must be between 1 and 20');
    }
    const long = await search('x'.repeat(201));
    expect(long.statusCode).toBe(400);
  });

  it('falls back to the local books table when Google fails, is slow or is down', async () => {
    // The earlier searches stored these books locally.
    fake.failWith = 503;
    let res = await search('nome della rosa');
    expect(res.statusCode).toBe(200);
    expect(res.json().source).toBe('local');
    expect(res.json().items.map((b: { title: string }) => b.title)).toContain('Il nome della rosa');
    fake.failWith = 0;

    fake.delayMs = 5000; // above the 1.5 s timeout
    const started = Date.now();
    res = await search('umberto eco');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(res.json().source).toBe('local');
    expect(res.json().items.every((b: { author: string }) => b.author === 'Umberto Eco')).toBe(
      true,
    );
    fake.delayMs = 0;
  });

  it('local search ignores accents, matches prefixes and ISBNs, and forgives typos', async () => {
    fake.failWith = 500;
    try {
      const prefix = (await search('harr pott')).json();
      expect(prefix.source).toBe('local');
      expect(prefix.items.length).toBe(2);
      const accents = (await search('grandpre')).json();
      expect(accents.items.map((b: { googleBooksId: string }) => b.googleBooksId)).toEqual([
        '5iTebBW-w7QC',
      ]);
      const isbn = (await search('978-0-590-35342-7')).json();
      expect(isbn.items[0].googleBooksId).toBe('wrOQLV6xB-wC');
      const typo = (await search('Umberot Eco')).json();
      expect(typo.items.length).toBeGreaterThan(0);
      expect(typo.items[0].author).toBe('Umberto Eco');
    } finally {
      fake.failWith = 0;
    }
  });

  it('serves remote covers from our origin, cached, and a placeholder otherwise', async () => {
    const rosa = (await search('Il nome della rosa')).json().items[0];
    const before = fake.coverRequests;
    const res = await t.inject({ method: 'GET', url: rosa.coverUrl });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(128);
    expect(fake.coverRequests).toBe(before + 1);
    // cached on disk: fetched once
    const again = await t.inject({ method: 'GET', url: rosa.coverUrl });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    expect(fake.coverRequests).toBe(before + 1);

    const guide = (await search('Il nome della rosa')).json().items[2];
    const [{ id }] = await t.database.query<{ id: string }>(
      `select id from books where google_books_id = $1`,
      [guide.googleBooksId],
    );
    const placeholder = await t.inject({ method: 'GET', url: `/api/covers/${id}` });
    expect(placeholder.statusCode).toBe(200);
    expect(placeholder.headers['content-type']).toContain('image/svg+xml');
    expect(placeholder.body).toContain('guida');

    const unknown = await t.inject({ method: 'GET', url: '/api/covers/not-a-book' });
    expect(unknown.statusCode).toBe(404);
  });

  it('serves a cached cover in the cover widths as WebP, immutable; other widths are 400', async () => {
    const [book] = await t.database.query<{ id: string }>(
      `insert into books (title, author, cover_url)
       values ('Large cover', 'Someone', 'https://books.google.com/large') returning id`,
    );
    // The cache as the first fetch leaves it: a 600×900 WebP under DATA_DIR/covers.
    mkdirSync(join(t.config.dataDir, 'covers'), { recursive: true });
    const large = await sharp({
      create: { width: 600, height: 900, channels: 3, background: { r: 20, g: 90, b: 160 } },
    })
      .webp()
      .toBuffer();
    writeFileSync(join(t.config.dataDir, 'covers', `${book.id}.webp`), large);

    for (const w of COVER_WIDTHS) {
      const res = await t.inject({ method: 'GET', url: `/api/covers/${book.id}?w=${w}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: Math.min(w, 600) });
      expect(meta.height).toBe(Math.round((Math.min(w, 600) * 3) / 2));
    }
    // Made once, kept on disk.
    expect(existsSync(join(t.config.dataDir, 'covers', 'sized', '160', `${book.id}.webp`))).toBe(
      true,
    );
    const full = await t.inject({ method: 'GET', url: `/api/covers/${book.id}` });
    expect((await sharp(full.rawPayload).metadata()).width).toBe(600);

    for (const w of ['100', '0', '-160', 'abc', '160.5', '99999']) {
      const bad = await t.inject({
        method: 'GET',
        url: `/api/covers/${book.id}?w=${w}`,
        headers: { 'accept-language': 'en' },
      });
      expect(bad.statusCode, w).toBe(400);
      expect(bad.json().error.fields.w).toBe('Width not available: choose 160, 320, 480 or 640.');
    }
    const unknown = await t.inject({
      method: 'GET',
      url: '/api/covers/00000000-0000-4000-8000-000000000000?w=160',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('draws the generated cover of a book without a usable image, as SVG or WebP', async () => {
    const [book] = await t.database.query<{ id: string }>(
      `insert into books (title, author) values ('Il barone rampante', 'Italo Calvino') returning id`,
    );
    const res = await t.inject({ method: 'GET', url: `/api/covers/${book.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.body).toBe(coverSvg({ title: 'Il barone rampante', author: 'Italo Calvino' }));
    expect(res.body).toContain('Italo Calvino');
    // At a width, a WebP of it: what link previews and srcset can use.
    const sized = await t.inject({ method: 'GET', url: `/api/covers/${book.id}?w=320` });
    expect(sized.statusCode).toBe(200);
    expect(sized.headers['content-type']).toBe('image/webp');
    expect(await sharp(sized.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 320,
      height: 480,
    });
  });

  it('never fetches covers from hosts that are not cover hosts', async () => {
    const [book] = await t.database.query<{ id: string }>(
      `insert into books (title, cover_url) values ('Private', 'http://169.254.169.254/latest') returning id`,
    );
    const res = await t.inject({ method: 'GET', url: `/api/covers/${book.id}` });
    expect(res.headers['content-type']).toContain('image/svg+xml');
  });
});

describe('catalogue with Google Books disabled or unreachable', () => {
  it('answers from the local table with source local when disabled', async () => {
    const off = await createTestApp({
      config: { googleBooks: { baseUrl: fake.url, enabled: false, timeoutMs: 400 } },
    });
    await off.database.query(
      `insert into books (title, authors, author) values ('La coscienza di Zeno', '{Italo Svevo}', 'Italo Svevo')`,
    );
    const before = fake.requests.length;
    const res = await off.inject({ method: 'GET', url: '/api/catalogue/search?q=coscienza' });
    expect(res.statusCode).toBe(200);
    expect(res.json().source).toBe('local');
    expect(res.json().items[0]).toMatchObject({
      title: 'La coscienza di Zeno',
      author: 'Italo Svevo',
    });
    expect(fake.requests.length).toBe(before);
  });

  it('answers locally when nothing listens at the configured address', async () => {
    const down = await startFakeGoogleBooks();
    const url = down.url;
    await down.close();
    const app = await createTestApp({
      config: { googleBooks: { baseUrl: url, enabled: true, timeoutMs: 400 } },
    });
    const res = await app.inject({ method: 'GET', url: '/api/catalogue/search?q=anything' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ source: 'local', items: [] });
  });
});
