import type { Page } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth } from './fixtures';
import { dismissCookieBanner, openMember, type OpenMember } from './members';

/**
 * Friends: a member finds another by username on the friends page and sends a request; the other
 * sees it, accepts, and both list each other; the public profile's control follows every step;
 * a friendship ends after confirmation. Realtime refreshes are not assumed: pages are reloaded.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

type Member = OpenMember & { username: string };

let ada: Member;
let bruno: Member;

const friendsPage = (m: Member) => m.page.goto(`/profile/${m.id}/friends`);
const control = (page: Page) => page.getByRole('group', { name: 'Friendship' });

async function openProfile(viewer: Member, of: Member) {
  await viewer.page.goto(`/user/${of.id}`);
  await expect(viewer.page.getByRole('heading', { level: 1, name: of.name })).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  const suffix = Math.random().toString(36).slice(2, 7);
  ada = await openMember(browser, { username: `ada_${suffix}` });
  bruno = await openMember(browser, { username: `bruno_${suffix}` });
});

test.afterAll(async () => {
  await ada?.context.close();
  await bruno?.context.close();
});

test('a visitor is asked to sign in to add a friend; one never befriends oneself', async ({
  page,
}) => {
  await page.goto(`/user/${bruno.id}`);
  await dismissCookieBanner(page);
  const add = page.getByRole('link', { name: 'Add friend' });
  await expect(add).toHaveAttribute(
    'href',
    `/login?redirect_to=${encodeURIComponent(`/user/${bruno.id}`)}`,
  );
  await openProfile(bruno, bruno);
  await expect(bruno.page.getByRole('link', { name: 'Go to dashboard' })).toBeVisible();
  await expect(bruno.page.getByRole('button', { name: 'Add friend' })).toHaveCount(0);
});

test('Ada finds Bruno by username and sends a request; the profile shows it sent', async () => {
  const { page } = ada;
  await openProfile(ada, bruno);
  await expect(control(page).getByRole('button', { name: 'Add friend' })).toBeEnabled();

  await friendsPage(ada);
  await expect(page.getByRole('heading', { level: 1, name: 'Friends' })).toBeVisible();
  await expect(page.getByText('No friends yet')).toBeVisible();
  await expectAccessible(page);
  // The empty state's button takes the keyboard to the search box.
  await page.getByRole('button', { name: 'Find friends' }).click();
  const search = page.getByRole('searchbox', { name: 'Username or name' });
  await expect(search).toBeFocused();
  await search.fill(bruno.username);
  const result = page
    .getByRole('list', { name: 'Members found' })
    .getByRole('listitem', { name: bruno.name });
  await expect(result.getByRole('link', { name: bruno.name })).toHaveAttribute(
    'href',
    `/user/${bruno.id}`,
  );
  await result.getByRole('button', { name: 'Add friend' }).click();
  await expect(result.getByRole('button', { name: 'Request sent' })).toBeDisabled();
  const sent = page.getByRole('list', { name: 'Requests sent' });
  await expect(sent.getByRole('listitem', { name: bruno.name })).toBeVisible();
  await expect(page.getByText('No requests received.')).toBeVisible();

  await openProfile(ada, bruno);
  await expect(control(page).getByRole('button', { name: 'Request sent' })).toBeDisabled();
  await expect(control(page).getByRole('button', { name: 'Cancel request' })).toBeVisible();
});

test('Bruno sees the request on his profile view and his friends page, and accepts', async () => {
  const { page } = bruno;
  await openProfile(bruno, ada);
  await expect(control(page).getByText(`${ada.name} sent you a friend request.`)).toBeVisible();
  await expect(control(page).getByRole('button', { name: 'Accept request' })).toBeVisible();
  await expect(control(page).getByRole('button', { name: 'Decline' })).toBeVisible();
  await expectAccessible(page);

  await friendsPage(bruno);
  const request = page
    .getByRole('list', { name: 'Requests received' })
    .getByRole('listitem', { name: ada.name });
  await expect(request).toBeVisible();
  await expectAccessible(page);
  await request.getByRole('button', { name: 'Accept' }).click();
  const card = page.getByRole('article', { name: ada.name });
  await expect(card).toBeVisible();
  await expect(card.getByText(/^Friends since /)).toBeVisible();
  await expect(card.getByTestId('friend-interactions')).toHaveText('0');
  await expect(page.getByText('No requests received.')).toBeVisible();
  await expectAccessible(page);
});

test('both list each other; the profile offers send message and remove', async () => {
  // The first load fails: the page says so and its reload button fetches again.
  const friendsApi = '**/api/connections?page=1';
  await ada.page.route(friendsApi, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'unavailable', message: 'Down' } }),
    }),
  );
  await friendsPage(ada);
  const failure = ada.page.getByRole('alert').filter({ hasText: 'Failed to load friends' });
  await expect(failure).toBeVisible();
  await ada.page.unroute(friendsApi);
  await failure.getByRole('button', { name: 'Reload' }).click();
  await expect(failure).toHaveCount(0);
  const card = ada.page.getByRole('article', { name: bruno.name });
  await expect(card.getByRole('link', { name: bruno.name })).toHaveAttribute(
    'href',
    `/user/${bruno.id}`,
  );
  await expect(card.getByRole('button', { name: 'Send message' })).toBeVisible();

  await openProfile(ada, bruno);
  await expect(control(ada.page).getByRole('button', { name: 'Send message' })).toBeVisible();
  await expect(control(ada.page).getByRole('button', { name: 'Remove friend' })).toBeVisible();
  await openProfile(bruno, ada);
  await expect(control(bruno.page).getByRole('button', { name: 'Remove friend' })).toBeVisible();
});

