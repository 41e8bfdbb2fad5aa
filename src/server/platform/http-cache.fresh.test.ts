import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createMember, type Member } from '../test/members';
import { gattopardo } from '../test/listings';
import { createWebFixture } from './spa/web.fixture';

/**
 * A browser revalidates every public read on every load: the second read of an unchanged answer
 * is a 304 without a body, and the first read after a change is a 200 with the new state.
 */

let t: TestApp;
let seller: Member;
let other: Member;
let bookId: string;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, who?: Member | null, payload?: object, etag?: string) =>
  t.inject({
    method,
    url,
    headers: {
      'accept-language': 'it',
      ...(who ? { cookie: who.cookie } : {}),
      ...(etag ? { 'if-none-match': etag } : {}),
    },
    ...(payload ? { payload } : {}),
  });
/** A visitor's read, with the ETag their browser kept (if any). */
const visit = (url: string, etag?: string) => call('GET', url, null, undefined, etag);

/** Reads twice as a visitor: same ETag, then a 304 for it. Returns the answer and its ETag. */
async function readAndRevalidate(url: string) {
  const first = await visit(url);
  expect(first.statusCode, url).toBe(200);
  const etag = String(first.headers['etag']);
  expect(etag, url).toMatch(/^W\/"[\w-]+"$/);
  expect((await visit(url)).headers['etag'], url).toBe(etag);

  const again = await visit(url, etag);
  expect(again.statusCode, url).toBe(304);
  expect(again.body, url).toBe('');
  expect(again.headers['etag'], url).toBe(etag);
  expect(again.headers['cache-control'], url).toBe(
    'public, max-age=0, must-revalidate, s-maxage=5',
  );
  expect(again.headers['vary'], url).toContain('accept-language');
  return { body: first.json(), etag };
}

/** The same If-None-Match after a change: a 200 with a new ETag and the new body. */
async function changed(url: string, etag: string) {
  const res = await visit(url, etag);
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['etag'], url).not.toBe(etag);
  return res.json();
}

async function listBook(price = 12.5): Promise<string> {
  const res = await call('POST', '/api/listings', seller, { ...gattopardo, price });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

beforeAll(async () => {
  t = await createTestApp({ config: { webDir: createWebFixture().dir } });
  seller = await createMember(t, { username: 'fresh_seller', displayName: 'Sara Fresca' });
  other = await createMember(t, { username: 'fresh_other', displayName: 'Otto Altro' });
  const [book] = await t.database.query<{ id: string }>(
    `insert into books (title, author) values ('Il barone rampante', 'Italo Calvino') returning id`,
  );
  bookId = book.id;
});

describe('a visitor reloading a book page', () => {
  it('gets a 304 while nothing changed, and "sold" after the seller marked it sold', async () => {
    const id = await listBook();
    const url = `/api/listings/${id}`;
    const { body, etag } = await readAndRevalidate(url);
    expect(body).toMatchObject({ status: 'available' });
    const page = await visit(`/library/book/${id}`);
    const pageEtag = String(page.headers['etag']);
    expect((await visit(`/library/book/${id}`, pageEtag)).statusCode).toBe(304);

    // Anonymous and another member cannot change it; the visitor's copy is still good.
    const status = `/api/listings/${id}/status`;
    expect((await call('POST', status, null, { status: 'sold' })).statusCode).toBe(401);
    expect((await call('POST', status, other, { status: 'sold' })).statusCode).toBe(404);
    expect((await visit(url, etag)).statusCode).toBe(304);

    expect((await call('POST', status, seller, { status: 'sold' })).statusCode).toBe(200);
    expect(await changed(url, etag)).toMatchObject({ status: 'sold' });
    // The page's head (its JSON-LD offer) says so too.
    const reloaded = await visit(`/library/book/${id}`, pageEtag);
    expect(reloaded.statusCode).toBe(200);
    expect(reloaded.body).toContain('https://schema.org/SoldOut');
  });

  it('sees a new price in the listing, the library and the seller’s books', async () => {
    const id = await listBook(20);
    const reads = [
      `/api/listings/${id}`,
      '/api/listings?q=gattopardo&status=all',
      `/api/users/${seller.id}/listings`,
    ];
    const before = [];
    for (const url of reads) before.push(await readAndRevalidate(url));

    const edit = await call('PATCH', `/api/listings/${id}`, seller, { price: 9 });
    expect(edit.statusCode, edit.body).toBe(200);
    const detail = await changed(reads[0], before[0].etag);
    expect(detail).toMatchObject({ id, price: 9 });
    for (const [i, url] of reads.slice(1).entries()) {
      const page = (await changed(url, before[i + 1].etag)) as {
        items: { id: string; price: number }[];
      };
      expect(page.items.find((item) => item.id === id)?.price, url).toBe(9);
    }
  });

  it('sees the seller’s new name on the book page and the profile', async () => {
    const id = await listBook();
    const listing = await readAndRevalidate(`/api/listings/${id}`);
    const profile = await readAndRevalidate(`/api/users/${seller.id}/profile`);

    const rename = await call('PATCH', '/api/me', seller, { displayName: 'Sara Nuova' });
    expect(rename.statusCode, rename.body).toBe(200);
    expect(await changed(`/api/listings/${id}`, listing.etag)).toMatchObject({
      seller: { displayName: 'Sara Nuova' },
    });
    expect(await changed(`/api/users/${seller.id}/profile`, profile.etag)).toMatchObject({
      displayName: 'Sara Nuova',
    });
  });
});

describe("a visitor reloading a member's posts", () => {
  it('no longer sees a post the member deleted', async () => {
    const write = async (content: string) => {
      const res = await call('POST', '/api/community/posts', seller, { bookId, content });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: string }).id;
    };
    const kept = await write('Cosimo sale sugli alberi.');
    const gone = await write('Un post di cui mi pento.');
    const url = `/api/community/users/${seller.id}/posts`;
    const { body, etag } = await readAndRevalidate(url);
    const ids = (page: unknown) => (page as { items: { id: string }[] }).items.map((p) => p.id);
    expect(ids(body)).toEqual([gone, kept]);
    const post = await readAndRevalidate(`/api/community/posts/${gone}`);

    // Nobody else can delete it: the visitor's copy stays valid.
    expect((await call('DELETE', `/api/community/posts/${gone}`, null)).statusCode).toBe(401);
    const foreign = await call('DELETE', `/api/community/posts/${gone}`, other);
    expect([403, 404]).toContain(foreign.statusCode);
    expect((await visit(url, etag)).statusCode).toBe(304);

    const mine = await call('DELETE', `/api/community/posts/${gone}`, seller);
    expect(mine.statusCode, mine.body).toBeLessThan(300);
    expect(ids(await changed(url, etag))).toEqual([kept]);
    const deleted = await visit(`/api/community/posts/${gone}`, post.etag);
    expect(deleted.statusCode).toBe(404);
    expect(deleted.headers['etag']).toBeUndefined();
  });
});

