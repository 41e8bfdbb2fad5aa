import type { Locator, Page } from '@playwright/test';
import {
  testWithTwoMembers as test,
  expect,
  expectAccessible,
  expectFitsWidth,
  uniqueWord,
  waitForLive,
  chooseLanguage,
} from './fixtures';
import { acceptedOffer } from './deals';
import { DAY, inputTime, serverClock } from './clock';

/**
 * Hand to hand (issue 22 item 2, decision 0075), as two members walk it: after an accepted offer
 * for a book without shipping, the buyer proposes a meeting in the conversation, the seller
 * proposes another, the buyer accepts it; once the server's clock passes the time (the test
 * clock, decision 0069) both confirm the exchange, and the deal completes: the book is sold.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

async function propose(page: Page, meeting: Locator, place: string, days: number) {
  const form = meeting.getByRole('form', { name: 'Propose a meeting' });
  await form.getByLabel('Place').fill(place);
  await form.getByLabel('Date and time').fill(await inputTime(page, days, 18));
  await form.getByLabel('Note (optional)').fill('I will wear a red scarf');
  await form.getByRole('button', { name: 'Send the proposal' }).click();
  await expect(form).toHaveCount(0);
  // Focus returns to the meeting's state, which now tells the proposal.
  await expect(meeting.getByTestId('meeting-state')).toBeFocused();
}

test('a meeting proposed, countered, accepted and confirmed by both completes the deal', async ({
  seller,
  member: buyer,
}) => {
  const title = `Il sentiero dei nidi di ragno ${uniqueWord('')}`;
  const { roomId, listingId } = await acceptedOffer(
    seller,
    buyer,
    { mode: 'quickSell', title, author: 'Italo Calvino', price: 9 },
    { content: 'Can we meet in town?' },
  );

  const s = seller.page;
  const b = buyer.page;
  await s.goto(`/profile/${seller.id}/chats?room=${roomId}`);
  await b.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
  const sellerMeeting = s.getByRole('group', { name: 'Meeting' });
  const buyerMeeting = b.getByRole('group', { name: 'Meeting' });
  await expect(buyerMeeting.getByTestId('meeting-state')).toHaveText(
    'No meeting yet: propose where and when to hand the book over.',
  );
  await waitForLive(s);
  await waitForLive(b);

  // The buyer proposes a place and a time; a place is required.
  await buyerMeeting.getByRole('button', { name: 'Propose a meeting' }).click();
  const form = buyerMeeting.getByRole('form', { name: 'Propose a meeting' });
  await expect(form.getByLabel('Place')).toBeFocused();
  await form.getByRole('button', { name: 'Send the proposal' }).click();
  await expect(form.getByText('Say where to meet')).toBeVisible();
  await expect(form.getByLabel('Place')).toBeFocused();
  await propose(b, buyerMeeting, 'Piazza Maggiore', 1);
  await expect(buyerMeeting.getByTestId('meeting-state')).toContainText(
    `You proposed Piazza Maggiore`,
  );
  await expect(buyerMeeting.getByTestId('meeting-state')).toContainText(
    `Waiting for ${seller.name}’s answer.`,
  );
  await expect(buyerMeeting.getByRole('button', { name: 'Accept the meeting' })).toHaveCount(0);

  // The seller sees it live, in words and as a step of the conversation, and proposes another.
  await expect(sellerMeeting.getByTestId('meeting-state')).toContainText(
    `${buyer.name} proposes Piazza Maggiore`,
  );
  await expect(sellerMeeting).toContainText('Note: I will wear a red scarf');
  await expect(s.getByRole('log', { name: 'Messages' })).toContainText(
    `${buyer.name} proposed a meeting`,
  );
  await expectAccessible(s);
  await s.setViewportSize({ width: 375, height: 800 });
  await expectFitsWidth(s);
  await sellerMeeting.getByRole('button', { name: 'Propose another' }).click();
  await expectFitsWidth(s);
  await propose(s, sellerMeeting, 'Biblioteca Salaborsa', 2);
  await s.setViewportSize({ width: 1280, height: 800 });

  // The buyer accepts the counter-proposal, by keyboard.
  await expect(buyerMeeting.getByTestId('meeting-state')).toContainText(
    `${seller.name} proposes Biblioteca Salaborsa`,
  );
  await expect(b.getByRole('log', { name: 'Messages' })).toContainText(
    `${seller.name} proposed another meeting`,
  );
  const accept = buyerMeeting.getByRole('button', { name: 'Accept the meeting' });
  await accept.focus();
  await accept.press('Enter');
  await expect(buyerMeeting.getByTestId('meeting-state')).toContainText(
    'Meeting agreed: Biblioteca Salaborsa',
  );
  await expect(sellerMeeting.getByTestId('meeting-state')).toContainText(
    'Meeting agreed: Biblioteca Salaborsa',
  );
  await expect(sellerMeeting).toContainText(
    'After the meeting, both of you confirm here that the exchange happened.',
  );
  // Not before the time.
  await expect(
    sellerMeeting.getByRole('button', { name: 'Confirm the exchange happened' }),
  ).toHaveCount(0);

  // Three days later (the server's clock), both confirm that the exchange happened.
  await serverClock(s, 3 * DAY);
  try {
    await s.reload();
    await b.reload();
    await expect(buyerMeeting).toContainText(
      'The time of the meeting has come: confirm that the exchange happened.',
    );
    // A meeting that did not happen could still be moved, until someone confirms.
    await expect(buyerMeeting.getByRole('button', { name: 'Propose another' })).toBeVisible();
    await waitForLive(s);
    // It cannot be undone: asked first; "Not yet" changes nothing.
    await buyerMeeting.getByRole('button', { name: 'Confirm the exchange happened' }).click();
    let dialog = b.getByRole('dialog', { name: 'Confirm the exchange?' });
    await expect(dialog).toContainText(
      `This cannot be undone: once you confirm, the meeting can no longer change and the deal can no longer be cancelled. The deal completes when ${seller.name} confirms too.`,
    );
    await dialog.getByRole('button', { name: 'Not yet' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(buyerMeeting.getByRole('button', { name: 'Propose another' })).toBeVisible();
    await buyerMeeting.getByRole('button', { name: 'Confirm the exchange happened' }).click();
    await dialog.getByRole('button', { name: 'Yes, the exchange happened' }).click();
    await expect(buyerMeeting.getByRole('button', { name: 'Propose another' })).toHaveCount(0);
    await expect(buyerMeeting.getByTestId('meeting-confirmed')).toHaveText(
      `You confirmed the exchange. Waiting for ${seller.name}.`,
    );
    await expect(sellerMeeting.getByTestId('meeting-confirmed')).toHaveText(
      `${buyer.name} confirmed the exchange.`,
    );
    // Once one side confirmed, the deal is no longer cancelled.
    const sellerCard = s.getByTestId('deal-card');
    await expect(sellerCard.getByRole('button', { name: 'Cancel the deal' })).toHaveCount(0);
    await sellerMeeting.getByRole('button', { name: 'Confirm the exchange happened' }).click();
    dialog = s.getByRole('dialog', { name: 'Confirm the exchange?' });
    await expect(dialog).toContainText('This cannot be undone: the deal completes now.');
    await dialog.getByRole('button', { name: 'Yes, the exchange happened' }).click();
    await expect(sellerMeeting.getByTestId('meeting-state')).toHaveText(
      'You have both confirmed the exchange: the deal is complete.',
    );
    await expect(sellerCard).toContainText('Completed');
    await expect(b.getByTestId('deal-card')).toContainText('Completed');
    await expect(b.getByRole('log', { name: 'Messages' })).toContainText('The deal is complete');
  } finally {
    await serverClock(s, 0);
  }

  // The book is sold; the seller reads the deal in Italian too.
  await b.goto(`/library/book/${listingId}`);
  await expect(b.getByText('Sold').first()).toBeVisible();
  await chooseLanguage(s, 'it');
  await expect(s.getByRole('group', { name: 'Incontro' })).toContainText(
    'Lo scambio è confermato da tutte e due le parti: la trattativa è conclusa.',
  );
});
