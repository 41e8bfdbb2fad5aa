import type { Browser, BrowserContext, Page, WebSocketRoute } from '@playwright/test';
import { test, expect, expectAccessible, uniqueWord } from './fixtures';
import { createConfirmedMember, dismissCookieBanner, signInWithForm, PASSWORD } from './members';

/**
 * The chats journey with two browsers: a visitor presses contact on a listing, signs in, comes
 * back to the same detail and writes; the seller, already on the chats page, sees the room, the
 * message and the unread badge arrive without reloading, and answers while the buyer watches them
 * type; the buyer offers, the seller accepts, and the listing is reserved.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial', timeout: 150_000 });

let TITLE = '';

interface Member {
  id: string;
  email: string;
  name: string;
  context: BrowserContext;
  page: Page;
}

let seller: Member;
let buyer: Member;
let listingId: string;

async function newPage(browser: Browser) {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/');
  await dismissCookieBanner(page);
  return { context, page };
}

async function displayName(page: Page): Promise<string> {
  const me = await page.request.get('/api/me');
  expect(me.ok()).toBeTruthy();
  return ((await me.json()) as { displayName: string }).displayName;
}

/** A name inside a longer accessible name, taken literally. */
const named = (name: string) => new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
const roomLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: named(name) });
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });
const chatsLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Private area' }).getByRole('link', { name: /^Chats/ });

test.beforeAll(async ({ browser }) => {
  TITLE = `Il barone rampante ${uniqueWord('')}`;
  const s = await newPage(browser);
  const { id, email } = await createConfirmedMember(s.page);
  seller = { id, email, name: await displayName(s.page), ...s };
  const created = await s.page.request.post('/api/listings', {
    headers: { origin: new URL(s.page.url()).origin },
    data: { mode: 'quickSell', title: TITLE, author: 'Italo Calvino', price: 12 },
  });
  expect(created.status(), await created.text()).toBe(201);
  listingId = ((await created.json()) as { id: string }).id;

  // The buyer's account exists; their browser below is a signed-out visitor until they sign in.
  const b = await newPage(browser);
  const account = await createConfirmedMember(b.page);
  await b.context.close();
  const visitor = await newPage(browser);
  buyer = { id: account.id, email: account.email, name: '', ...visitor };
});

test.afterAll(async () => {
  await seller?.context.close();
  await buyer?.context.close();
});

