import type { Browser, Page } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth, uniqueWord } from './fixtures';
import { createConfirmedMember, dismissCookieBanner, openMember } from './members';

/**
 * A post about a book leads to that book (issue 20 §5): Bruno lists the reading guide of "Il nome
 * della rosa"; Ada writes a post about it from the community page, choosing it from catalogue
 * results that show its generated cover (it has no image); after publishing she lands on her
 * new post (scrolled to, marked), and its book links to the listing's page. In English at
 * 1280 px and in Italian at 375 px.
 */
const GUIDE = 'Il nome della rosa: guida alla lettura';
const origin = (page: Page) => ({ origin: new URL(page.url()).origin });

/** Bruno's listing of the guide, through the API (the catalogue supplies the book). */
async function listGuide(browser: Browser) {
  const bruno = await openMember(browser);
  const found = await bruno.page.request.get(
    `/api/catalogue/search?${new URLSearchParams({ q: 'Il nome della rosa' })}`,
  );
  const book = (await found.json()).items.find((b: { title: string }) => b.title === GUIDE);
  expect(book, 'the guide is in the catalogue fixtures').toBeTruthy();
  const res = await bruno.page.request.post('/api/listings', {
    headers: origin(bruno.page),
    data: {
      mode: 'quickTrade',
      bookId: book.id,
      title: GUIDE,
      author: book.author || 'Umberto Eco',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await bruno.context.close();
}

/** A signed-in member in a browser of their own, in `locale`, at `width`. */
async function member(browser: Browser, locale: string, width: number) {
  const context = await browser.newContext({ locale, viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.goto('/');
  await dismissCookieBanner(page);
  await createConfirmedMember(page);
  return { context, page };
}

for (const { lang, locale, width, t } of [
  {
    lang: 'en',
    locale: 'en-US',
    width: 1280,
    t: {
      create: 'Create post',
      dialog: 'Write a post',
      book: 'Book',
      found: 'Books found',
      content: 'Your post',
      publish: 'Publish',
      feed: 'Popular this week',
    },
  },
  {
    lang: 'it',
    locale: 'it-IT',
    width: 375,
    t: {
      create: 'Crea un post',
      dialog: 'Scrivi un post',
      book: 'Libro',
      found: 'Libri trovati',
      content: 'Il tuo post',
      publish: 'Pubblica',
      feed: 'Popolari questa settimana',
    },
  },
] as const) {
  test(`a post about a book links to its listing; its author lands on it (${lang}, ${width} px)`, async ({
    browser,
  }) => {
    await listGuide(browser);
    const { context, page } = await member(browser, locale, width);
    const words = `${uniqueWord('guida')} una lettura che accompagna il romanzo pagina per pagina.`;

    await page.goto('/community');
    await page.getByRole('button', { name: t.create }).click();
    const dialog = page.getByRole('dialog', { name: t.dialog });
    await dialog.getByRole('searchbox', { name: t.book }).fill('Il nome della rosa');
    const results = dialog.getByRole('list', { name: t.found });
    const guide = results.getByRole('button', { name: new RegExp(`^${GUIDE}`) }).first();
    await expect(guide).toBeVisible();
    // No image in the catalogue: its generated cover, never a grey box.
    await expect(guide.getByTestId('cover-generated')).toBeVisible();
    await expect(guide.locator('svg')).toBeVisible();
    await guide.click();
    await dialog.getByRole('textbox', { name: t.content }).fill(words);
    await dialog.getByRole('button', { name: t.publish }).click();
    await expect(dialog).toBeHidden();

    // She lands on her new post: on top of the feed, marked, in view.
    const feed = page.getByRole('list', { name: t.feed });
    const post = feed.getByRole('article').filter({ hasText: words.split(' ')[0] });
    await expect(post).toHaveAttribute('data-landed', 'true');
    await expect(post).toBeInViewport();
    await expect(post).toBeFocused();
    await expect(feed.getByRole('article').first()).toHaveAttribute('data-landed', 'true');
    await expectFitsWidth(page, width);
    await expectAccessible(page);

    // Its book leads to a listing of that book (the newest one: Bruno's, or a later copy).
    const link = post.getByRole('link', { name: GUIDE });
    await expect(link).toHaveAttribute('href', /^\/library\/book\/[0-9a-f-]{36}$/);
    await link.click();
    await expect(page).toHaveURL(/\/library\/book\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: GUIDE })).toBeVisible();
    await context.close();
  });
}
