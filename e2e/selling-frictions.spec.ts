import type { Locator, Page } from '@playwright/test';
import {
  testWithTwoMembers as test,
  expect,
  expectAccessible,
  expectFitsWidth,
  chooseLanguage,
  uniqueWord,
} from './fixtures';
import { apiPost } from './api';
import { acceptedOffer } from './deals';

/**
 * Selling's small frictions (issue 33 item 9): a quick sale from a catalogue result has the
 * catalogue's genre and changes its price without a description; the seller's own book page
 * edits, deactivates and deletes (and says why not while a deal holds the book); a sold book in
 * My books offers no "Activate"; the Negotiable box sits beside its label on a phone.
 */
const myBook = (page: Page, title: string) => page.getByRole('article', { name: title });
const bookFact = (page: Page, label: string) =>
  page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

/** Picks the first catalogue result for `q` in a form's search box. */
async function pickFromCatalogue(scope: Locator, q: string, label = 'Search for a book') {
  await scope.getByRole('searchbox', { name: label }).fill(q);
  await scope
    .getByRole('list')
    .getByRole('button', { name: new RegExp(`^${q}`, 'i') })
    .first()
    .click();
}

test('a quick sale from the catalogue: its genre, a new price alone, then the seller’s own page edits, deactivates and deletes it (en, 1280 px)', async ({
  seller,
}) => {
  const page = seller.page;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/profile/${seller.id}/books`);
  await page.getByRole('main').getByRole('button', { name: 'Add book' }).first().click();
  await page
    .getByRole('dialog', { name: 'Add book' })
    .getByRole('button', { name: /^Quick sell/ })
    .click();
  const quick = page.getByRole('dialog', { name: 'Quick sell' });
  await pickFromCatalogue(quick, 'Harry Potter');
  const title = await quick.getByLabel('Title').inputValue();
  expect(title).toMatch(/^Harry Potter/);
  await quick.getByLabel('Price (EUR)').fill('10');
  await quick.getByRole('button', { name: 'List for sale' }).click();
  await expect(quick).toBeHidden();

  // Its page: the catalogue's genre ("Juvenile Fiction" is Children), never "Other".
  const card = myBook(page, title).first();
  await card.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(bookFact(page, 'Genre')).toHaveText('Children');
  const mine = page.getByRole('region', { name: 'Your book' });
  await expect(mine).toBeVisible();
  await expectAccessible(page);

  // A new price, and nothing else: the description a quick sale never asked for is not asked.
  await mine.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit book' });
  await expect(edit.getByLabel('Description')).toHaveValue('');
  await edit.getByRole('textbox', { name: 'Price', exact: true }).fill('8');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('Changes saved.')).toBeVisible();
  await expect(page.getByTestId('detail-price')).toHaveText('€8.00');
  await expect(page.getByText('Description is required')).toHaveCount(0);

  // Deactivate and activate again, from the page itself.
  await mine.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByText('Unavailable').first()).toBeVisible();
  await mine.getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByText('Available').first()).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Deactivate' })).toBeVisible();

  // Delete asks first, then leaves for the member's books.
  await mine.getByRole('button', { name: 'Delete' }).click();
  const ask = page.getByRole('dialog', { name: 'Delete book' });
  await expect(ask).toContainText(`Delete "${title}"? This cannot be undone.`);
  await ask.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${seller.id}/books$`));
  await expect(page.getByText(`"${title}" was deleted.`)).toBeVisible();
  await expect(myBook(page, title)).toHaveCount(0);
});

test('in Italian on a phone: a book in a deal says why it cannot change, a sold one offers no "Attiva", the Negotiable box sits beside its label', async ({
  seller,
  member: buyer,
}) => {
  const page = seller.page;
  await page.goto(`/profile/${seller.id}/books`);
  await chooseLanguage(page, 'it');
  await page.setViewportSize({ width: 375, height: 800 });
  const title = uniqueWord('Il visconte dimezzato ');
  const { listingId, dealId, roomId } = await acceptedOffer(seller, buyer, {
    mode: 'full',
    title,
    author: 'Italo Calvino',
    genre: 'fiction',
    listingType: 'sell',
    price: 9,
    description: 'Tascabile.',
  });

  // On its page and in My books: no edit, status or delete while the deal holds it, and why.
  const why =
    "Questo libro è in una trattativa aperta: cambia solo con i passaggi della trattativa, nella conversazione con l'altro membro.";
  await page.goto(`/library/book/${listingId}`);
  const mine = page.getByRole('region', { name: 'Il tuo libro' });
  await expect(mine).toContainText(why);
  await expect(mine.getByRole('link', { name: 'Apri le tue conversazioni' })).toHaveAttribute(
    'href',
    `/profile/${seller.id}/chats`,
  );
  await expect(mine.getByRole('button')).toHaveCount(0);
  await expectFitsWidth(page, 375);
  await page.goto(`/profile/${seller.id}/books`);
  const card = myBook(page, title);
  await expect(card).toContainText(why);
  await expect(card.getByRole('button')).toHaveCount(0);

  // The seller confirms the exchange in the conversation: it cannot be undone, so it asks first.
  await page.goto(`/profile/${seller.id}/chats?room=${roomId}`);
  await page
    .getByRole('group', { name: 'Incontro' })
    .getByRole('button', { name: 'Conferma che lo scambio è avvenuto' })
    .click();
  const ask = page.getByRole('dialog', { name: 'Confermare lo scambio?' });
  await expect(ask).toContainText(
    `Non si può tornare indietro: una volta confermato, l'incontro non può più cambiare e la trattativa non può più essere annullata. La trattativa si conclude quando conferma anche ${buyer.name}.`,
  );
  await expectFitsWidth(page, 375);
  await ask.getByRole('button', { name: 'Sì, lo scambio è avvenuto' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByRole('group', { name: 'Incontro' })).toContainText(
    `Hai confermato lo scambio. In attesa di ${buyer.name}.`,
  );

  // Sold once the buyer confirmed too: no "Attiva" nor "Disattiva", nor marking it again.
  await apiPost(buyer.page, `/api/deals/${dealId}/meeting/confirm`, {});
  await page.goto(`/profile/${seller.id}/books`);
  await expect(card.getByText('Venduto')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Attiva' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Disattiva' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Segna come venduto o scambiato' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Modifica' })).toBeVisible();
  await page.goto(`/library/book/${listingId}`);
  await expect(page.getByRole('region', { name: 'Il tuo libro' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Attiva' })).toHaveCount(0);

  // The full form on a phone: the catalogue gives the genre, and the Negotiable box sits on the
  // line of its label, before it.
  await page.goto('/sell');
  const main = page.getByRole('main');
  await pickFromCatalogue(main, 'Il nome della rosa', 'Cerca un libro');
  await expect(main.getByLabel('Genere')).toHaveValue('fiction');
  const box = main.getByRole('checkbox', { name: 'Prezzo trattabile' });
  const label = main.getByText('Prezzo trattabile', { exact: true });
  await box.scrollIntoViewIfNeeded();
  const [b, l] = [await box.boundingBox(), await label.boundingBox()];
  expect(b && l).toBeTruthy();
  // Same line: the label's middle is within the box's height, and it starts after the box.
  const labelMiddle = l!.y + l!.height / 2;
  expect(labelMiddle).toBeGreaterThan(b!.y - 4);
  expect(labelMiddle).toBeLessThan(b!.y + b!.height + 4);
  expect(l!.x).toBeGreaterThan(b!.x + b!.width - 1);
  await box.check();
  await expect(box).toBeChecked();
  await expectFitsWidth(page, 375);
});
