import { test, expect, expectAccessible, uniqueWord } from './fixtures';
import { openMember, type OpenMember } from './members';
import { apiPost } from './api';

/**
 * Blocking, as people walk it: a seller and a buyer talk about a book; the seller blocks the
 * buyer from the conversation's menu (after reading what blocking does); the buyer can no longer
 * send there and sees a neutral message, and no longer finds the seller's book in the library;
 * the seller unblocks from settings, and the book is back for the buyer.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial', timeout: 150_000 });

let stamp = '';
let TITLE = '';

type Member = OpenMember;

let seller: Member;
let buyer: Member;

test.beforeAll(async ({ browser }) => {
  stamp = uniqueWord('');
  TITLE = `Il sentiero dei nidi di ragno ${stamp}`;
  seller = await openMember(browser);
  buyer = await openMember(browser);
});

test.afterAll(async () => {
  await seller?.context.close();
  await buyer?.context.close();
});

test('a member blocks another from a conversation, and unblocks from settings', async () => {
  const listing = await apiPost(seller.page, '/api/listings', {
    mode: 'quickSell',
    title: TITLE,
    author: 'Italo Calvino',
    price: 9,
  });
  const { roomId } = await apiPost(buyer.page, '/api/chats/contact', {
    listingId: listing.id,
    content: 'Is it still available?',
  });

  // The buyer finds the book in the library before the block.
  const b = buyer.page;
  const search = `/library?q=${encodeURIComponent(TITLE)}`;
  await b.goto(search);
  await expect(b.getByRole('link', { name: new RegExp(TITLE) }).first()).toBeVisible();

  // The seller blocks the buyer from the conversation's menu.
  const s = seller.page;
  await s.goto(`/profile/${seller.id}/chats?room=${roomId}`);
  await expect(s.getByRole('log', { name: 'Messages' })).toContainText('Is it still available?');
  await s.getByRole('button', { name: 'Chat options' }).click();
  await s.getByRole('menuitem', { name: 'Block' }).click();
  const dialog = s.getByRole('dialog', { name: `Block ${buyer.name}?` });
  await expect(dialog).toContainText("won't be told");
  await expectAccessible(s);
  await dialog.getByRole('button', { name: 'Block' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(s.getByText(`${buyer.name} is blocked`)).toBeVisible();
  await s.getByRole('button', { name: 'Chat options' }).click();
  await expect(s.getByRole('menuitem', { name: 'Unblock' })).toBeVisible();
  await s.keyboard.press('Escape');

  // The buyer can no longer send there, and is told so without the word "blocked".
  await b.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
  await b.getByRole('textbox', { name: 'Message' }).fill('Hello? Are you there?');
  await b.getByRole('button', { name: 'Send message' }).click();
  await expect(b.getByRole('alert').filter({ hasText: 'send' })).toContainText(
    "You can't send messages in this conversation.",
  );
  await expect(b.getByRole('alert').filter({ hasText: 'send' })).not.toContainText(/block/i);

  // Nor does the buyer see the seller's book any more: not in the library, not on its page.
  await b.goto(search);
  await expect(b.getByText(/^(Books found: \d+|No results)$/).first()).toBeVisible();
  await expect(b.getByRole('link', { name: new RegExp(TITLE) })).toHaveCount(0);

  // The seller's settings list the blocked member; Unblock gives everything back.
  await s.goto(`/profile/${seller.id}/settings`);
  const section = s.getByRole('region', { name: 'Blocked members' });
  await expect(section.getByTestId('blocked-members')).toContainText(buyer.name);
  await expectAccessible(s);
  await section.getByRole('button', { name: `Unblock ${buyer.name}` }).click();
  await expect(section.getByText("You haven't blocked anyone.")).toBeVisible();

  await b.goto(search);
  await expect(b.getByRole('link', { name: new RegExp(TITLE) }).first()).toBeVisible();
});
