import type { Page } from '@playwright/test';
import { test, expect, expectAccessible, uniqueWord } from './fixtures';
import { createConfirmedMember, dismissCookieBanner } from './members';
import { pngBuffer } from './images';

/**
 * Covers: a book without an image shows its generated cover (title and author on a colour of its
 * own, named for screen readers, the same on every visit), an uploaded cover comes in several
 * widths with srcset and sizes, and every card of the library and of the shelves has an image
 * with a name. The first covers are fetched first; the rest wait until scrolled near.
 */
test.use({ locale: 'en-US' });

const origin = (page: Page) => new URL(page.url()).origin;

async function list(page: Page, title: string, coverUrl?: string) {
  const res = await page.request.post('/api/listings', {
    headers: { origin: origin(page) },
    data: {
      mode: 'full',
      title,
      author: 'Italo Calvino',
      genre: 'fiction',
      condition: 'good',
      listingType: 'sell',
      price: 9,
      description: 'A cover journey listing.',
      coverUrl,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** Every card holds exactly one image with a non-empty accessible name. */
async function expectNamedCovers(page: Page) {
  const cards = page.getByTestId('book-card');
  const n = await cards.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    const image = cards.nth(i).getByRole('img', { name: /^Cover of “.+”$/ });
    await expect(image).toHaveCount(1);
  }
}

test('covers: generated for books without an image, responsive for uploads, named on every card', async ({
  page,
}) => {
  // A word only this run's books hold, so the library search sees them alone.
  const TOKEN = uniqueWord('wombat');
  await page.goto('/');
  await dismissCookieBanner(page);
  await createConfirmedMember(page);
  const upload = await page.request.post('/api/uploads/cover', {
    headers: { origin: origin(page) },
    multipart: {
      file: { name: 'cover.png', mimeType: 'image/png', buffer: await pngBuffer(800, 1200) },
    },
  });
  expect(upload.status()).toBe(201);
  const { url: coverUrl } = await upload.json();
  await list(page, `Il barone rampante ${TOKEN}`);
  await list(page, `Marcovaldo ${TOKEN}`, coverUrl);

  await page.goto(`/library?q=${TOKEN}`);
  const results = page.getByRole('list', { name: 'Books' });
  await expect(page.getByTestId('library-count')).toHaveText('Books found: 2');

  // The generated cover: title and author drawn on it, the whole named after the book.
  const generated = results.getByRole('img', { name: `Cover of “Il barone rampante ${TOKEN}”` });
  await expect(generated).toBeVisible();
  await expect(generated.locator('svg text').first()).toContainText('Il barone');
  await expect(generated.locator('svg')).toContainText('Italo Calvino');
  const drawn = await generated.innerHTML();

  // The uploaded cover: WebP widths for the browser to choose from, no layout shift.
  const uploaded = results.getByRole('img', { name: `Cover of “Marcovaldo ${TOKEN}”` });
  await expect(uploaded).toHaveAttribute('srcset', new RegExp(`${coverUrl}\\?w=160 160w, `));
  await expect(uploaded).toHaveAttribute('sizes', /50vw/);
  await expect(uploaded).toHaveAttribute('width', '200');
  await expect(uploaded).toHaveAttribute('height', '300');
  // On a 375 px phone a card is about 165 px wide: the browser never takes the largest width.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect
    .poll(() => uploaded.evaluate((img: HTMLImageElement) => img.currentSrc))
    .toMatch(/\?w=(160|320|480)$/);
  const res = await page.request.get(`${coverUrl}?w=320`);
  expect(res.headers()['content-type']).toBe('image/webp');

  // The detail page's cover is the largest image: fetched first, never lazy.
  await results.getByRole('link', { name: new RegExp(`Marcovaldo ${TOKEN}`) }).click();
  // The library's first cards have the same attributes: wait for the detail page itself (and its
  // history entry, which the router adds once the page's code is there) before going back.
  await expect(page).toHaveURL(/\/library\/book\//);
  const large = page.getByRole('main').getByRole('img', { name: `Cover of “Marcovaldo ${TOKEN}”` });
  await expect(large).toHaveAttribute('fetchpriority', 'high');
  await expect(large).toHaveAttribute('loading', 'eager');
  await page.goBack();

  // The same book draws the same cover on the next visit.
  await page.reload();
  await expect(generated).toBeVisible();
  expect(await generated.innerHTML()).toBe(drawn);
  await expectAccessible(page);

  // The whole library: the first covers are fetched first, later ones lazily, all named.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/library');
  await expect(page.getByTestId('book-card').first()).toBeVisible();
  await expectNamedCovers(page);
  const priorities = await page
    .getByTestId('book-card')
    .locator('img')
    .evaluateAll((imgs) =>
      imgs.map((i) => [i.getAttribute('loading'), i.getAttribute('fetchpriority')]),
    );
  for (const [loading, fetchpriority] of priorities) {
    expect(['eager', 'lazy']).toContain(loading);
    if (loading === 'lazy') expect(fetchpriority).toBeNull();
  }

  // The shelves too.
  await page.goto('/buy');
  await expect(page.getByTestId('shelf-row').first()).toBeVisible();
  await expectNamedCovers(page);
  await expectAccessible(page);
});
