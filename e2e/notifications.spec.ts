import type { Page } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth } from './fixtures';
import { openMember, uniqueEmail, type OpenMember } from './members';

/**
 * The notification centre: two members send Bruno friend requests; his bell counts them live
 * (no reload); a notification opens the friends page and is read; "mark all as read" empties the
 * badge; he turns off the e-mails for friend requests in his settings.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

type Member = OpenMember;

let ada: Member;
let bruno: Member;
let carla: Member;

async function sendRequest(from: Member, to: Member) {
  await from.page.goto(`/user/${to.id}`);
  const control = from.page.getByRole('group', { name: 'Friendship' });
  await control.getByRole('button', { name: 'Add friend' }).click();
  await expect(control.getByRole('button', { name: 'Request sent' })).toBeDisabled();
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

test.beforeAll(async ({ browser }) => {
  ada = await openMember(browser, { email: uniqueEmail('ada') });
  bruno = await openMember(browser, { email: uniqueEmail('bruno') });
  carla = await openMember(browser, { email: uniqueEmail('carla') });
});

test.afterAll(async () => {
  for (const m of [ada, bruno, carla]) await m?.context.close();
});

test('the bell counts friend requests as they arrive, without a reload', async () => {
  const { page } = bruno;
  await page.goto(`/profile/${bruno.id}/dashboard`);
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  await sendRequest(ada, bruno);
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(page.getByTestId('notification-badge')).toContainText('1');
  await sendRequest(carla, bruno);
  await expect(bell(page)).toHaveAccessibleName('Notifications, 2 unread');
});

test('a notification opens the friends page and is then read', async () => {
  const { page } = bruno;
  await bell(page).click();
  const popover = page.getByRole('dialog', { name: 'Notifications' });
  const list = popover.getByRole('list', { name: 'Your notifications' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  // Newest first.
  await expect(list.getByRole('listitem').first()).toContainText(
    `${carla.name} sent you a friend request`,
  );
  await expectAccessible(page);
  await list
    .getByRole('button', { name: new RegExp(`${ada.name} sent you a friend request`) })
    .click();

  await expect(page).toHaveURL(new RegExp(`/profile/${bruno.id}/friends$`));
  await expect(
    page.getByRole('list', { name: 'Requests received' }).getByRole('listitem', { name: ada.name }),
  ).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
});

test('the notifications page marks all as read, and the badge empties', async () => {
  const { page } = bruno;
  await page.goto(`/profile/${bruno.id}/notifications`);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Your notifications' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: '(unread)' })).toHaveCount(1);
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await expect(page.getByTestId('notification-badge')).not.toContainText(/\d/);
  await expect(items.filter({ hasText: '(unread)' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName('Notifications');
});

test('at 375 px the bell and its list fit the screen', async () => {
  const { page } = bruno;
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`/profile/${bruno.id}/notifications`);
  await bell(page).click();
  const popover = page.getByRole('dialog', { name: 'Notifications' });
  await expect(popover.getByRole('listitem')).toHaveCount(2);
  const box = await popover.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  await expectFitsWidth(page);
  await page.keyboard.press('Escape');
  await expect(popover).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('Bruno turns off e-mails for friend requests in his settings', async () => {
  const { page } = bruno;
  await page.goto(`/profile/${bruno.id}/settings`);
  const email = page.getByRole('switch', { name: 'Friend requests: by e-mail', exact: true });
  const inApp = page.getByRole('switch', { name: 'Friend requests: in the app', exact: true });
  await expect(email).toBeChecked();
  await expect(inApp).toBeChecked();
  await expectAccessible(page);
  // By keyboard, as the settings must work: focus the switch and press Space.
  await email.focus();
  await page.keyboard.press('Space');
  await expect(email).not.toBeChecked();
  await expect(email).toBeEnabled();
  await page.reload();
  await expect(
    page.getByRole('switch', { name: 'Friend requests: by e-mail', exact: true }),
  ).not.toBeChecked();
  await expect(
    page.getByRole('switch', { name: 'Friend requests: in the app', exact: true }),
  ).toBeChecked();
  // And by mouse, on the switch's visible track: in-app off, then on again.
  const inAppNow = page.getByRole('switch', { name: 'Friend requests: in the app', exact: true });
  const track = inAppNow.locator('xpath=following-sibling::span[1]');
  await track.click();
  await expect(inAppNow).not.toBeChecked();
  await expect(inAppNow).toBeEnabled();
  await track.click();
  await expect(inAppNow).toBeChecked();
  await expect(inAppNow).toBeEnabled();
  const settings = await page.request.get('/api/notifications/settings');
  expect((await settings.json()).types).toContainEqual({
    type: 'friend.request',
    inApp: true,
    email: false,
  });
});
