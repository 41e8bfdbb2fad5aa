import {
  testWithTwoMembers as test,
  expect,
  expectFitsWidth,
  listBook,
  uniqueWord,
} from './fixtures';
import { apiPost } from './api';
import type { OpenMember } from './members';
import { DAY, holdRealClock, serverClock } from './clock';

/**
 * Holiday means away (decision 0087): while the seller is on holiday, the buyer's conversation
 * about their book shows when they are back instead of "Make an offer" (the server refuses offers,
 * 409), the message box stays, and the book page offers no bundle; once the seller is back, the
 * offer button returns.
 */
test('a seller on holiday: the away notice instead of the offer button', async ({
  seller,
  member: buyer,
}) => {
  // Real dates below: no other journey may move the server's clock meanwhile.
  await holdRealClock(seller.page);
  try {
    await awayAndBack(seller, buyer);
  } finally {
    await serverClock(seller.page, 0);
  }
});

async function awayAndBack(seller: OpenMember, buyer: OpenMember) {
  const title = `Le cosmicomiche ${uniqueWord('via')}`;
  const id = await listBook(seller.page, title, { price: 12 });
  const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
  const away = await seller.page.request.put('/api/me/holiday', {
    headers: { origin: new URL(seller.page.url()).origin },
    data: { awayUntil: tomorrow, autoReply: null },
  });
  expect(away.status(), await away.text()).toBe(200);

  // The book page says when the seller is back, and offers no bundle.
  await buyer.page.goto(`/library/book/${id}`);
  await expect(buyer.page.getByTestId('seller-away')).toContainText('you can make an offer then');
  await expect(buyer.page.getByRole('button', { name: /to the bundle/ })).toHaveCount(0);

  // A question still goes through; the offer button gives way to the notice.
  const { roomId } = await apiPost(buyer.page, '/api/chats/contact', {
    listingId: id,
    content: 'È autografato?',
  });
  await buyer.page.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
  // The conversation, not a page still loading (a slow load on a busy host).
  await expect(buyer.page.getByRole('textbox', { name: 'Message' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(buyer.page.getByTestId('offer-away')).toContainText(
    'The seller is on holiday until',
  );
  await expect(buyer.page.getByRole('button', { name: 'Make an offer' })).toHaveCount(0);
  await expect(buyer.page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await buyer.page.setViewportSize({ width: 375, height: 800 });
  await expectFitsWidth(buyer.page);

  // Back now: the offer button returns.
  const back = await seller.page.request.delete('/api/me/holiday', {
    headers: { origin: new URL(seller.page.url()).origin },
  });
  expect(back.status()).toBe(200);
  await expect(async () => {
    await buyer.page.reload();
    await expect(buyer.page.getByRole('button', { name: 'Make an offer' })).toBeVisible({
      timeout: 10_000,
    });
  }).toPass({ timeout: 60_000 });
  await expect(buyer.page.getByTestId('offer-away')).toHaveCount(0);
}
