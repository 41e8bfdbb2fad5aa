import { test, expect, expectAccessible } from './fixtures';
import { createConfirmedMember, dismissCookieBanner } from './accounts-helpers';

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
});
