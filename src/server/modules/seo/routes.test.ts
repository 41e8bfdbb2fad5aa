import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, type Member } from '../../test/members';
import { createWebFixture } from '../../platform/spa/web-fixture';
import { sitemapPage } from './sitemap';

let t: TestApp;
let seller: Member;
let secretive: Member;
let listing: { id: string };
let nasty: { id: string };
const PUBLIC_URL = 'https://scaffale.example';

const gattopardo = {
  mode: 'full',
  title: 'Il Gattopardo',
  author: 'Giuseppe Tomasi di Lampedusa',
  genre: 'fiction',
  condition: 'likeNew',
  listingType: 'sell',
  price: 12.5,
  currency: 'EUR',
  description: 'Prima edizione Feltrinelli, ottime condizioni.',
  isbn: '978-88-07-88108-4',
  location: 'Palermo',
  shippingCost: 4.9,
};

beforeAll(async () => {
  t = await createTestApp({
    config: { webDir: createWebFixture().dir, publicUrl: PUBLIC_URL },
  });
  seller = await createMember(t, { username: 'sara_seller', displayName: 'Sara Seller' });
  secretive = await createMember(t, { username: 'hidden_one', displayName: 'Hidden Harriet' });
  await t.database.query(`update users set privacy_level = 'private' where id = $1`, [
    secretive.id,
  ]);
  listing = await create(seller, gattopardo);
  nasty = await create(seller, {
    ...gattopardo,
    title: `</script><script>alert(1)</script> "Quoted" & 'single'`,
    author: `<img src=x onerror=alert(2)>`,
    description: `Ends the element </script><!-- and <b>bold</b> "quotes"`,
    isbn: undefined,
  });
});

async function create(who: Member, body: object) {
  const res = await t.inject({
    method: 'POST',
    url: '/api/listings',
    headers: { cookie: who.cookie },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

const get = (url: string, lang = 'it') =>
  t.inject({ method: 'GET', url, headers: { 'accept-language': lang } });

/** The attribute `content` of the meta tag with this name or property, unescaped. */
function meta(html: string, key: string): string | undefined {
  const m = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)" />`).exec(html);
  return m ? unescape(m[1]) : undefined;
}
const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const titleOf = (html: string) => unescape(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
function jsonLd(html: string): Record<string, any> {
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  return JSON.parse(scripts[0][1]);
}

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
        'Disallow: /dev/',
        `Sitemap: ${PUBLIC_URL}/sitemap.xml`,
      ]),
    );
  });
});

