import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { isAllowedCoverUrl } from './covers';

/** Addresses that only look like cover hosts: the attacker's server answers each of them. */
const BYPASSES = [
  'https://books.google.evil.example/cover.png',
  'https://books.google.com.evil.example/cover.png',
  'https://evil.example#books.google.com',
  'https://evil.example/?books.google.com',
  'https://user@books.google.com@evil.example/cover.png',
  'https://books.google.com@evil.example/cover.png',
  'https://books.google.com:8443/cover.png',
  'https://books.google.com./cover.png',
  'http://books.google.com/cover.png',
  'https://x.googleusercontent.com.evil.example/cover.png',
  'https://evil-books.google.com.evil.example/cover.png',
];

let t: TestApp;
let alice: Member;
let bruno: Member;
const fetched: string[] = [];
let png: Buffer;

beforeAll(async () => {
  png = await sharp({
    create: { width: 40, height: 60, channels: 3, background: { r: 200, g: 10, b: 10 } },
  })
    .png()
    .toBuffer();
  // Every address answers with an image, as the attacker's server would.
  const recordingFetch = (async (input: string | URL | Request) => {
    fetched.push(String(input instanceof Request ? input.url : input));
    return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
  }) as typeof fetch;
  t = await createTestApp({
    config: {
      dataDir: mkdtempSync(join(tmpdir(), 'scaffale-covers-')),
      googleBooks: {
        baseUrl: 'https://www.googleapis.com/books/v1',
        enabled: false,
        timeoutMs: 500,
      },
    },
    deps: { fetch: recordingFetch },
  });
  alice = await createMember(t, { username: 'alice_cov' });
  bruno = await createMember(t, { username: 'bruno_cov' });
});

const listingOf = (isbn: string, coverUrl?: string) => ({
  mode: 'full',
  title: `Libro ${isbn}`,
  author: 'Autrice Prova',
  genre: 'fiction',
  listingType: 'trade',
  description: 'Buone condizioni.',
  isbn,
  ...(coverUrl ? { coverUrl } : {}),
});

async function send(method: 'POST' | 'PATCH', url: string, who: Member, payload: object) {
  const res = await t.inject({ method, url, headers: { cookie: who.cookie }, payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

const coverOfBook = async (bookId: string) =>
  (
    await t.database.query<{ cover_url: string | null }>(
      'select cover_url from books where id = $1',
      [bookId],
    )
  )[0].cover_url;

describe('remote cover hosts', () => {
  it('matches whole hosts over https on the default port only', () => {
    for (const url of BYPASSES) expect(isAllowedCoverUrl(url), url).toBe(false);
    expect(isAllowedCoverUrl('https://books.google.com/books/content?id=abc&zoom=1')).toBe(true);
    expect(isAllowedCoverUrl('https://covers.openlibrary.org/b/id/1-L.jpg')).toBe(true);
    expect(isAllowedCoverUrl('http://127.0.0.1:4100/cover', ['127.0.0.1:4100'])).toBe(true);
    expect(isAllowedCoverUrl('http://127.0.0.1:4101/cover', ['127.0.0.1:4100'])).toBe(false);
  });
});

describe("a member's cover address never changes other members' listings", () => {
  it('ignores look-alike hosts on create and edit: no fetch, the shared cover stays as it was', async () => {
    const isbns = ['9788804668015', '9788807881084', '9788845292613', '9780140449136'];
    for (const [i, url] of BYPASSES.entries()) {
      const isbn = isbns[i % isbns.length];
      const theirs = await send('POST', '/api/listings', bruno, listingOf(isbn));
      const before = theirs.coverUrl;
      const shared = await coverOfBook(theirs.bookId);

      // Ignored (the listing is created without it) or refused outright (400: an address with
      // credentials is not a valid cover address); either way nothing is fetched or shared.
      const created = await t.inject({
        method: 'POST',
        url: '/api/listings',
        headers: { cookie: alice.cookie },
        payload: listingOf(isbn, url),
      });
      expect([201, 400], created.body).toContain(created.statusCode);
      const mine =
        created.statusCode === 201
          ? created.json()
          : await send('POST', '/api/listings', alice, listingOf(isbn));
      expect(mine.bookId).toBe(theirs.bookId);
      const edited = await t.inject({
        method: 'PATCH',
        url: `/api/listings/${mine.id}`,
        headers: { cookie: alice.cookie },
        payload: { ...listingOf(isbn, url), listingType: 'trade' },
      });
      expect([200, 400], edited.body).toContain(edited.statusCode);

      const seen = await t.inject({ method: 'GET', url: `/api/listings/${theirs.id}` });
      expect(seen.json().coverUrl, url).toBe(before);
      expect(await coverOfBook(theirs.bookId), url).toBe(shared);
      const cover = await t.inject({ method: 'GET', url: `/api/covers/${theirs.bookId}` });
      expect(cover.headers['content-type'], url).toContain('image/svg+xml');
    }
    expect(fetched.filter((u) => /evil|:8443|\.com\.\//.test(u))).toEqual([]);
  });

  it('does not let a real cover host address become the book cover either', async () => {
    const theirs = await send('POST', '/api/listings', bruno, listingOf('9788806219314'));
    expect(theirs.coverUrl).toBeNull();
    const url = 'https://books.google.com/books/content?id=chosen-by-alice';
    await send('POST', '/api/listings', alice, listingOf('9788806219314', url));
    const seen = await t.inject({ method: 'GET', url: `/api/listings/${theirs.id}` });
    expect(seen.json().coverUrl).toBeNull();
    expect(await coverOfBook(theirs.bookId)).toBeNull();
    expect(fetched).not.toContain(url);
  });
});

describe('GET /api/covers/:bookId', () => {
  it('fetches a catalogue cover from an exact cover host', async () => {
    const [book] = await t.database.query<{ id: string }>(
      `insert into books (title, author, cover_url)
       values ('Catalogo', 'Fonte', 'https://books.google.com/books/content?id=catalogue')
       returning id`,
    );
    const res = await t.inject({ method: 'GET', url: `/api/covers/${book.id}` });
    expect(res.headers['content-type']).toBe('image/webp');
    expect(fetched).toContain('https://books.google.com/books/content?id=catalogue');
  });

  it('serves neither a fetch nor an earlier cached copy for a stored look-alike host', async () => {
    const [plain] = await t.database.query<{ id: string }>(
      `insert into books (title, author) values ('Avvelenato', 'Qualcuno') returning id`,
    );
    for (const url of BYPASSES) {
      const [book] = await t.database.query<{ id: string }>(
        `insert into books (title, author, cover_url) values ('Avvelenato', 'Qualcuno', $1)
         returning id`,
        [url],
      );
      // What a fetch made before the fix left behind.
      mkdirSync(join(t.config.dataDir, 'covers'), { recursive: true });
      writeFileSync(
        join(t.config.dataDir, 'covers', `${book.id}.webp`),
        await sharp(png).webp().toBuffer(),
      );
      const before = fetched.length;
      for (const suffix of ['', '?w=160']) {
        const res = await t.inject({ method: 'GET', url: `/api/covers/${book.id}${suffix}` });
        const generated = await t.inject({
          method: 'GET',
          url: `/api/covers/${plain.id}${suffix}`,
        });
        expect(res.statusCode, url).toBe(200);
        expect(res.rawPayload.equals(generated.rawPayload), `${url} ${suffix}`).toBe(true);
      }
      expect(fetched.length, url).toBe(before);
    }
  });
});
