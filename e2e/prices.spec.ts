import type { Page } from '@playwright/test';
import {
  testWithTwoMembers as test,
  expect,
  expectAccessible,
  expectFitsWidth,
  chooseLanguage,
  listBook,
  uniqueWord,
} from './fixtures';
import { apiPost } from './api';

/**
 * Prices that do not lie and offers that show the money (issue 33, items 3 and 4): the quick sale
 * box starts empty (a typed 5 is 5,00 €, not 105), a pasted "6,50" is six and a half, an Italian
 * edit form reads "8,90", 900 € asks first; the offer dialog shows delivery, shipping and the total
 * (Italian and English, on a phone); a seller's counter-offer accepted by the buyer opens the deal
 * at the counter amount.
 */
const myBook = (page: Page, title: string) => page.getByRole('article', { name: title });
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });

async function openQuickSell(page: Page, id: string) {
  await page.goto(`/profile/${id}/books`);
  await page.getByRole('main').getByRole('button', { name: 'Add book' }).first().click();
  await page
    .getByRole('dialog', { name: 'Add book' })
    .getByRole('button', { name: /^Quick sell/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Quick sell' });
  await dialog.getByLabel('Title').fill(uniqueWord('Marcovaldo '));
  await dialog.getByLabel('Author').fill('Italo Calvino');
  return dialog;
}

test('quick sale: typed 5 is 5,00 €, pasted 6,50 is 6,50 €, 900 € asks first', async ({
  seller,
}) => {
  const page = seller.page;
  let dialog = await openQuickSell(page, seller.id);
  const title = await dialog.getByLabel('Title').inputValue();
  const price = dialog.getByLabel('Price (EUR)');
  // Nothing pre-filled: typing "5" where the box once said 10 made 105 €.
  await expect(price).toHaveValue('');
  await price.click();
  await price.pressSequentially('5');
  await dialog.getByRole('button', { name: 'List for sale' }).click();
  await expect(dialog).toBeHidden();
  await expect(myBook(page, title).getByText('€5.00')).toBeVisible();

  // "6,50" arriving at once (paste, autofill) is six and a half, in English too.
  dialog = await openQuickSell(page, seller.id);
  const pasted = await dialog.getByLabel('Title').inputValue();
  await dialog.getByLabel('Price (EUR)').fill('6,50');
  await dialog.getByLabel('Price (EUR)').blur();
  await expect(dialog.getByLabel('Price (EUR)')).toHaveValue('6.50');
  await dialog.getByRole('button', { name: 'List for sale' }).click();
  await expect(dialog).toBeHidden();
  await expect(myBook(page, pasted).getByText('€6.50')).toBeVisible();

  // 900 € asks before publishing; "Change the price" goes back to the form.
  dialog = await openQuickSell(page, seller.id);
  const dear = await dialog.getByLabel('Title').inputValue();
  await dialog.getByLabel('Price (EUR)').fill('900');
  await dialog.getByRole('button', { name: 'List for sale' }).click();
  const ask = page.getByRole('dialog', { name: 'List it for €900.00?' });
  await expect(ask).toBeVisible();
  await expectAccessible(page);
  await ask.getByRole('button', { name: 'Change the price' }).click();
  await expect(ask).toBeHidden();
  await expect(myBook(page, dear)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'List for sale' }).click();
  await page
    .getByRole('dialog', { name: 'List it for €900.00?' })
    .getByRole('button', { name: 'Yes, the price is right' })
    .click();
  await expect(dialog).toBeHidden();
  await expect(myBook(page, dear).getByText('€900.00')).toBeVisible();
});

test('an Italian edit form reads "8,90" and "1.234,50" is 1234,50 €', async ({ seller }) => {
  const page = seller.page;
  const title = uniqueWord('Palomar ');
  await listBook(page, title, { price: 8.9 });
  await page.goto(`/profile/${seller.id}/books`);
  await chooseLanguage(page, 'it');
  await myBook(page, title).getByRole('button', { name: 'Modifica' }).click();
  const edit = page.getByRole('dialog', { name: 'Modifica libro' });
  const price = edit.getByRole('textbox', { name: 'Prezzo', exact: true });
  await expect(price).toHaveValue('8,90');
  await price.fill('1.234,50');
  await edit.getByRole('button', { name: 'Salva modifiche' }).click();
  // Above 500 € it asks first, in Italian.
  await page
    .getByRole('dialog', { name: 'Mettere in vendita a 1234,50 €?' })
    .getByRole('button', { name: 'Sì, il prezzo è giusto' })
    .click();
  await expect(edit).toBeHidden();
  await expect(myBook(page, title).getByText('1234,50 €')).toBeVisible();
});

/** The buyer's conversation about a new listing of the seller (10 €, 3 € shipping). */
async function conversation(seller: { page: Page }, buyer: { page: Page; id: string }) {
  const title = uniqueWord('Il cavaliere inesistente ');
  const listingId = await listBook(seller.page, title, { price: 10, shippingCost: 3 });
  const { roomId } = await apiPost(buyer.page, '/api/chats/contact', {
    listingId,
    content: 'Is it still available?',
  });
  return { title, listingId, roomId: roomId as string };
}

for (const lang of ['en', 'it'] as const) {
  const words = {
    en: {
      make: 'Make an offer',
      amount: 'Your offer (EUR)',
      post: 'By post: €3.00 shipping',
      hand: 'Hand to hand',
      shipping: 'Shipping: €3.00',
      total: 'Total: €9.00',
      totalHand: 'Total: €6.00',
      noShipping: 'Shipping: none',
    },
    it: {
      make: "Fai un'offerta",
      amount: 'La tua offerta (EUR)',
      post: 'Per posta: 3,00 € di spedizione',
      hand: 'A mano',
      shipping: 'Spedizione: 3,00 €',
      total: 'Totale: 9,00 €',
      totalHand: 'Totale: 6,00 €',
      noShipping: 'Spedizione: nessuna',
    },
  }[lang];

  test(`the offer dialog shows delivery, shipping and the total (${lang}, 375 px)`, async ({
    seller,
    member: buyer,
  }) => {
    const { roomId } = await conversation(seller, buyer);
    const b = buyer.page;
    await b.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
    // The language switcher is in the header at this width (a phone's is in the menu).
    if (lang === 'it') await chooseLanguage(b, 'it');
    await b.setViewportSize({ width: 375, height: 800 });
    await b.getByRole('button', { name: words.make }).click();
    const dialog = b.getByRole('dialog', { name: words.make });
    await dialog.getByLabel(words.amount).fill('6');
    await expect(dialog.getByRole('radio', { name: words.post })).toBeChecked();
    const total = dialog.getByTestId('offer-total');
    await expect(total).toContainText(words.shipping);
    await expect(total).toContainText(words.total);
    await expectFitsWidth(b, 375);
    await expectAccessible(b);
    await dialog.getByRole('radio', { name: words.hand }).check();
    await expect(total).toContainText(words.noShipping);
    await expect(total).toContainText(words.totalHand);
    await dialog.getByRole('radio', { name: words.post }).check();
    await dialog
      .getByRole('button', { name: lang === 'it' ? "Invia l'offerta" : 'Send offer' })
      .click();
    await expect(dialog).toBeHidden();
    // The offer in the conversation says the same total.
    const log = b.getByRole('log', { name: lang === 'it' ? 'Messaggi' : 'Messages' });
    await expect(log.getByTestId('chat-offer')).toContainText(
      lang === 'it'
        ? 'Totale 9,00 € (6,00 € + 3,00 € di spedizione)'
        : 'Total €9.00 (€6.00 + €3.00 shipping)',
    );
  });
}

test('a counter-offer accepted by the buyer opens the deal at the counter amount', async ({
  seller,
  member: buyer,
}) => {
  const { listingId, roomId } = await conversation(seller, buyer);
  const offer = await apiPost(buyer.page, `/api/chats/rooms/${roomId}/offers`, {
    listingId,
    amount: 6,
    delivery: 'hand',
  });
  expect(offer.message.offer.amount).toBe(6);

  // The seller counters with 8 €.
  const s = seller.page;
  await s.goto(`/profile/${seller.id}/chats?room=${roomId}`);
  const theirOffer = messages(s).getByTestId('chat-offer').filter({ hasText: 'Offer: €6.00' });
  await theirOffer.getByRole('button', { name: 'Counter-offer' }).click();
  await theirOffer.getByLabel('Your counter-offer (EUR)').fill('8');
  await theirOffer.getByRole('button', { name: 'Send counter-offer' }).click();
  await expect(theirOffer).toContainText('Countered');
  const sent = messages(s).getByTestId('chat-offer').filter({ hasText: 'Counter-offer: €8.00' });
  await expect(sent.getByRole('button', { name: 'Withdraw counter-offer' })).toBeVisible();
  await expect(sent.getByRole('button', { name: 'Accept counter-offer' })).toHaveCount(0);

  // The buyer, on a phone, accepts it: the deal opens at 8 €.
  const b = buyer.page;
  await b.setViewportSize({ width: 375, height: 800 });
  await b.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
  const counter = messages(b).getByTestId('chat-offer').filter({ hasText: 'Counter-offer: €8.00' });
  await expect(counter).toBeVisible();
  await expectFitsWidth(b, 375);
  await expectAccessible(b);
  await counter.getByRole('button', { name: 'Accept counter-offer' }).click();
  await expect(counter).toContainText('Accepted');
  const deals = await b.request.get('/api/deals');
  expect(deals.ok()).toBeTruthy();
  const items = (await deals.json()).items as Array<{
    total: number;
    listings: Array<{ id: string }>;
  }>;
  const deal = items.find((d) => d.listings.some((l) => l.id === listingId));
  expect(deal).toMatchObject({ total: 8, method: 'hand', status: 'open' });
});
