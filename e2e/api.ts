// The API as a journey's member calls it from their page: with the site's Origin (CSRF protection).
import { expect, type Page } from '@playwright/test';

/** State-changing API calls from the test need the site's Origin (CSRF protection). */
export function originOf(page: Page): string {
  return new URL(page.url()).origin;
}

/** A member's API call from their page, with the site's Origin (CSRF protection); must succeed. */
export async function apiPost(page: Page, url: string, data: object) {
  const res = await page.request.post(url, { headers: { origin: originOf(page) }, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}
