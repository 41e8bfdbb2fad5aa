import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { openMember, type OpenMember } from './members';

/** Runs axe on the current page and fails on any serious or critical violation. */
export async function expectAccessible(page: Page) {
  const violations = async () => {
    const results = await new AxeBuilder({ page }).analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  };
  // Checked again for up to 15 s: a dialog fading in has half its contrast for a moment, and on
  // a busy machine one scan alone can take seconds.
  let last: string[] = [];
  await expect(async () => {
    last = await violations();
    expect(last).toEqual([]);
  })
    .toPass({ timeout: 15_000 })
    // toPass reports a timeout only: say which rules failed.
    .catch(() => expect(last, 'axe: serious or critical violations').toEqual([]));
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

/** A member signed up and signed in in a browser context of their own (members.ts). */
export type SignedInMember = OpenMember;

/**
 * `test` with two members, a seller and another member (a buyer, a watcher), each signed up and
 * signed in in a browser context of their own, made when a test asks for them and closed after.
 */
export const testWithTwoMembers = base.extend<{
  seller: SignedInMember;
  member: SignedInMember;
}>({
  seller: async ({ browser }, use) => {
    const seller = await openMember(browser);
    await use(seller);
    await seller.context.close();
  },
  member: async ({ browser }, use) => {
    const member = await openMember(browser);
    await use(member);
    await member.context.close();
  },
});

/**
 * Lists a book for sale as the page's member, through the API (by Italo Calvino, 20 €, unless
 * `data` says otherwise): its id.
 */
export async function listBook(page: Page, title: string, data: object = {}): Promise<string> {
  const res = await page.request.post('/api/listings', {
    headers: { origin: new URL(page.url()).origin },
    data: {
      mode: 'full',
      title,
      author: 'Italo Calvino',
      genre: 'fiction',
      condition: 'good',
      listingType: 'sell',
      price: 20,
      description: 'A listing of an e2e journey.',
      ...data,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id;
}