describe('validators', () => {
  it('a member’s own read revalidates too, privately', async () => {
    const url = `/api/users/${seller.id}/listings`;
    const first = await call('GET', url, seller);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = String(first.headers['etag']);
    const again = await call('GET', url, seller, undefined, etag);
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('private, no-cache');
  });

  it('one ETag for the plain, Brotli and gzip bytes; a 304 whatever the encoding', async () => {
    const url = '/api/listings?status=all';
    const plain = await visit(url);
    const etag = String(plain.headers['etag']);
    for (const encoding of ['br', 'gzip']) {
      const headers = { 'accept-encoding': encoding };
      const res = await t.inject({ method: 'GET', url, headers });
      expect(res.headers['content-encoding'], encoding).toBe(encoding);
      expect(res.headers['etag'], encoding).toBe(etag);
      const cached = await t.inject({
        method: 'GET',
        url,
        headers: { ...headers, 'if-none-match': etag },
      });
      expect(cached.statusCode, encoding).toBe(304);
      expect(cached.rawPayload.length, encoding).toBe(0);
      expect(cached.headers['content-encoding'], encoding).toBeUndefined();
    }
  });

  it('ignores validators that do not match; a write never answers 304', async () => {
    const url = `/api/users/${seller.id}/profile`;
    const { etag } = await readAndRevalidate(url);
    for (const header of ['"nope"', 'W/"nope", "other"', '', `${etag.slice(0, -2)}"`]) {
      const res = await visit(url, header);
      expect(res.statusCode, header).toBe(200);
    }
    // A list naming it, strong or weak, matches (If-None-Match compares weakly).
    expect((await visit(url, `"nope", ${etag}`)).statusCode).toBe(304);
    expect((await visit(url, etag.replace(/^W\//, ''))).statusCode).toBe(304);
    // A write never answers 304, whatever it is sent with.
    const write = await call('PATCH', '/api/me', seller, { bio: 'Leggo.' }, '*');
    expect(write.statusCode).toBe(200);
    expect(write.headers['etag']).toBeUndefined();
  });
});
