import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

/** Runs axe on the current page and fails on any serious or critical violation. */
export async function expectAccessible(page: Page) {
  const violations = async () => {
    const results = await new AxeBuilder({ page }).analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  };
  // Checked again for up to 5 s: a dialog fading in has half its contrast for a moment.
  let last: string[] = [];
  await expect(async () => {
    last = await violations();
    expect(last).toEqual([]);
  })
    .toPass({ timeout: 5_000 })
    // toPass reports a timeout only: say which rules failed.
    .catch(() => expect(last, 'axe: serious or critical violations').toEqual([]));
}

/** Reads the development outbox (the e2e server has no SMTP_URL). */
export async function outbox(page: Page): Promise<OutboxMail[]> {
  const res = await page.request.get('/api/dev/mail');
  expect(res.ok()).toBeTruthy();
  return res.json();
}

/** Chooses the interface language through the switcher. */
export async function chooseLanguage(page: Page, language: 'it' | 'en') {
  await page
    .getByRole('combobox', { name: /^(Lingua|Language)$/ })
    .first()
    .selectOption(language);
}

/**
 * Nothing scrolls sideways at `width`: polled, because a resize or a navigation settles the layout
 * a moment later (media-query listeners, the page's chunk) and a person sees the settled page.
 */
export async function expectFitsWidth(page: Page, width = 375, message?: string) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message })
    .toBeLessThanOrEqual(width);
}

export const test = base;
export { expect };

/**
 * A word no other journey, and no repeat of this one, uses (`--repeat-each` runs a file again on
 * the same server): searches for it see this run's data alone.
 */
export function uniqueWord(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Waits until the page's realtime socket is open (the app marks it on <html data-realtime>):
 * events sent before then are not replayed, so a journey waits before acting as another member.
 */
export async function waitForLive(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-realtime', 'open');
}
