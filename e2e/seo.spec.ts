import { test, expect } from './fixtures';
import { createConfirmedMember, dismissCookieBanner } from './members';

/** Parsed by the browser's own XML parser: null when the document is not well-formed. */
async function parseXmlLocs(page: import('@playwright/test').Page, xml: string) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    if (doc.getElementsByTagName('parsererror').length) return null;
    return [...doc.getElementsByTagName('loc')].map((el) => el.textContent ?? '');
  }, xml);
}

test('the built app is compressed, cached and readable by crawlers', async ({ page, request }) => {
  // The HTML: compressed when asked, revalidated with an ETag.
  const home = await request.get('/', { headers: { 'accept-encoding': 'br' } });
  expect(home.status()).toBe(200);
  expect(home.headers()['content-encoding']).toBe('br');
  expect(home.headers()['cache-control']).toBe('no-cache');
  const etag = home.headers()['etag'];
  expect(etag).toBeTruthy();
  const again = await request.get('/', { headers: { 'if-none-match': etag } });
  expect(again.status()).toBe(304);

  // Every script and stylesheet the page names comes precompressed and immutable.
  const html = await home.text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1],
  );
  expect(assets.length).toBeGreaterThan(0);
  for (const url of assets) {
    for (const encoding of ['br', 'gzip']) {
      const res = await request.get(url, { headers: { 'accept-encoding': encoding } });
      expect(res.status(), url).toBe(200);
      expect(res.headers()['content-encoding'], url).toBe(encoding);
      expect(res.headers()['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect((await res.body()).length, url).toBeGreaterThan(0);
    }
  }

  // A listing, then its page as a crawler reads it, without running scripts.
  await createConfirmedMember(page);
  const origin = new URL(page.url()).origin;
  const created = await page.request.post('/api/listings', {
    headers: { origin },
    data: {
      mode: 'full',
      title: 'Se una notte d’inverno un viaggiatore',
      author: 'Italo Calvino',
      genre: 'fiction',
      condition: 'good',
      listingType: 'sell',
      price: 8,
      currency: 'EUR',
      description: 'Edizione Einaudi, copertina morbida.',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = await created.json();
  const bookUrl = `/library/book/${id}`;
  const book = await request.get(bookUrl, { headers: { 'accept-language': 'it' } });
  expect(book.status()).toBe(200);
  const bookHtml = await book.text();
  expect(bookHtml).toContain(
    '<title>Biblioteca - Se una notte d’inverno un viaggiatore | Scaffale</title>',
  );
  expect(bookHtml).toContain(`<link rel="canonical" href="${origin}${bookUrl}" />`);
  expect(bookHtml).toContain('<meta property="og:type" content="book" />');
  const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(bookHtml);
  expect(ld).not.toBeNull();
  const data = JSON.parse(ld![1]);
  expect(data).toMatchObject({
    '@type': 'Book',
    name: 'Se una notte d’inverno un viaggiatore',
    offers: {
      '@type': 'Offer',
      price: '8.00',
      priceCurrency: 'EUR',
      availability: 'https://schema.org/InStock',
      itemCondition: 'https://schema.org/UsedCondition',
    },
  });

  // The browser renders the same page, and the app keeps setting the title itself.
  await page.goto(bookUrl);
  await dismissCookieBanner(page);
  await expect(
    page.getByRole('heading', { name: 'Se una notte d’inverno un viaggiatore' }),
  ).toBeVisible();
  await expect(page).toHaveTitle('Biblioteca - Se una notte d’inverno un viaggiatore | Scaffale');

  // A listing that does not exist: 404 for crawlers, the app's own panel for people.
  const missing = await page.goto('/library/book/00000000-0000-4000-8000-000000000000');
  expect(missing?.status()).toBe(404);
  await expect(page.getByText('Libro non trovato')).toBeVisible();

  // robots.txt and the sitemaps, read by the browser's XML parser.
  const robots = await request.get('/robots.txt');
  expect(await robots.text()).toContain(`Sitemap: ${origin}/sitemap.xml`);
  const index = await parseXmlLocs(page, await (await request.get('/sitemap.xml')).text());
  expect(index).toContain(`${origin}/sitemaps/listings-1.xml`);
  const listings = await parseXmlLocs(
    page,
    await (await request.get('/sitemaps/listings-1.xml')).text(),
  );
  expect(listings).toContain(`${origin}${bookUrl}`);
});

test('a first visit’s cookie banner is in the page without scripts, and the tool takes its place', async ({
  browser,
  baseURL,
}) => {
  // Without JavaScript: the server's banner is there, named and styled as the tool's.
  const noJs = await browser.newContext({ javaScriptEnabled: false, baseURL, locale: 'it-IT' });
  const still = await noJs.newPage();
  await still.goto('/library');
  const banner = still.getByRole('dialog', { name: 'Consenso ai cookie' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('heading', { name: 'Usiamo i cookie' })).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Solo essenziali' })).toBeVisible();
  // Drawn by the tool's stylesheet: a fixed box, not text in the flow of the page.
  expect(await banner.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
  await noJs.close();

  // With JavaScript: one banner at every moment; a click on the server's copy is carried out.
  const context = await browser.newContext({ baseURL, locale: 'it-IT' });
  const page = await context.newPage();
  await page.goto('/');
  const dialogs = page.getByRole('dialog', { name: 'Consenso ai cookie' });
  await expect(dialogs).toHaveCount(1);
  await dialogs.getByRole('button', { name: 'Solo essenziali' }).click();
  await expect(dialogs).toHaveCount(0);
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('scaffale.cookiePreferences')))
    .toContain('"functional":false');
  // Answered: the next page comes without the banner in its HTML.
  const html = await (await page.request.get('/library')).text();
  expect(html).not.toContain('cc-main');
  await page.reload();
  await page.waitForLoadState('load');
  await expect(page.locator('#cc-main .cm')).toHaveCount(0);
  await context.close();
});
