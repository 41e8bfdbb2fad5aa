import type { Page } from '@playwright/test';
import {
  testWithTwoMembers as test,
  expect,
  chooseLanguage,
  expectAccessible,
  expectFitsWidth,
  listBook,
  uniqueWord,
} from './fixtures';

/**
 * Bundles by post with the seller's own rule (issue 33 item 7): a bundle price the seller set is
 * what they promised for the whole parcel, so a bundle holding a book they hand over only still
 * goes by post at that price. Without a bundle price the panel names the book that keeps the
 * bundle from going by post. While the buyer adds books lower on the page the bundle stays in
 * sight: at 375 px a bar at the foot of the screen, at 1280 px a corner card, each bringing the
 * panel back.
 */
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });

/** Whether some of the bundle is in the viewport: its panel, or the summary bar. */
const bundleInSight = (page: Page) =>
  page.evaluate(() => {
    const seen = (el: Element | null) => {
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight && r.height > 0;
    };
    return (
      seen(document.querySelector('[data-testid="bundle-panel"]')) ||
      seen(document.querySelector('[data-testid="bundle-bar"]'))
    );
  });

test('a bundle with a hand-only book goes by post at the seller’s price; the bundle stays in sight', async ({
  seller,
  member: buyer,
}) => {
  test.slow();
  const word = uniqueWord('Pavese');
  const titles = [`${word} La luna e i falò`, `${word} Il compagno`, `${word} Feria d’agosto`];
  await listBook(seller.page, titles[0], { author: 'Cesare Pavese', price: 8, shippingCost: 3 });
  await listBook(seller.page, titles[1], { author: 'Cesare Pavese', price: 9, shippingCost: 4 });
  // The third is handed over only: no shipping cost of its own.
  await listBook(seller.page, titles[2], { author: 'Cesare Pavese', price: 7 });

  // At a phone's width the buyer adds the books from the seller's profile, lower on the page:
  // after each, the bundle is in sight (the panel, or the bar at the foot of the screen).
  const b = buyer.page;
  await b.setViewportSize({ width: 375, height: 740 });
  await b.goto(`/user/${seller.id}`);
  const recent = b.getByRole('region', { name: 'Recent books' });
  for (const title of titles) {
    await recent.getByRole('button', { name: `Add “${title}” to the bundle` }).click();
    await expect.poll(() => bundleInSight(b)).toBe(true);
  }
  const panel = b.getByTestId('bundle-panel');
  await expect(panel).toContainText('3 books (at most 20)');
  // Scrolled to the end of the page the panel is gone from sight: the bar stays, says what the
  // bundle holds, and brings the panel back.
  await b.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const bar = b.getByRole('region', { name: 'Bundle summary' });
  await expect(bar).toBeInViewport();
  await expect(bar).toContainText('3 books in your bundle');
  await expect(bar).toContainText(`From ${seller.name} · asking prices €24.00`);
  await expectFitsWidth(b, 375);
  await expectAccessible(b);
  await bar.getByRole('button', { name: 'Show the bundle' }).click();
  await expect(panel).toBeInViewport();
  await expect(bar).toHaveCount(0);
  await expect(
    panel.getByRole('heading', { name: `Your bundle from ${seller.name}` }),
  ).toBeFocused();

  // The seller has no bundle price (the highest single cost): post is not possible, and the
  // panel says which book keeps it from being.
  const post = panel.getByRole('radio', { name: /^By post/ });
  await expect(post).toBeDisabled();
  await expect(panel).toContainText(`By post not possible: “${titles[2]}” is hand-to-hand only`);
  await expect(panel.getByRole('radio', { name: 'Hand to hand' })).toBeChecked();
  // The same in Italian (the language switch sits in the wide header).
  await b.setViewportSize({ width: 1280, height: 800 });
  await chooseLanguage(b, 'it');
  await expect(b.locator('html')).toHaveAttribute('lang', 'it');
  await expect(panel).toContainText(
    `Per posta non è possibile: «${titles[2]}» si consegna solo a mano`,
  );
  await chooseLanguage(b, 'en');
  await expect(b.locator('html')).toHaveAttribute('lang', 'en');
  await b.setViewportSize({ width: 375, height: 740 });

  // The seller sets their own bundle price on My books: 5.00 for the whole parcel.
  const s = seller.page;
  await s.goto(`/profile/${seller.id}/books`);
  const rule = s.getByRole('region', { name: 'Bundles' });
  await rule.getByRole('radio', { name: 'A bundle shipping price I set' }).check();
  await rule.getByRole('textbox', { name: 'Bundle shipping price' }).fill('5');
  await rule.getByRole('button', { name: 'Save the bundle rule' }).click();
  await expect(rule.getByRole('status')).toHaveText('Saved');

  // The buyer's panel now offers post at that price, the hand-only book included.
  await b.reload();
  await expect(panel.getByTestId('bundle-rule')).toHaveText(
    'The seller’s bundle shipping: €5.00 for the whole parcel',
  );
  const byPost = panel.getByRole('radio', { name: 'By post: €5.00 shipping for all' });
  await expect(byPost).toBeEnabled();
  await expect(byPost).toBeChecked();
  await expect(panel).not.toContainText('not possible');
  await panel.getByLabel('Your offer for the books (EUR)').fill('20');
  await expect(panel.getByTestId('bundle-total')).toHaveText('Total: €25.00');
  await expectFitsWidth(b, 375);

  // One offer for the three, by post; the seller accepts: a deal by post at the seller's price.
  await panel.getByRole('button', { name: 'Make an offer for the bundle' }).click();
  await expect(b).toHaveURL(/\/chats\?room=/);
  await expect(messages(b).getByTestId('chat-offer')).toContainText('Your offer: €20.00');
  const room = new URL(b.url()).search;
  await s.setViewportSize({ width: 1280, height: 800 });
  await s.goto(`/profile/${seller.id}/chats${room}`);
  const offer = messages(s).getByTestId('chat-offer');
  await offer.getByRole('button', { name: 'Accept offer' }).click();
  const deal = offer.getByTestId('deal-card');
  await expect(deal).toContainText('By post');
  await expect(deal).toContainText('3 books');
  await expect(deal).toContainText(titles[2]);
  await expect(deal).toContainText('Total: €25.00 (€20.00 + €5.00 shipping)');
  // The buyer is asked for the address the parcel goes to.
  const buyerDeal = messages(b).getByTestId('deal-card').last();
  await expect(buyerDeal.getByLabel('Full name')).toBeVisible();
  await expectFitsWidth(b, 375);
});

test('at 1280 px the bundle stays in sight as a corner card while the page scrolls', async ({
  seller,
  member: buyer,
}) => {
  const word = uniqueWord('Fenoglio');
  const titles = [`${word} Una questione privata`, `${word} La malora`];
  for (const title of titles) await listBook(seller.page, title, { price: 10, shippingCost: 3 });
  const b = buyer.page;
  await b.setViewportSize({ width: 1280, height: 600 });
  await b.goto(`/user/${seller.id}/books`);
  for (const title of titles)
    await b.getByRole('button', { name: `Add “${title}” to the bundle` }).click();
  const panel = b.getByTestId('bundle-panel');
  await expect(panel).toContainText('2 books (at most 20)');
  await b.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(panel).not.toBeInViewport();
  const bar = b.getByRole('region', { name: 'Bundle summary' });
  await expect(bar).toBeInViewport();
  await expect(bar).toContainText('2 books in your bundle');
  // A card in the lower right corner, not a band across the page.
  const box = (await bar.boundingBox())!;
  expect(box.width).toBeLessThan(500);
  expect(box.x + box.width).toBeGreaterThan(1280 - 60);
  await bar.getByRole('button', { name: 'Show the bundle' }).click();
  await expect(panel).toBeInViewport();
});
