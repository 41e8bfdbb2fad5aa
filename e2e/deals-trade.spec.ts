import {
  testWithTwoMembers as test,
  expect,
  expectAccessible,
  expectFitsWidth,
  uniqueWord,
  waitForLive,
} from './fixtures';
import { tradeListing } from './deals';
import { apiPost } from './api';
import { DAY, inputTime, serverClock } from './clock';

/**
 * A trade through the deal flow (issue 22 item 2, decision 0080), as two members walk it: in the
 * chat about a book listed for trade, the visitor proposes a trade with one of their own books
 * (the picker, by keyboard and at 375 px), the owner accepts; a meeting is proposed and accepted;
 * once the server's clock passes its time (the test clock) both confirm, and both books are traded.
 */
test.describe.configure({ mode: 'serial', timeout: 150_000 });

test('a trade proposed, accepted, met and confirmed by both: both books traded', async ({
  seller: owner,
  member: proposer,
}) => {
  const word = uniqueWord('');
  const wantedTitle = `Il barone rampante ${word}`;
  const givenTitle = `La coscienza di Zeno ${word}`;
  const { id: wantedId } = await apiPost(
    owner.page,
    '/api/listings',
    tradeListing(wantedTitle, 'Italo Calvino', 'Good copy, a few notes in pencil.'),
  );
  const { id: givenId } = await apiPost(
    proposer.page,
    '/api/listings',
    tradeListing(givenTitle, 'Italo Svevo', 'Good copy, a few notes in pencil.'),
  );
  const { roomId } = await apiPost(proposer.page, '/api/chats/contact', {
    listingId: wantedId,
    content: 'Would you trade it?',
  });

  const o = owner.page;
  const p = proposer.page;
  await p.goto(`/profile/${proposer.id}/chats?room=${roomId}`);
  await o.goto(`/profile/${owner.id}/chats?room=${roomId}`);
  await waitForLive(o);
  await waitForLive(p);

  // A book for trade only: no money offer, a trade; the picker at 375 px, by keyboard.
  await expect(p.getByRole('button', { name: 'Make an offer' })).toHaveCount(0);
  await p.setViewportSize({ width: 375, height: 800 });
  await p.getByRole('button', { name: 'Propose a trade' }).click();
  const dialog = p.getByRole('dialog', { name: 'Propose a trade' });
  await dialog.getByRole('button', { name: 'Send the trade proposal' }).click();
  await expect(dialog.getByText('Choose at least one of your books')).toBeVisible();
  const box = dialog.getByRole('checkbox', { name: new RegExp(givenTitle) });
  await box.focus();
  await box.press('Space');
  await expect(box).toBeChecked();
  await expectFitsWidth(p);
  await dialog.getByRole('button', { name: 'Send the trade proposal' }).press('Enter');
  await expect(dialog).toHaveCount(0);
  await p.setViewportSize({ width: 1280, height: 800 });
  const mine = p.getByTestId('chat-trade-offer');
  await expect(mine).toContainText('Your trade proposal');
  await expect(mine).toContainText(givenTitle);
  await expect(mine).toContainText(wantedTitle);

  // The owner sees it live, with both books, and accepts.
  const theirs = o.getByTestId('chat-trade-offer');
  await expect(theirs).toContainText('Trade proposal');
  await expect(theirs.getByTestId('trade-book')).toHaveCount(2);
  await expectAccessible(o);
  await theirs.getByRole('button', { name: 'Accept the trade' }).click();
  const ownerCard = o.getByTestId('deal-card');
  await expect(ownerCard).toContainText(`Trade: “${wantedTitle}” for “${givenTitle}”`);
  await expect(p.getByTestId('deal-card')).toContainText(
    `Trade: “${givenTitle}” for “${wantedTitle}”`,
  );
  await expect(p.getByRole('log', { name: 'Messages' })).toContainText(
    `${owner.name} accepted the trade: the deal is open`,
  );

  // The meeting, as for a sale by hand (decision 0075).
  const ownerMeeting = o.getByRole('group', { name: 'Meeting' });
  const proposerMeeting = p.getByRole('group', { name: 'Meeting' });
  await proposerMeeting.getByRole('button', { name: 'Propose a meeting' }).click();
  const form = proposerMeeting.getByRole('form', { name: 'Propose a meeting' });
  await form.getByLabel('Place').fill('Libreria Coop Ambasciatori');
  await form.getByLabel('Date and time').fill(await inputTime(p, 1));
  await form.getByRole('button', { name: 'Send the proposal' }).click();
  await expect(ownerMeeting.getByTestId('meeting-state')).toContainText(
    `${proposer.name} proposes Libreria Coop Ambasciatori`,
  );
  await ownerMeeting.getByRole('button', { name: 'Accept the meeting' }).click();
  await expect(proposerMeeting.getByTestId('meeting-state')).toContainText(
    'Meeting agreed: Libreria Coop Ambasciatori',
  );

  await serverClock(o, 2 * DAY);
  try {
    await o.reload();
    await p.reload();
    await waitForLive(o);
    await proposerMeeting.getByRole('button', { name: 'Confirm the exchange happened' }).click();
    await p
      .getByRole('dialog', { name: 'Confirm the exchange?' })
      .getByRole('button', { name: 'Yes, the exchange happened' })
      .click();
    await expect(ownerMeeting.getByTestId('meeting-confirmed')).toHaveText(
      `${proposer.name} confirmed the exchange.`,
    );
    await ownerMeeting.getByRole('button', { name: 'Confirm the exchange happened' }).click();
    await o
      .getByRole('dialog', { name: 'Confirm the exchange?' })
      .getByRole('button', { name: 'Yes, the exchange happened' })
      .click();
    await expect(ownerCard).toContainText('Completed');
    await expect(p.getByTestId('deal-card')).toContainText('Completed');
    await expect(p.getByRole('log', { name: 'Messages' })).toContainText(
      'The trade is complete: the books have changed hands',
    );
    // The proposer's bell says it in a trade's words too.
    await p.getByRole('button', { name: /^Notifications/ }).click();
    await expect(
      p.getByRole('dialog', { name: 'Notifications' }).getByRole('list', {
        name: 'Your notifications',
      }),
    ).toContainText(`Your trade with ${owner.name} is complete: the books have changed hands`);
    await p.keyboard.press('Escape');
  } finally {
    await serverClock(o, 0);
  }

  // Both books are traded, on their pages.
  for (const id of [wantedId, givenId]) {
    await p.goto(`/library/book/${id}`);
    await expect(p.getByText('Traded').first()).toBeVisible();
  }
});
