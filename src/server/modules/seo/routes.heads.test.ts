import { describe, expect, it } from 'vitest';
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
  meta,
  titleOf,
  jsonLd,
  useFixture,
} from './routes.fixture';

useFixture();

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

  it('follows the status: out of stock when reserved, in stock again, sold out at last', async () => {
    // A sold book is final (no status by hand brings it back), so sold comes last.
    const cases = [
      ['reserved', 'https://schema.org/OutOfStock', 'prenotato'],
      ['available', 'https://schema.org/InStock', 'in vendita a 12,50 €'],
      ['sold', 'https://schema.org/SoldOut', 'venduto'],
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
      // No review yet: a new member, never a figure made up from trades.
      expect(meta(html, 'description')).toMatch(/Nuovo membro, ancora senza recensioni\.$/);
      expect(meta(html, 'description')).not.toMatch(/su 5/);
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
