import { describe, expect, it } from 'vitest';
import { t, seller, listing, PUBLIC_URL, get, meta, titleOf, useFixture } from './routes.fixture';

useFixture();

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