test('send message opens the chat with the friend', async () => {
  const { page } = ada;
  await friendsPage(ada);
  await page
    .getByRole('article', { name: bruno.name })
    .getByRole('button', { name: 'Send message' })
    .click();
  await expect(page).toHaveURL(/\/chats\?room=/);
  await expect(page.getByRole('heading', { name: bruno.name })).toBeVisible();
  await expect(page.getByRole('log', { name: 'Messages' })).toBeVisible();
});

test('at 375 px the friends page fits, and removing a friend asks first', async () => {
  const { page } = bruno;
  await page.setViewportSize({ width: 375, height: 740 });
  await friendsPage(bruno);
  const card = page.getByRole('article', { name: ada.name });
  await expect(card).toBeVisible();
  await expectFitsWidth(page);

  await card.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove friend?' });
  await dialog.getByRole('button', { name: 'Keep' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Remove' }).click();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByText('No friends yet')).toBeVisible();
  // The empty state's other button takes the keyboard to the requests.
  await page.getByRole('button', { name: 'Friend requests' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Friend requests' })).toBeFocused();

  // Ada's live events are held back for a while, so her page can go stale.
  let holding = true;
  await ada.page.routeWebSocket(/\/api\/realtime$/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((frame) => {
      if (!holding) ws.send(frame);
    });
  });
  await openProfile(ada, bruno);
  const add = control(ada.page).getByRole('button', { name: 'Add friend' });
  await expect(add).toBeEnabled();

  // Bruno asks first while Ada's page still offers 'add friend': her request is refused, the
  // reason shows under the button, and the control turns to his request.
  const origin = new URL(bruno.page.url()).origin;
  const res = await bruno.page.request.post('/api/connections', {
    headers: { origin },
    data: { userId: ada.id },
  });
  expect(res.status()).toBe(201);
  await add.click();
  await expect(
    control(ada.page).getByRole('alert').filter({ hasText: 'Connection already exists' }),
  ).toBeVisible();
  await expect(control(ada.page).getByRole('button', { name: 'Accept request' })).toBeVisible();

  // Live again: Bruno takes his request back and Ada's control follows without a reload.
  holding = false;
  const { id } = (await res.json()) as { id: string };
  const cancel = await bruno.page.request.delete(`/api/connections/${id}`, { headers: { origin } });
  expect(cancel.status()).toBe(204);
  await expect(control(ada.page).getByRole('button', { name: 'Add friend' })).toBeVisible();
});
