import { describe, expect, it } from 'vitest';
import { sitemapPage } from './sitemap';
import {
  t,
  seller,
  secretive,
  listing,
  nasty,
  PUBLIC_URL,
  gattopardo,
  create,
  get,
  useFixture,
} from './routes.fixture';

useFixture();

describe('robots.txt', () => {
  it('allows public pages, keeps out the private area, the API and dev pages, names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'User-agent: *',
        'Allow: /',
        'Disallow: /profile',
        'Disallow: /api/',
        'Allow: /api/listings',
        'Allow: /api/covers/',
        'Allow: /api/works/',
        'Disallow: /dev/',
        `Sitemap: ${PUBLIC_URL}/sitemap.xml`,
      ]),
    );
  });
});

describe('sitemaps', () => {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

  it('indexes the static pages, the listings, the works and the profiles', async () => {
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    expect(res.body.trim().endsWith('</sitemapindex>')).toBe(true);
    expect(locs(res.body)).toEqual([
      `${PUBLIC_URL}/sitemaps/pages.xml`,
      `${PUBLIC_URL}/sitemaps/listings-1.xml`,
      `${PUBLIC_URL}/sitemaps/works-1.xml`,
      `${PUBLIC_URL}/sitemaps/profiles-1.xml`,
    ]);
    const pages = await get('/sitemaps/pages.xml');
    expect(locs(pages.body)).toEqual(
      expect.arrayContaining([`${PUBLIC_URL}/`, `${PUBLIC_URL}/library`, `${PUBLIC_URL}/about`]),
    );
  });

  it('lists available listings with their last change, and drops one made unavailable', async () => {
    const before = await get('/sitemaps/listings-1.xml');
    expect(before.statusCode).toBe(200);
    expect(before.body).toMatch(
      /<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const url = `${PUBLIC_URL}/library/book/${listing.id}`;
    expect(locs(before.body)).toEqual(expect.arrayContaining([url]));
    const detail = (await get(`/api/listings/${listing.id}`)).json();
    expect(before.body).toContain(`<loc>${url}</loc><lastmod>${detail.updatedAt}</lastmod>`);

    const setStatus = (id: string, status: string) =>
      t.inject({
        method: 'POST',
        url: `/api/listings/${id}/status`,
        headers: { cookie: seller.cookie },
        payload: { status },
      });
    for (const status of ['unavailable', 'reserved', 'available']) {
      const changed = await setStatus(listing.id, status);
      expect(changed.statusCode, status).toBe(200);
      const after = await get('/sitemaps/listings-1.xml');
      if (status === 'available') expect(locs(after.body)).toContain(url);
      else expect(locs(after.body), status).not.toContain(url);
      expect(locs(after.body)).toContain(`${PUBLIC_URL}/library/book/${nasty.id}`);
    }
    // A sold book leaves too (and never comes back on sale: another listing, kept out after).
    const gone = await create(seller, { ...gattopardo, title: 'Venduto' });
    expect(locs((await get('/sitemaps/listings-1.xml')).body)).toContain(
      `${PUBLIC_URL}/library/book/${gone.id}`,
    );
    expect((await setStatus(gone.id, 'sold')).statusCode).toBe(200);
    expect(locs((await get('/sitemaps/listings-1.xml')).body)).not.toContain(
      `${PUBLIC_URL}/library/book/${gone.id}`,
    );
  });

  it('lists public profiles, never a private one', async () => {
    const res = await get('/sitemaps/profiles-1.xml');
    const urls = locs(res.body);
    expect(urls).toContain(`${PUBLIC_URL}/user/${seller.id}`);
    expect(urls).not.toContain(`${PUBLIC_URL}/user/${secretive.id}`);
    expect(res.body).not.toContain('Hidden');
  });

  it('answers 404 for pages past the end and unknown files', async () => {
    for (const file of ['listings-2.xml', 'listings-0.xml', 'members-1.xml', 'x.xml']) {
      expect((await get(`/sitemaps/${file}`)).statusCode, file).toBe(404);
    }
  });

  it('pages by the given size, continuing after the last row read', async () => {
    const extra = await Promise.all(
      [1, 2, 3].map((i) => create(seller, { ...gattopardo, title: `Volume ${i}` })),
    );
    const read = async (page: number) => {
      const lines = await sitemapPage(t.database, PUBLIC_URL, 'listings', page, {
        pageSize: 3,
        batchSize: 2,
      });
      if (!lines) return null;
      let xml = '';
      for await (const part of lines) xml += part;
      return locs(xml);
    };
    const first = await read(1);
    const second = await read(2);
    expect(first).toHaveLength(3);
    expect(second).toHaveLength(2);
    expect(await read(3)).toBeNull();
    const all = [...first!, ...second!];
    expect(new Set(all).size).toBe(5);
    for (const { id } of [listing, nasty, ...extra])
      expect(all).toContain(`${PUBLIC_URL}/library/book/${id}`);
  });
});
