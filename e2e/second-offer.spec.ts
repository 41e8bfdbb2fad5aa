import {
  testWithTwoMembers as test,
  expect,
  chooseLanguage,
  expectAccessible,
  expectFitsWidth,
  listBook,
  uniqueWord,
} from './fixtures';
import { acceptedOffer, bothConfirmExchange } from './deals';

/**
 * Issue 33 item 2: a buyer who bought a book from a seller opens another book of hers and
 * contacts her from its page. The message lands in the pair's one conversation, which is now
 * about the new book: "Fai un'offerta" is there again, for that book (Italian, 375 px).
 */
test('a second book from the same seller: contact from its page, then an offer from the chat', async ({
  seller,
  member: buyer,
}) => {
  // The first deal, through the API: offered, accepted, exchanged by hand. That book is sold.
  const first = await acceptedOffer(seller, buyer, {
    mode: 'full',
    title: uniqueWord('Le città invisibili '),
    author: 'Italo Calvino',
    genre: 'fiction',
    condition: 'good',
    listingType: 'sell',
    price: 10,
    description: 'The first book of a second-offer journey.',
  });
  await bothConfirmExchange(seller, buyer, first.dealId);
  const title = uniqueWord('Palomar ');
  const secondId = await listBook(seller.page, title, { price: 9 });

  // The buyer opens the second book's page, in Italian, on a phone.
  const b = buyer.page;
  await b.goto(`/library/book/${secondId}`);
  await chooseLanguage(b, 'it');
  await b.setViewportSize({ width: 375, height: 800 });
  await b.getByRole('button', { name: 'Contatta per acquistare' }).click();
  await b.getByRole('button', { name: 'Invia messaggio' }).click();

  // The same conversation as the first deal's, now with the new book's card and the offer button.
  await expect(b).toHaveURL(new RegExp(`room=${first.roomId}`), { timeout: 30_000 });
  const log = b.getByRole('log', { name: 'Messaggi' });
  await expect(log).toContainText(title, { timeout: 30_000 });
  const make = b.getByRole('button', { name: "Fai un'offerta" });
  await expect(make).toBeVisible();
  await expectFitsWidth(b, 375);
  await make.click();
  const dialog = b.getByRole('dialog', { name: "Fai un'offerta" });
  await expect(dialog).toContainText(title);
  await dialog.getByLabel('La tua offerta (EUR)').fill('7');
  await expectAccessible(b);
  await dialog.getByRole('button', { name: "Invia l'offerta" }).click();
  await expect(dialog).toBeHidden();
  const made = log.getByTestId('chat-offer').filter({ hasText: 'In attesa' });
  await expect(made).toContainText('La tua offerta: 7,00 €');
  // The offer names its book: the conversation holds the first book's offer too.
  await expect(made.getByTestId('offer-book')).toHaveText(title);
  // One open offer at a time: the button gives way until it is answered.
  await expect(make).toHaveCount(0);
  await expectFitsWidth(b, 375);

  // The seller sees it in the same conversation, on the second book.
  const res = await seller.page.request.get(`/api/chats/rooms/${first.roomId}/messages`);
  const items = (await res.json()).items as { offer?: { listingId: string; status: string } }[];
  expect(items.filter((m) => m.offer?.status === 'pending').map((m) => m.offer!.listingId)).toEqual(
    [secondId],
  );
});