test('a visitor contacts the seller after signing in; both talk live, and an accepted offer reserves the book', async () => {
  // The seller waits on the chats page: no conversation yet.
  await seller.page.goto(`/profile/${seller.id}/chats`);
  await expect(seller.page).toHaveTitle('Chats | Scaffale');
  await expect(seller.page.getByText('No chats yet')).toBeVisible();
  await expectAccessible(seller.page);

  // The seller never sees a contact button on their own listing.
  const sellerDetail = await seller.context.newPage();
  await sellerDetail.goto(`/library/book/${listingId}`);
  await expect(sellerDetail.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect(sellerDetail.getByRole('button', { name: 'Contact to buy' })).toHaveCount(0);
  await expect(sellerDetail.getByRole('link', { name: 'Contact to buy' })).toHaveCount(0);

  // A visitor presses contact and is sent to sign in, then back to the same detail.
  const page = buyer.page;
  await page.goto(`/library/book/${listingId}`);
  await page.getByRole('link', { name: 'Contact to buy' }).click();
  await expect(page).toHaveURL(/\/login\?redirect_to=/);
  await signInWithForm(page, buyer.email, PASSWORD);
  await expect(page).toHaveURL(new RegExp(`/library/book/${listingId}`));
  await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
  buyer.name = await displayName(page);

  const box = page.getByLabel(`Your message to ${seller.name}`);
  await expect(box).toHaveValue(`Hi! Is “${TITLE}” still available?`);
  await expectAccessible(page);
  await box.fill('Hello! Is the cover in good shape?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${buyer.id}/chats\\?room=`));
  await expect(messages(page).getByText('Hello! Is the cover in good shape?')).toBeVisible();
  await expect(messages(page).getByRole('link', { name: TITLE })).toBeVisible();

  // The seller, without reloading, sees the room, the message and the unread badge.
  const room = roomLink(seller.page, buyer.name);
  await expect(room).toBeVisible();
  await expect(room).toContainText('Hello! Is the cover in good shape?');
  // One new message is one unread: the listing card sent with it does not count.
  await expect(chatsLink(seller.page)).toContainText('1');
  await expect(chatsLink(seller.page)).toHaveAccessibleName(/Unread messages: 1/);
  await expect(
    seller.page.getByRole('button', { name: 'Account menu (Unread messages: 1)' }),
  ).toBeVisible();
  await room.click();
  await expect(messages(seller.page).getByText('Hello! Is the cover in good shape?')).toBeVisible();
  // Opening the room reads it.
  await expect(seller.page.getByTestId('chats-unread')).toHaveCount(0);
  // Each sees the other online.
  await expect(page.getByTestId('conversation-status')).toHaveText('Online');
  await expect(seller.page.getByTestId('conversation-status')).toHaveText('Online');

  // The buyer sees the seller typing, then the answer, live.
  await composer(seller.page).pressSequentially('Yes, like new', { delay: 30 });
  await expect(page.getByTestId('conversation-status')).toHaveText(`${seller.name} is typing…`);
  await composer(seller.page).press('Enter');
  await expect(composer(seller.page)).toHaveValue('');
  await expect(messages(page).getByText('Yes, like new')).toBeVisible();
  await expect(page.getByTestId('conversation-status')).not.toHaveText(/typing/);

  // Shift+Enter breaks the line; a blank message is not sent.
  await composer(page).fill('line one');
  await composer(page).press('Shift+Enter');
  await composer(page).pressSequentially('line two');
  await expect(composer(page)).toHaveValue('line one\nline two');
  await composer(page).fill('   ');
  await composer(page).press('Enter');
  await expect(composer(page)).toHaveValue('   ');
  await expect(page.getByRole('button', { name: 'Send message' })).toBeDisabled();
  await composer(page).fill('');

  // The buyer makes an offer; the seller accepts it.
  await page.getByRole('button', { name: 'Make an offer' }).click();
  const amount = page.getByLabel('Your offer (EUR)');
  await amount.fill('0');
  await page.getByRole('button', { name: 'Send offer' }).click();
  await expect(page.getByText('Enter an amount above 0')).toBeVisible();
  await amount.fill('9.50');
  await page.getByRole('button', { name: 'Send offer' }).click();
  const offer = messages(page).getByTestId('chat-offer');
  await expect(offer).toContainText('Your offer: €9.50');
  await expect(offer).toContainText('Pending');
  await expect(page.getByRole('button', { name: 'Make an offer' })).toHaveCount(0);

  const theirOffer = messages(seller.page).getByTestId('chat-offer');
  await expect(theirOffer).toContainText('Offer: €9.50');
  await expectAccessible(seller.page);
  await theirOffer.getByRole('button', { name: 'Accept offer' }).click();
  await expect(theirOffer).toContainText('Accepted');
  await expect(offer).toContainText('Accepted');
  // Nobody marks it sold alone: the deal's card asks both to confirm the exchange (0083).
  await expect(theirOffer.getByRole('button', { name: 'Mark as sold' })).toHaveCount(0);
  const confirmExchange = (p: Page) =>
    messages(p)
      .getByRole('group', { name: 'Meeting' })
      .getByRole('button', { name: 'Confirm the exchange happened' });
  await expect(confirmExchange(seller.page)).toBeVisible();
  const yesItHappened = (p: Page) =>
    p
      .getByRole('dialog', { name: 'Confirm the exchange?' })
      .getByRole('button', { name: 'Yes, the exchange happened' })
      .click();

  // The listing is reserved, and no longer offers contact.
  const chatUrl = page.url();
  await page.goto(`/library/book/${listingId}`);
  await expect(page.getByText('Reserved').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Contact to buy' })).toHaveCount(0);

  // They met without a meeting in the app: the seller confirms, the book stays reserved until
  // the buyer confirms too, which completes the sale.
  await confirmExchange(seller.page).click();
  await yesItHappened(seller.page);
  await expect(messages(seller.page).getByTestId('meeting-confirmed')).toHaveText(
    `You confirmed the exchange. Waiting for ${buyer.name}.`,
  );
  await page.reload();
  await expect(page.getByText('Reserved').first()).toBeVisible();
  await page.goto(chatUrl);
  await confirmExchange(page).click();
  await yesItHappened(page);
  await expect(theirOffer).toContainText('Sold');
  await expect(messages(page).getByTestId('chat-offer')).toContainText('Sold');
  await page.goto(`/library/book/${listingId}`);
  await expect(page.getByText('Sold').first()).toBeVisible();
});

test('the sender edits and deletes their own message through its menu', async () => {
  const page = buyer.page;
  // The message travels as a chat.send frame on the tab's socket, answered by chat.ack: no POST.
  const sent: Record<string, unknown>[] = [];
  const received: Record<string, unknown>[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().endsWith('/api/realtime')) return;
    ws.on('framesent', (f) => sent.push(JSON.parse(String(f.payload))));
    ws.on('framereceived', (f) => received.push(JSON.parse(String(f.payload))));
  });
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/chats\/rooms\/[^/]+\/messages$/.test(r.url()))
      posts.push(r.url());
  });
  await page.goto(`/profile/${buyer.id}/chats`);
  await roomLink(page, seller.name).click();
  await composer(page).fill('A typo hre');
  await composer(page).press('Enter');
  const mine = messages(page).getByTestId('chat-message').filter({ hasText: 'A typo hre' });
  await expect(mine).toBeVisible();
  const frame = sent.find((f) => f.type === 'chat.send' && f.content === 'A typo hre');
  expect(frame?.clientId).toMatch(/^[0-9a-f-]{36}$/);
  const ack = received.find((f) => f.type === 'chat.ack' && f.clientId === frame?.clientId);
  expect((ack?.message as { id: string } | undefined)?.id).toBe(
    await mine.getAttribute('data-message-id'),
  );
  expect(posts).toEqual([]);
  await mine.getByRole('button', { name: 'Message options' }).click();
  await page.getByRole('menuitem', { name: 'Edit message' }).click();
  const edit = page.getByRole('textbox', { name: 'Edit your message' });
  await edit.fill('A typo here');
  await edit.press('Enter');
  const fixed = messages(page).getByTestId('chat-message').filter({ hasText: 'A typo here' });
  await expect(fixed).toContainText('edited');
  // The other side sees the edit live.
  await expect(messages(seller.page).getByText('A typo here')).toBeVisible();

  await fixed.getByRole('button', { name: 'Message options' }).click();
  await page.getByRole('menuitem', { name: 'Delete message' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this message?' })
    .getByRole('button', {
      name: 'Delete message',
    })
    .click();
  await expect(messages(page).getByText('This message was deleted')).toBeVisible();
  await expect(messages(seller.page).getByText('This message was deleted')).toBeVisible();
});

