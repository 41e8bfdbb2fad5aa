import type { Locator, Page } from '@playwright/test';
import {
  testWithTwoMembers as test,
  expect,
  chooseLanguage,
  expectAccessible,
  expectFitsWidth,
  uniqueWord,
  waitForLive,
} from './fixtures';
import { apiPost } from './api';
import { tradeListing } from './deals';

/**
 * A trade by post, completed as one trade with one review each way (issue 33 item 8), as two
 * members walk it: the proposer (in Italian, at 375 px) proposes a trade by post; the owner (in
 * English) accepts; each gives the address their parcel comes to, ships their own book with a
 * tracking number and confirms the other's arrived. The trade completes; each member's trades
 * page shows it once, as a trade of both books, with one review to write each, not a purchase
 * and a sale.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const log = (page: Page) => page.getByRole('log', { name: /^(Messages|Messaggi)$/ });

async function fillAddress(card: Locator, labels: string[], values: string[]) {
  for (let i = 0; i < labels.length; i++) await card.getByLabel(labels[i]).fill(values[i]);
  await card.getByLabel(labels[labels.length - 1]).press('Enter');
}

async function shipParcel(page: Page, group: Locator, form: string, texts: [string, string]) {
  const ship = group.getByRole('form', { name: form });
  await ship.getByRole('textbox', { name: texts[0] }).click();
  await page.getByRole('option', { name: 'BRT', exact: true }).click();
  await ship.getByLabel(texts[1]).fill(`BRT-${Date.now().toString(36).toUpperCase()}`);
  await ship.getByRole('button', { name: form }).click();
}

test('a trade by post: two parcels, one trade, one review each way', async ({
  seller: owner,
  member: proposer,
}) => {
  const word = uniqueWord('');
  const wanted = `Il sentiero dei nidi di ragno ${word}`;
  const given = `Senilità ${word}`;
  const { id: wantedId } = await apiPost(
    owner.page,
    '/api/listings',
    tradeListing(wanted, 'Italo Calvino', 'Copia in buono stato.'),
  );
  await apiPost(
    proposer.page,
    '/api/listings',
    tradeListing(given, 'Italo Svevo', 'Copia in buono stato.'),
  );
  const { roomId } = await apiPost(proposer.page, '/api/chats/contact', {
    listingId: wantedId,
    content: 'Lo scambieresti per posta?',
  });

  const o = owner.page;
  const p = proposer.page;
  await chooseLanguage(p, 'it');
  await expect(p.locator('html')).toHaveAttribute('lang', 'it');
  await p.setViewportSize({ width: 375, height: 800 });
  await p.goto(`/profile/${proposer.id}/chats?room=${roomId}`);
  await o.goto(`/profile/${owner.id}/chats?room=${roomId}`);
  await waitForLive(o);
  await waitForLive(p);

  // The proposer (Italian, 375 px) proposes the trade by post.
  await p.getByRole('button', { name: 'Proponi uno scambio' }).click();
  const dialog = p.getByRole('dialog', { name: 'Proponi uno scambio' });
  await dialog.getByRole('checkbox', { name: new RegExp(given) }).check();
  await expect(dialog.getByRole('radio', { name: 'A mano: vi incontrate' })).toBeChecked();
  await dialog.getByRole('radio', { name: 'Per posta: vi spedite i libri a vicenda' }).check();
  await expectFitsWidth(p);
  await dialog.getByRole('button', { name: 'Invia la proposta di scambio' }).click();
  await expect(dialog).toHaveCount(0);
  const mine = log(p).getByTestId('chat-trade-offer');
  await expect(mine).toContainText('La tua proposta di scambio');
  // Correct Italian: "Offri", never "Tu dà".
  await expect(mine).toContainText('Offri');
  await expect(mine).not.toContainText('Tu dà');
  await expect(mine.getByTestId('trade-delivery')).toHaveText(
    'Per posta: vi spedite i libri a vicenda',
  );

  // The owner (English) sees who offers what, by post, and accepts.
  const theirs = log(o).getByTestId('chat-trade-offer');
  await expect(theirs).toContainText(`${proposer.name} offers`);
  await expect(theirs.getByTestId('trade-delivery')).toHaveText(
    'By post: you send each other your books',
  );
  await theirs.getByRole('button', { name: 'Accept the trade' }).click();
  const ownerCard = log(o).getByTestId('deal-card');
  await expect(ownerCard).toContainText('Trade · By post');
  await expect(ownerCard).toContainText(`Trade: “${wanted}” for “${given}”`);
  const ownerOut = ownerCard.getByRole('group', { name: `Your parcel to ${proposer.name}` });
  const ownerIn = ownerCard.getByRole('group', { name: `${proposer.name}’s parcel to you` });
  await expect(ownerOut).toContainText(`Waiting for ${proposer.name}’s address.`);
  await expect(ownerIn).toContainText(`Where should ${proposer.name} send their books?`);
  await expectAccessible(o);

  // Each gives the address their parcel comes to.
  await fillAddress(
    ownerIn,
    ['Full name', 'Street and number', 'Postal code', 'City'],
    ['Olga Rossi', 'Via Zamboni 33', '40126', 'Bologna'],
  );
  await expect(ownerIn).toContainText('Your address for this parcel:');
  const proposerCard = log(p).getByTestId('deal-card');
  await expect(proposerCard).toContainText('Scambio · Con spedizione');
  await expect(proposerCard).toContainText(`Scambio: «${given}» per «${wanted}»`);
  const proposerOut = proposerCard.getByRole('group', { name: `Il tuo pacco per ${owner.name}` });
  const proposerIn = proposerCard.getByRole('group', { name: `Il pacco di ${owner.name} per te` });
  await expect(proposerOut).toContainText('Spedisci i tuoi libri a:');
  await expect(proposerOut).toContainText('Via Zamboni 33');
  await fillAddress(
    proposerIn,
    ['Nome e cognome', 'Via e numero civico', 'CAP', 'Città'],
    ['Paola Bianchi', 'Corso Vittorio Emanuele 12', '10123', 'Torino'],
  );
  await expect(ownerOut).toContainText('Corso Vittorio Emanuele 12');

  // Each ships their own book with a tracking number.
  await shipParcel(p, proposerOut, 'Segna il mio pacco come spedito', [
    'Corriere',
    'Numero di tracciamento',
  ]);
  await expect(proposerOut).toContainText(`In attesa che ${owner.name} ne confermi l’arrivo.`);
  await expectFitsWidth(p);
  await shipParcel(o, ownerOut, 'Mark my parcel as shipped', ['Carrier', 'Tracking number']);
  await expect(ownerOut).toContainText('Shipped with BRT');
  // Once a parcel left, the trade can no longer be cancelled.
  await expect(ownerCard.getByRole('button', { name: 'Cancel the deal' })).toHaveCount(0);

  // Each confirms the other's parcel arrived; the second completes the trade.
  await proposerIn.getByRole('button', { name: 'È arrivato' }).click();
  await p
    .getByRole('dialog', { name: 'Confermi l’arrivo del pacco?' })
    .getByRole('button', { name: 'Sì, è arrivato' })
    .click();
  await expect(proposerIn).toContainText('Ne hai confermato l’arrivo.');
  await expect(ownerOut).toContainText(`${proposer.name} confirmed it arrived.`);
  await ownerIn.getByRole('button', { name: 'It arrived' }).click();
  await o
    .getByRole('dialog', { name: 'Confirm the parcel arrived?' })
    .getByRole('button', { name: 'Yes, it arrived' })
    .click();
  await expect(ownerCard).toContainText('Completed');
  await expect(ownerCard).toContainText('Both parcels arrived: the trade is complete.');
  await expect(log(o)).toContainText('The trade is complete: the books have changed hands');
  await expect(proposerCard).toContainText('Tutti e due i pacchi sono arrivati');
  await expect(log(p)).toContainText('Lo scambio è concluso: i libri hanno cambiato mano');

  // One trade in each member's history, both books named, one review to write each.
  await o.goto(`/profile/${owner.id}/transactions`);
  const ownerTrades = o.getByTestId('trade').filter({ hasText: word });
  await expect(ownerTrades).toHaveCount(1);
  await expect(ownerTrades.getByTestId('trade-what')).toHaveText(
    `You traded “${wanted}” with ${proposer.name} for “${given}”`,
  );
  await expect(ownerTrades.getByRole('button', { name: 'Leave a review' })).toHaveCount(1);
  await expect(o.getByText(/You (bought|sold) /)).toHaveCount(0);
  await expectAccessible(o);
  await ownerTrades.getByRole('button', { name: 'Leave a review' }).click();
  const ownerReview = o.getByRole('dialog', { name: `Review ${proposer.name}` });
  const five = ownerReview.getByRole('radio', { name: '5 out of 5 stars' });
  await five.focus();
  await five.press('Space');
  await ownerReview.getByLabel('Your review (optional)').fill('Pacco ben fatto, libro perfetto.');
  await ownerReview.getByRole('button', { name: 'Publish review' }).click();
  await expect(ownerReview).toHaveCount(0);
  await expect(ownerTrades.getByRole('button', { name: 'Leave a review' })).toHaveCount(0);

  await p.goto(`/profile/${proposer.id}/transactions`);
  const proposerTrades = p.getByTestId('trade').filter({ hasText: word });
  await expect(proposerTrades).toHaveCount(1);
  await expect(proposerTrades.getByTestId('trade-what')).toHaveText(
    `Hai scambiato «${given}» con ${owner.name} per «${wanted}»`,
  );
  await expect(proposerTrades).toContainText('Scambio');
  await expectFitsWidth(p);
  await proposerTrades.getByRole('button', { name: 'Lascia una recensione' }).click();
  const proposerReview = p.getByRole('dialog', { name: `Recensisci ${owner.name}` });
  const four = proposerReview.getByRole('radio', { name: /^4 / });
  await four.focus();
  await four.press('Space');
  await proposerReview.getByRole('button', { name: 'Pubblica la recensione' }).click();
  await expect(proposerReview).toHaveCount(0);
  // The second review publishes both: each reads the other's, once.
  await expect(proposerTrades.getByTestId('review-published')).toHaveText(
    'La tua recensione è pubblicata',
  );
  await expect(proposerTrades.getByTestId('their-review')).toContainText(
    'Pacco ben fatto, libro perfetto.',
  );
  await expect(proposerTrades.getByRole('button', { name: 'Lascia una recensione' })).toHaveCount(
    0,
  );
});
