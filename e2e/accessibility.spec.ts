import { execFileSync } from 'node:child_process';
import { test, expect, expectAccessible } from './fixtures';
import { createConfirmedMember, dismissCookieBanner } from './members';

// The pages the feature journeys do not already scan with axe.
test.describe('accessibility of the remaining pages', () => {
  test('sell prompt, reset-password and sign-in callback errors for a visitor', async ({
    page,
  }) => {
    await page.goto('/sell');
    await dismissCookieBanner(page);
    await expect(page.getByRole('link', { name: /accedi/i }).first()).toBeVisible();
    await expectAccessible(page);

    await page.goto('/reset-password');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page);

    await page.goto('/auth/callback?error=access_denied&error_description=Denied');
    await expect(page.getByText(/Denied/)).toBeVisible();
    await expectAccessible(page);
  });

  test("a member's books page, with its tabs", async ({ page }) => {
    const member = await createConfirmedMember(page);
    await dismissCookieBanner(page);
    await page.goto(`/user/${member.id}/books`);
    await expect(page.getByRole('tab').first()).toBeVisible();
    await expectAccessible(page);
  });

  test('the notifications page, empty, and the bell’s popover', async ({ page }) => {
    const member = await createConfirmedMember(page);
    await dismissCookieBanner(page);
    await page.goto(`/profile/${member.id}/notifications`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('notifications-empty')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: /^Notifiche/ }).click();
    await expect(page.getByRole('dialog', { name: 'Notifiche' })).toBeVisible();
    await expectAccessible(page);
  });

  test("a member's wishlist and trade matches, empty", async ({ page }) => {
    const member = await createConfirmedMember(page);
    await dismissCookieBanner(page);
    await page.goto(`/profile/${member.id}/wishlist`);
    await expect(page.getByRole('searchbox').first()).toBeVisible();
    await expect(page.getByRole('heading', { level: 3 })).toBeVisible();
    await expectAccessible(page);
    await page.goto(`/profile/${member.id}/trades`);
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('accessibility of the community pages', () => {
  test.use({ locale: 'en-US' });

  test('the community feed for a visitor and a member, and a post page', async ({ page }) => {
    await page.goto('/community');
    await dismissCookieBanner(page);
    await expect(page.getByRole('heading', { level: 2, name: 'Popular this week' })).toBeVisible();
    await expectAccessible(page);

    // A member writes a post about a catalogue book through the API, then opens its page.
    await createConfirmedMember(page);
    const origin = new URL(page.url()).origin;
    const search = await page.request.get('/api/catalogue/search?q=Harry%20Potter&limit=10');
    expect(search.ok()).toBeTruthy();
    const { items } = (await search.json()) as { items: { id: string }[] };
    const created = await page.request.post('/api/community/posts', {
      headers: { origin },
      data: { bookId: items[0].id, content: 'Accessible post.\nSecond line: https://example.org' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const comment = await page.request.post(`/api/community/posts/${id}/comments`, {
      headers: { origin },
      data: { content: 'A comment to scan.' },
    });
    expect(comment.status(), await comment.text()).toBe(201);

    await page.goto('/community?tab=friends');
    await expect(page.getByRole('heading', { level: 2, name: 'Friends activity' })).toBeVisible();
    await expectAccessible(page);
    await page.goto(`/community/posts/${id}`);
    await expect(page.getByText('A comment to scan.')).toBeVisible();
    await expectAccessible(page);
    await page.goto('/community/posts/no-such-post');
    await expect(page.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('accessibility of the moderation pages', () => {
  test('/admin for an admin (granted with npm run admin), with its three tabs', async ({
    page,
  }) => {
    const admin = await createConfirmedMember(page);
    await dismissCookieBanner(page);
    execFileSync('node_modules/.bin/tsx', ['scripts/admin.ts', 'grant', admin.email], {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Moderazione' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('tab', { name: 'Membri sospesi' }).click();
    await expect(page.getByRole('tabpanel')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('tab', { name: 'Registro delle azioni' }).click();
    await expect(page.getByTestId('audit-log')).toContainText('ha nominato admin');
    await expectAccessible(page);
  });
});

test.describe('accessibility of the advertisement pages', () => {
  test("an author's empty advertisements, the create form with its errors, promoted books", async ({
    page,
  }) => {
    const member = await createConfirmedMember(page);
    await dismissCookieBanner(page);
    await page.goto(`/profile/${member.id}/ads`);
    await expect(page.getByRole('tab').first()).toBeVisible();
    await expect(
      page.getByRole('heading', {
        name: /^(Non hai ancora pubblicità|You have no advertisements yet)$/,
      }),
    ).toBeVisible();
    await expectAccessible(page);

    await page.goto(`/profile/${member.id}/ads/new`);
    const form = page.getByRole('form');
    await form.getByRole('button', { name: /^(Salva bozza|Save draft)$/ }).click();
    await expect(form.locator('[aria-invalid="true"]').first()).toBeVisible();
    await expectAccessible(page);

    // Filtered to nothing: a visit here must not count an impression of another journey's ad.
    await page.goto('/promoted?keywords=zzz-no-such-keyword');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('search')).toBeVisible();
    await expectAccessible(page);

    await page.goto('/ads/00000000-0000-0000-0000-000000000000');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page);
  });
});