test('after a lost connection the open conversation fetches what it missed', async () => {
  const page = seller.page;
  // The seller's socket runs through this relay, which can lose server events and then drop.
  let losing = false;
  const lost: string[] = [];
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api\/realtime$/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((frame) => {
      if (!losing) ws.send(frame);
      else lost.push(String(frame));
    });
    sockets.push(ws);
  });
  await page.goto(`/profile/${seller.id}/chats`);
  await roomLink(page, buyer.name).click();
  await expect(messages(page)).toBeVisible();
  await expect.poll(() => sockets.length).toBe(1);

  await buyer.page.goto(`/profile/${buyer.id}/chats`);
  await roomLink(buyer.page, seller.name).click();
  losing = true;
  await composer(buyer.page).fill('Sent while you were away');
  await composer(buyer.page).press('Enter');
  await expect(messages(buyer.page).getByText('Sent while you were away')).toBeVisible();
  // The server pushed it, and the relay lost it: the seller's page has not seen it.
  await expect.poll(() => lost.some((f) => f.includes('Sent while you were away'))).toBe(true);
  await expect(messages(page).getByText('Sent while you were away')).toHaveCount(0);

  // The connection drops; the client reconnects and asks for the messages after its last one.
  losing = false;
  await sockets[0].close();
  await expect.poll(() => sockets.length).toBeGreaterThan(1);
  await expect(messages(page).getByText('Sent while you were away')).toBeVisible();
  await expect(messages(page).getByText('Sent while you were away')).toHaveCount(1);
});