describe('sitemaps', () => {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

  it('indexes the static pages, the listings and the profiles', async () => {
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

    for (const status of ['unavailable', 'reserved', 'sold']) {
      const changed = await t.inject({
        method: 'POST',
        url: `/api/listings/${listing.id}/status`,
        headers: { cookie: seller.cookie },
        payload: { status },
      });
      expect(changed.statusCode, status).toBe(200);
      const after = await get('/sitemaps/listings-1.xml');
      expect(locs(after.body), status).not.toContain(url);
      expect(locs(after.body)).toContain(`${PUBLIC_URL}/library/book/${nasty.id}`);
    }

    await t.inject({
      method: 'POST',
      url: `/api/listings/${listing.id}/status`,
      headers: { cookie: seller.cookie },
      payload: { status: 'available' },
    });
    expect(locs((await get('/sitemaps/listings-1.xml')).body)).toContain(url);
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

describe('the head of a book page', () => {
  it('carries the title, price, canonical URL, Open Graph, Twitter and JSON-LD', async () => {
    const res = await get(`/library/book/${listing.id}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    const url = `${PUBLIC_URL}/library/book/${listing.id}`;
    expect(html).toMatch(/^<!doctype html>\n<html lang="it">/);
    expect(titleOf(html)).toBe('Biblioteca - Il Gattopardo | Scaffale');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).not.toContain("The build's own description");
    const description = meta(html, 'description');
    expect(description).toBe(
      'Il Gattopardo di Giuseppe Tomasi di Lampedusa (Come nuovo): in vendita a 12,50 €. Prima edizione Feltrinelli, ottime condizioni.',
    );
    expect(html).toContain(`<link rel="canonical" href="${url}" />`);
    expect(meta(html, 'og:type')).toBe('book');
    expect(meta(html, 'og:title')).toBe('Il Gattopardo - Giuseppe Tomasi di Lampedusa');
    expect(meta(html, 'og:description')).toBe(description);
    expect(meta(html, 'og:url')).toBe(url);
    expect(meta(html, 'og:site_name')).toBe('Scaffale');
    expect(meta(html, 'og:locale')).toBe('it_IT');
    expect(meta(html, 'book:isbn')).toBe('9788807881084');
    expect(meta(html, 'twitter:card')).toBe('summary');
    expect(meta(html, 'twitter:title')).toBe('Il Gattopardo - Giuseppe Tomasi di Lampedusa');
    // The app's own script still loads, and the CSP is untouched.
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-Ab12Cd34.js">');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");

    expect(jsonLd(html)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Book',
      name: 'Il Gattopardo',
      author: { '@type': 'Person', name: 'Giuseppe Tomasi di Lampedusa' },
      isbn: '9788807881084',
      url,
      description,
      offers: {
        '@type': 'Offer',
        url,
        price: '12.50',
        priceCurrency: 'EUR',
        itemCondition: 'https://schema.org/UsedCondition',
        availability: 'https://schema.org/InStock',
        seller: { '@type': 'Person', name: 'Sara Seller', url: `${PUBLIC_URL}/user/${seller.id}` },
      },
    });
  });

  it('never shows what the seller keeps private', async () => {
    const html = (await get(`/library/book/${listing.id}`)).body;
    expect(html).not.toContain(seller.email);
    expect(html).not.toContain('Palermo');
    expect(html).not.toContain('4.9');
  });

  it('speaks English to an English reader', async () => {
    const html = (await get(`/library/book/${listing.id}`, 'en')).body;
    expect(html).toMatch(/<html lang="en">/);
    expect(titleOf(html)).toBe('Library - Il Gattopardo | Scaffale');
    expect(meta(html, 'description')).toMatch(
      /^Il Gattopardo by Giuseppe Tomasi di Lampedusa \(Like new\): for sale at €12\.50\./,
    );
    expect(meta(html, 'og:locale')).toBe('en_GB');
  });

  it('follows the status: sold out, then out of stock when reserved', async () => {
    const cases = [
      ['sold', 'https://schema.org/SoldOut', 'venduto'],
      ['reserved', 'https://schema.org/OutOfStock', 'prenotato'],
      ['available', 'https://schema.org/InStock', 'in vendita a 12,50 €'],
    ] as const;
    for (const [status, availability, text] of cases) {
      const res = await t.inject({
        method: 'POST',
        url: `/api/listings/${nasty.id}/status`,
        headers: { cookie: seller.cookie },
        payload: { status },
      });
      expect(res.statusCode).toBe(200);
      const html = (await get(`/library/book/${nasty.id}`)).body;
      expect(jsonLd(html).offers.availability, status).toBe(availability);
      expect(meta(html, 'description'), status).toContain(`(Come nuovo): ${text}.`);
    }
  });

  it('escapes a nasty title everywhere: no element can be closed or opened', async () => {
    const res = await get(`/library/book/${nasty.id}`);
    const html = res.body;
    const title = `</script><script>alert(1)</script> "Quoted" & 'single'`;
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<!-- and');
    expect(html).not.toContain('<b>bold');
    // The only script elements are the app's module and the JSON-LD.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(titleOf(html)).toBe(`Biblioteca - ${title} | Scaffale`);
    expect(meta(html, 'og:title')).toBe(`${title} - <img src=x onerror=alert(2)>`);
    const data = jsonLd(html);
    expect(data.name).toBe(title);
    expect(data.author.name).toBe('<img src=x onerror=alert(2)>');
    expect(data.description).toContain('</script><!-- and <b>bold</b> "quotes"');
  });

  it('leaves the seller out when their profile is private', async () => {
    const hidden = await create(secretive, { ...gattopardo, title: 'Il barone rampante' });
    const html = (await get(`/library/book/${hidden.id}`)).body;
    expect(jsonLd(html).offers.seller).toBeUndefined();
    expect(html).not.toContain('Hidden Harriet');
    expect(html).not.toContain(secretive.id);
  });

  it('shows the cover as an absolute image for previews and JSON-LD', async () => {
    const covered = await create(seller, { ...gattopardo, title: 'Lessico famigliare' });
    await t.database.query(`update book_listings set cover_url = $2 where id = $1`, [
      covered.id,
      '/uploads/covers/lessico.webp',
    ]);
    const html = (await get(`/library/book/${covered.id}`)).body;
    const image = `${PUBLIC_URL}/uploads/covers/lessico.webp`;
    expect(meta(html, 'og:image')).toBe(image);
    expect(meta(html, 'twitter:image')).toBe(image);
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(jsonLd(html).image).toBe(image);
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await t.inject({ method: 'HEAD', url: `/library/book/${listing.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['etag']).toBeTruthy();
    expect(res.body).toBe('');
  });

  it('answers 404 with the app for a listing that does not exist', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await get(`/library/book/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<div id="root"></div>');
      expect(titleOf(res.body)).toBe('Pagina non trovata | Scaffale');
      expect(meta(res.body, 'robots')).toBe('noindex');
      expect(res.body).not.toContain('rel="canonical"');
    }
  });
});

describe('the head of a profile page', () => {
  it('shows the member by name with a profile card and JSON-LD', async () => {
    for (const suffix of ['', '/books']) {
      const res = await get(`/user/${seller.id}${suffix}`);
      expect(res.statusCode).toBe(200);
      const html = res.body;
      expect(titleOf(html)).toBe(`${suffix ? 'Libri' : 'Profilo'} - Sara Seller | Scaffale`);
      expect(meta(html, 'og:type')).toBe('profile');
      expect(meta(html, 'og:title')).toBe('Sara Seller');
      expect(meta(html, 'profile:username')).toBe('sara_seller');
      expect(meta(html, 'description')).toMatch(
        /^Sara Seller su Scaffale\. Libri pubblicati: \d+\./,
      );
      expect(html).toContain(
        `<link rel="canonical" href="${PUBLIC_URL}/user/${seller.id}${suffix}" />`,
      );
      const data = jsonLd(html);
      expect(data['@type']).toBe('ProfilePage');
      expect(data.mainEntity).toMatchObject({ '@type': 'Person', name: 'Sara Seller' });
      expect(html).not.toContain(seller.email);
    }
  });

  it('keeps a private member nameless and out of the index', async () => {
    const res = await get(`/user/${secretive.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('Hidden');
    expect(res.body).not.toContain('hidden_one');
    expect(meta(res.body, 'robots')).toBe('noindex');
    expect(titleOf(res.body)).toBe('Profilo | Scaffale');
  });

  it('answers 404 for a member who does not exist', async () => {
    const res = await get('/user/nobody-here');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<div id="root"></div>');
  });
});

describe('other pages', () => {
  it('get their own title and description in the reader’s language', async () => {
    const it = await get('/library?q=eco');
    expect(titleOf(it.body)).toBe('Biblioteca | Scaffale');
    expect(it.body).toContain(`<link rel="canonical" href="${PUBLIC_URL}/library" />`);
    const en = await get('/about', 'en');
    expect(titleOf(en.body)).toBe('About | Scaffale');
    expect(meta(en.body, 'og:locale')).toBe('en_GB');
  });

  it('fall back to the site’s name and description, indexed only where public', async () => {
    const unknown = await get('/somewhere/else');
    expect(unknown.statusCode).toBe(200);
    expect(titleOf(unknown.body)).toBe('Scaffale');
    expect(meta(unknown.body, 'description')).toBe(
      'Scaffale: compra, vendi e scambia libri usati in una comunità di lettori.',
    );
    const privateArea = await get(`/profile/${seller.id}/settings`);
    expect(meta(privateArea.body, 'robots')).toBe('noindex');
  });
});

describe('the cookie banner in the page', () => {
  const banner = (html: string) =>
    /<div id="cc-main" data-nosnippet data-prerendered>[\s\S]*?<\/body>/.exec(html)?.[0];

  it('is written into the HTML of a first visit, with the consent tool’s stylesheet', async () => {
    for (const path of ['/', '/library', `/library/book/${listing.id}`, '/cookie-policy']) {
      const res = await get(path);
      const html = res.body;
      const markup = banner(html);
      expect(markup, path).toBeTruthy();
      // After the app's root, before </body>; the tool's markup, so the tool can take its place.
      expect(html.indexOf('<div id="root"></div>'), path).toBeLessThan(
        html.indexOf('id="cc-main"'),
      );
      expect(markup).toContain('role="dialog" aria-modal="true"');
      expect(markup).toContain('aria-label="Consenso ai cookie"');
      expect(markup).toContain('<h2 id="cm__title" class="cm__title">Usiamo i cookie</h2>');
      expect(markup).toContain('<a href="/cookie-policy">Cookie policy</a>');
      for (const [role, label] of [
        ['all', 'Accetta tutti'],
        ['necessary', 'Solo essenziali'],
        ['show', 'Personalizza'],
      ])
        expect(markup).toContain(
          `class="cm__btn${role === 'show' ? ' cm__btn--secondary' : ''}" data-role="${role}"><span>${label}</span></button>`,
        );
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head).toContain(
        '<link rel="stylesheet" crossorigin href="/assets/manager-Rs34Tu56.css">',
      );
    }
  });

  it('speaks the reader’s language', async () => {
    const markup = banner((await get('/', 'en')).body);
    expect(markup).toContain('aria-label="Cookie consent"');
    expect(markup).toContain('>We use cookies</h2>');
    expect(markup).toContain('<span>Essential Only</span>');
  });

  it('is left out once the consent tool’s cookie is set, and the page varies by cookie', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/library',
      headers: {
        'accept-language': 'it',
        cookie: 'scaffale_consent=%7B%22categories%22%3A%5B%5D%7D',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('cc-main');
    expect(res.body).not.toContain('manager-Rs34Tu56.css');
    expect(res.headers['vary']).toContain('cookie');
    // Another answer than the first visit's: its own validator.
    expect(res.headers['etag']).not.toBe((await get('/library')).headers['etag']);
  });
});
