import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { createConfirmedMember, dismissCookieBanner } from './members';

/**
 * The Content Security Policy is enforced, not just sent: nothing a page runs asks for what it
 * forbids. A library probing for eval (zod did, on every page) shows up here as a violation.
 */
function recordViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  void page.exposeFunction('__reportCspViolation', (text: string) => seen.push(text));
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (t: string) => void })
        .__reportCspViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  return seen;
}

test.describe('content security policy', () => {
  test('public pages and their forms cause no CSP violation', async ({ page }) => {
    const violations = recordViolations(page);
    await page.goto('/');
    await dismissCookieBanner(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const path of ['/library', '/about', '/contact', '/login', '/signup']) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await page.waitForLoadState('networkidle');
    }
    // A form validated in the browser builds and runs its schema.
    await page
      .getByLabel(/^Email/)
      .first()
      .fill('not-an-email');
    await page.getByRole('button', { name: /^(Registrati|Sign up|Crea account)/ }).click();
    // The schema ran: its message is on the page.
    await expect(
      page.getByText(/^(Indirizzo email non valido|Invalid email address)$/),
    ).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("a member's pages cause no CSP violation", async ({ page }) => {
    const violations = recordViolations(page);
    await page.goto('/');
    await dismissCookieBanner(page);
    const me = await createConfirmedMember(page);
    for (const path of [`/profile/${me.id}/books`, `/profile/${me.id}/settings`, '/sell']) {
      await page.goto(path);
      // One main landmark: the shell's holds the private area's content.
      await expect(page.getByRole('main')).toHaveCount(1);
      await expect(page.getByRole('main')).toBeVisible();
      await page.waitForLoadState('networkidle');
    }
    expect(violations).toEqual([]);
  });
});
