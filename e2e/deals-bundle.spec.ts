import type { Page } from '@playwright/test';
import {
  testWithTwoMembers as test,
  expect,
  expectAccessible,
  expectFitsWidth,
  listBook,
  uniqueWord,
} from './fixtures';

/**
 * Bundles (issue 22 item 3): a buyer adds three books of one seller to a bundle from the seller's
 * profile and a book page, sees the seller's shipping rule and the total, and makes one offer for
 * all; the seller accepts it (all three reserved) and marks it sold: the deal completes as one,
 * every book sold.
 */
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });

test('a bundle of three books offered, accepted and completed as one', async ({
  seller,
  member: buyer,
}) => {
  // Three books, two members, the whole post flow with its confirmations: over two minutes on a
  // busy 2-core host.
  test.slow();
  const word = uniqueWord('Lessico');
  const titles = [`${word} famigliare`, `${word} Le voci della sera`, `${word} Caro Michele`];
  const book = (title: string, price: number, shippingCost: number) =>
    listBook(seller.page, title, { author: 'Natalia Ginzburg', price, shippingCost });
  const ids = [
    await book(titles[0], 10, 3),
    await book(titles[1], 12, 5),
    await book(titles[2], 8, 4),
  ];

  // The seller sets no bundle price: "the highest single shipping cost" is the default, shown
  // on My books.
  await seller.page.goto(`/profile/${seller.id}/books`);
  const rule = seller.page.getByRole('region', { name: 'Bundles' });
  await expect(rule.getByRole('radio', { name: 'The highest single shipping cost' })).toBeChecked();
  await expectAccessible(seller.page);

  // On the seller's profile the buyer adds two books; the third from its book page.
  const b = buyer.page;
  await b.goto(`/user/${seller.id}`);
  const recent = b.getByRole('region', { name: 'Recent books' });
  for (const title of titles.slice(0, 2)) {
    const add = recent.getByRole('button', { name: `Add “${title}” to the bundle` });
    await expect(add).toHaveAttribute('aria-pressed', 'false');
    await add.click();
    await expect(add).toHaveAttribute('aria-pressed', 'true');
    await expect(add).toHaveText('In the bundle');
  }
  const panel = b.getByTestId('bundle-panel');
  await expect(panel).toContainText('2 books (at most 20)');
  // The profile with its bundle panel fits a phone.
  await b.setViewportSize({ width: 375, height: 800 });
  await expectFitsWidth(b, 375);
  await b.setViewportSize({ width: 1280, height: 800 });
  await b.goto(`/library/book/${ids[2]}`);
  await b.getByRole('button', { name: `Add “${titles[2]}” to the bundle` }).click();
  await expect(panel).toContainText('3 books (at most 20)');
  for (const title of titles) await expect(panel.getByRole('link', { name: title })).toBeVisible();
  await expect(panel).toContainText('Asking prices: €30.00');
  await expect(panel.getByTestId('bundle-rule')).toHaveText(
    'The seller’s bundle shipping: the highest single shipping cost',
  );
  await expect(panel.getByRole('radio', { name: 'By post: €5.00 shipping for all' })).toBeChecked();
  await panel.getByLabel('Your offer for the books (EUR)').fill('27');
  await expect(panel.getByTestId('bundle-total')).toHaveText('Total: €32.00');
  await expectAccessible(b);
  await b.setViewportSize({ width: 375, height: 800 });
  await expectFitsWidth(b, 375);
  await b.setViewportSize({ width: 1280, height: 800 });

  // One offer for all, in the conversation with the seller, after a card of each book.
  await panel.getByRole('button', { name: 'Make an offer for the bundle' }).click();
  await expect(b).toHaveURL(/\/chats\?room=/);
  const offer = messages(b).getByTestId('chat-offer');
  await expect(offer).toContainText('Your offer: €27.00');
  await expect(offer).toContainText('Pending');
  for (const title of titles) await expect(messages(b).getByText(title).first()).toBeVisible();

  // The seller accepts: the deal card lists the three books, with one shipping cost.
  const roomUrl = new URL(b.url());
  await seller.page.goto(`/profile/${seller.id}/chats${roomUrl.search}`);
  const theirOffer = messages(seller.page).getByTestId('chat-offer');
  await expect(theirOffer).toContainText('Offer: €27.00');
  await theirOffer.getByRole('button', { name: 'Accept offer' }).click();
  await expect(theirOffer).toContainText('Accepted');
  const deal = theirOffer.getByTestId('deal-card');
  await expect(deal).toContainText('3 books');
  for (const title of titles) await expect(deal).toContainText(title);
  await expect(deal).toContainText('Total: €32.00 (€27.00 + €5.00 shipping)');
  for (const id of ids) {
    const res = await b.request.get(`/api/listings/${id}`);
    expect((await res.json()).status).toBe('reserved');
  }

  // By post the parcel completes it, not the seller: the buyer gives the address, the seller
  // ships one parcel, the buyer confirms; the deal completes as one, every book sold.
  await expect(theirOffer.getByRole('button', { name: 'Mark as sold' })).toHaveCount(0);
  const buyerDeal = messages(b).getByTestId('deal-card').last();
  await buyerDeal.getByLabel('Full name').fill('Bruno Rossi');
  await buyerDeal.getByLabel('Street and number').fill('Via Roma 1');
  await buyerDeal.getByLabel('Postal code').fill('00184');
  await buyerDeal.getByLabel('City').fill('Roma');
  await buyerDeal.getByLabel('City').press('Enter');
  const ship = deal.getByRole('form', { name: 'Mark as shipped' });
  await ship.getByRole('textbox', { name: 'Carrier' }).click();
  await seller.page.getByRole('option', { name: 'BRT', exact: true }).click();
  await ship.getByLabel('Tracking number').fill('BRT-0054321');
  await ship.getByRole('button', { name: 'Mark as shipped' }).click();
  await buyerDeal.getByRole('button', { name: 'I received it' }).click();
  await buyerDeal.getByRole('button', { name: 'All fine: complete the deal' }).click();
  await b
    .getByRole('dialog', { name: 'Complete the deal?' })
    .getByRole('button', { name: 'Yes, complete the deal' })
    .click();
  await expect(theirOffer).toContainText('Sold');
  await expect(deal).toContainText('Completed');
  await expect(messages(b).getByTestId('chat-offer')).toContainText('Sold');
  for (const id of ids) {
    const res = await b.request.get(`/api/listings/${id}`);
    expect((await res.json()).status).toBe('sold');
  }
  // The bundle was emptied when the offer was sent.
  await b.goto(`/user/${seller.id}`);
  await expect(b.getByTestId('bundle-panel')).toHaveCount(0);
});
