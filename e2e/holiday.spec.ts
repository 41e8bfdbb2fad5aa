import { testWithTwoMembers as test, expect, listBook, uniqueWord } from './fixtures';
import { apiPost } from './api';
import { DAY, serverClock } from './clock';

/**
 * Holiday mode (issue 22 item 6): a seller goes on holiday from the settings; their listing leaves
 * the library for another member, its book page and their profile say when they are back, and
 * when the server's clock passes the date (the test clock, decision 0069) it is back by itself.
 */
test.describe.configure({ mode: 'serial' });

test('holiday mode hides the listing and brings it back on the date', async ({
  seller,
  member: buyer,
}) => {
  const word = uniqueWord('vacanza');
  const title = `Il barone ${word}`;
  const id = await listBook(seller.page, title, {
    price: 11,
    description: 'A listing of a seller on holiday.',
  });
  const card = buyer.page
    .getByRole('list', { name: 'Books' })
    .getByRole('link', { name: new RegExp(title) });
  const search = () => buyer.page.goto(`/library?q=${word}`);

  await search();
  await expect(card).toBeVisible();

  // The seller goes on holiday until tomorrow (UTC), from the settings.
  const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
  await seller.page.goto(`/profile/${seller.id}/settings`);
  const section = seller.page.getByRole('region', { name: 'Holiday mode' });
  // A date in the past is refused by the form, in words.
  await section.getByLabel('Last day away').fill('2020-01-01');
  await section.getByRole('button', { name: 'Go on holiday' }).click();
  await expect(section.getByText('The last day away must be tomorrow or later.')).toBeVisible();
  await section.getByLabel('Last day away').fill(tomorrow);
  await section.getByRole('button', { name: 'Go on holiday' }).click();
  await expect(section.getByTestId('holiday-on')).toContainText('You are on holiday until');

  // The listing leaves the library for the buyer (the answer, not a page still loading: the
  // empty state); its page and the profile say when. Each try allows a slow load on a busy host.
  await expect(async () => {
    await search();
    await expect(
      // Words alone: the empty state speaks of the words, not of filters (issue 33).
      buyer.page.getByText(`No book matches “${word}” yet.`),
    ).toBeVisible({ timeout: 10_000 });
    await expect(buyer.page.getByTestId('book-card')).toHaveCount(0);
  }).toPass({ timeout: 60_000 });
  await buyer.page.goto(`/library/book/${id}`);
  await expect(buyer.page.getByTestId('seller-away')).toContainText(
    'The seller is on holiday until',
  );
  await buyer.page.goto(`/user/${seller.id}`);
  await expect(buyer.page.getByTestId('seller-away')).toContainText('On holiday: back on');

  // A conversation the buyer starts with the seller gets the automatic reply, in the buyer's
  // language, once.
  const { room } = await apiPost(buyer.page, '/api/chats/direct', { userId: seller.id });
  await apiPost(buyer.page, '/api/chats/direct', { userId: seller.id });
  await buyer.page.goto(`/profile/${buyer.id}/chats?room=${room.id}`);
  // Once in the conversation (the chat list's preview says it too, in words).
  await expect(
    buyer.page
      .getByRole('log', { name: 'Messages' })
      .getByText(/is on holiday until .* and will answer when back\. \(Automatic reply\)/),
  ).toHaveCount(1);

  // The server's clock passes the day after the last day: the job brings the listing back.
  try {
    await serverClock(buyer.page, 2 * DAY + 60_000);
    await expect(async () => {
      await search();
      await expect(card).toBeVisible({ timeout: 10_000 });
    }).toPass({ timeout: 60_000 });
  } finally {
    await serverClock(buyer.page, 0);
  }
  await buyer.page.goto(`/user/${seller.id}`);
  await expect(buyer.page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(buyer.page.getByTestId('seller-away')).toHaveCount(0);
});