test('a message whose frame gets no answer goes by HTTP after 5 s with the same id: stored once', async () => {
  const page = buyer.page;
  // The buyer's socket runs through a relay that holds back chat.send frames.
  const held: string[] = [];
  const fromServer: Record<string, unknown>[] = [];
  const servers: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api\/realtime$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((frame) => {
      if (String(frame).includes('"chat.send"')) held.push(String(frame));
      else server.send(frame);
    });
    server.onMessage((frame) => {
      fromServer.push(JSON.parse(String(frame)) as Record<string, unknown>);
      ws.send(frame);
    });
    servers.push(server);
  });
  const posts: { clientId?: string }[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/chats\/rooms\/[^/]+\/messages$/.test(r.url()))
      posts.push(r.postDataJSON() as { clientId?: string });
  });
  await page.goto(`/profile/${buyer.id}/chats`);
  await roomLink(page, seller.name).click();
  await expect.poll(() => servers.length).toBe(1);
  await composer(page).fill('By the slow road');
  await composer(page).press('Enter');
  // Shown at once, as being sent, while the frame waits.
  const pending = messages(page).getByTestId('chat-message-pending');
  await expect(pending).toContainText('By the slow road');
  await expect(pending).toContainText('Sending…');
  await expect.poll(() => held.length).toBe(1);
  const clientId = (JSON.parse(held[0]) as { clientId: string }).clientId;
  // After 5 s without an answer the same message goes by HTTP, with the same client id.
  await expect.poll(() => posts.length, { timeout: 10_000 }).toBe(1);
  expect(posts[0].clientId).toBe(clientId);
  const stored = messages(page).getByTestId('chat-message').filter({ hasText: 'By the slow road' });
  await expect(stored).toHaveCount(1);
  await expect(pending).toHaveCount(0);
  // The held frame reaches the server late: acknowledged with the stored message, not stored again.
  servers[0].send(held[0]);
  await expect
    .poll(() => fromServer.find((f) => f.type === 'chat.ack' && f.clientId === clientId))
    .toBeTruthy();
  const ack = fromServer.find((f) => f.type === 'chat.ack' && f.clientId === clientId)!;
  expect((ack.message as { id: string }).id).toBe(await stored.getAttribute('data-message-id'));
  await expect(stored).toHaveCount(1);
  // The seller, in the room since the journey above, hears of it once.
  await expect(messages(seller.page).getByText('By the slow road')).toBeVisible();
  await page.waitForTimeout(500);
  await expect(messages(seller.page).getByText('By the slow road')).toHaveCount(1);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('on a phone the list and the conversation are two views', async () => {
  const page = buyer.page;
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`/profile/${buyer.id}/chats`);
  const room = roomLink(page, seller.name);
  await room.click();
  await expect(messages(page)).toBeVisible();
  await expect(room).toBeHidden();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Back to chats' }).click();
  await expect(room).toBeVisible();
  await expect(messages(page)).toHaveCount(0);
  // A room the member is not in is not found.
  await page.goto(`/profile/${buyer.id}/chats?room=00000000-0000-4000-8000-000000000000`);
  await expect(page.getByText('Chat room not found')).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('a member turns off e-mails about missed messages in settings', async () => {
  const page = buyer.page;
  await page.goto(`/profile/${buyer.id}/settings`);
  const toggle = page.getByRole('switch', { name: 'E-mail me about messages I missed' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeEnabled();
  await page.reload();
  await expect(
    page.getByRole('switch', { name: 'E-mail me about messages I missed' }),
  ).not.toBeChecked();
});

test('a member starts a direct chat and a group from the new-chat modal; a member leaves', async ({
  browser,
}) => {
  const third = await newPage(browser);
  const friend = await createConfirmedMember(third.page);
  const friendName = await displayName(third.page);
  const headers = { origin: new URL(seller.page.url()).origin };
  for (const [page, id] of [
    [buyer.page, buyer.id],
    [third.page, friend.id],
  ] as const) {
    const sent = await seller.page.request.post('/api/connections', {
      headers,
      data: { userId: id },
    });
    expect(sent.status(), await sent.text()).toBeLessThan(300);
    const { id: connectionId } = (await sent.json()) as { id: string };
    const accepted = await page.request.post(`/api/connections/${connectionId}/accept`, {
      headers: { origin: new URL(page.url()).origin },
    });
    expect(accepted.status(), await accepted.text()).toBeLessThan(300);
  }

  const page = seller.page;
  await page.goto(`/profile/${seller.id}/chats`);
  const dialog = page.getByRole('dialog', { name: 'New chat' });
  await page.getByRole('button', { name: 'New chat' }).click();
  await dialog.getByRole('checkbox', { name: named(friendName) }).check();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Start chat' }).click();
  await expect(page).toHaveURL(/\?room=/);
  await expect(page.getByRole('heading', { name: friendName })).toBeVisible();

  await page.getByRole('button', { name: 'New chat' }).click();
  await dialog.getByRole('checkbox', { name: named(friendName) }).check();
  await dialog.getByRole('checkbox', { name: named(buyer.name) }).check();
  await dialog.getByRole('button', { name: 'Create group' }).click();
  await expect(dialog.getByText('Give the group a name')).toBeVisible();
  await dialog.getByLabel('Group name').fill('Book club');
  await dialog.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByRole('heading', { name: 'Book club' })).toBeVisible();
  await expect(page.getByTestId('conversation-status')).toHaveText('Members: 3');
  await composer(page).fill('Welcome to the club');
  await composer(page).press('Enter');

  // The friend sees the group with its message, opens it and leaves after confirming.
  await third.page.goto(`/profile/${friend.id}/chats`);
  const group = roomLink(third.page, 'Book club');
  await expect(group).toContainText('Welcome to the club');
  await group.click();
  await third.page.getByRole('button', { name: 'Chat options' }).click();
  await third.page.getByRole('menuitem', { name: 'Leave chat' }).click();
  await third.page
    .getByRole('dialog', { name: 'Leave this chat?' })
    .getByRole('button', { name: 'Leave' })
    .click();
  await expect(group).toHaveCount(0);
  await expect(messages(page).getByText(`${friendName} left the chat`)).toBeVisible();
  await third.context.close();
});
