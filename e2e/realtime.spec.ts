import type { WebSocket } from '@playwright/test';
import { test, expect } from './fixtures';
import { createConfirmedMember, dismissCookieBanner } from './members';

/**
 * The tab's live connection: none for a visitor, one socket to /api/realtime once signed in, kept
 * across page changes, closed on sign-out. (What travels on it is covered by the chats journey.)
 */
test.use({ locale: 'en-US' });

test('a signed-in tab holds one realtime socket, closed on sign-out', async ({ page }) => {
  const sockets: WebSocket[] = [];
  page.on('websocket', (ws) => {
    if (ws.url().endsWith('/api/realtime')) sockets.push(ws);
  });
  // The page's clock runs as usual; the reconnect backoff is passed on it at the end.
  await page.clock.install();
  await page.goto('/');
  await dismissCookieBanner(page);
  await page.waitForLoadState('networkidle');
  expect(sockets).toHaveLength(0);

  const { id } = await createConfirmedMember(page);
  await expect.poll(() => sockets.length).toBe(1);
  const socket = sockets[0];
  // The server accepted the handshake (session cookie, our own Origin): a refused one closes.
  await page.waitForTimeout(500);
  expect(socket.isClosed()).toBe(false);

  // A page load opens the new page's one socket.
  const before = sockets.length;
  await page.goto(`/profile/${id}/settings`);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect.poll(() => sockets.length - before).toBe(1);
  const current = sockets.at(-1)!;
  await page.waitForTimeout(500);
  expect(current.isClosed()).toBe(false);
  expect(sockets.length - before).toBe(1);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/');
  await expect.poll(() => current.isClosed()).toBe(true);
  // Signed out: no new socket is opened (no reconnect loop), however long the backoff (at most
  // 30 s) runs on the page's clock.
  const after = sockets.length;
  await page.clock.runFor(60_000);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
  expect(sockets.length).toBe(after);
});
