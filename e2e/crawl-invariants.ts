import { readFileSync } from 'node:fs';
import type { Page, Request, Response } from '@playwright/test';
import { expect } from './fixtures';

/**
 * The invariants every page keeps, whoever opens it (issue 33, the newcomer crawl): no raw
 * translation key, no raw payload, money and dates in the page's language, no console error, no
 * failed request, nothing wider than the screen. `watch` listens to a page for its whole life;
 * `checkPage` looks at the page on screen and names each broken invariant with the page's path.
 */

/** Every key of the locale files ("library.empty.noResultsTitle"), for the untranslated check. */
const KEYS = (() => {
  const out = new Set<string>();
  const walk = (node: unknown, path: string) => {
    if (node && typeof node === 'object' && !Array.isArray(node))
      for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
    else out.add(path.replace(/_(one|other|few|many|zero|two)$/, ''));
  };
  walk(JSON.parse(readFileSync('src/web/locales/en.json', 'utf8')), '');
  return out;
})();

/** A word.word.word token (a key shape), not part of an address, a file name or a domain. */
const KEY_SHAPE = /(?<![\w@/.:-])[a-z][a-zA-Z0-9]*(?:\.[a-zA-Z][a-zA-Z0-9_]*)+(?![\w@/-])/g;
const DOMAIN_END = /\.(com|it|org|net|eu|io|test|dev|app|jpg|jpeg|png|webp|pdf|csv|json)$/i;

export function untranslatedKeys(text: string): string[] {
  return [...new Set(text.match(KEY_SHAPE) ?? [])].filter(
    (token) => !DOMAIN_END.test(token) && (KEYS.has(token) || token.split('.').length >= 3),
  );
}

/** What a person must never read: a |-joined payload, JSON, a JavaScript value's name. */
const RAW_PAYLOADS: Array<[string, RegExp]> = [
  ['a |-joined payload', /[\p{L}\p{N}_-]+\|[\p{L}\p{N}_-]+/u],
  ['JSON', /[{[]\s*"[^"]+"\s*:/],
  ['undefined', /\bundefined\b/],
  ['NaN', /\bNaN\b/],
  ['[object Object]', /\[object \w+\]/],
  ['null', /(^|[\s:(])null([\s,.)]|$)/],
];

export function rawPayloads(text: string): string[] {
  return RAW_PAYLOADS.filter(([, re]) => re.test(text)).map(
    ([name, re]) => `${name}: “${text.match(re)?.[0]}”`,
  );
}

const EN_MONTHS =
  /\b(January|February|March|April|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b/;

/** Money and dates written the other language's way (or not written for people at all). */
export function foreignFormats(text: string, lang: 'it' | 'en'): string[] {
  const found: string[] = [];
  const hit = (name: string, re: RegExp) => {
    const m = text.match(re);
    if (m) found.push(`${name}: “${m[0]}”`);
  };
  // A raw ISO date or time stamp is for machines.
  hit('an ISO date', /\b\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?\b/);
  if (lang === 'it') {
    hit('money written in English', /€\s?\d|\b\d+\.\d{2}\s?€/);
    hit('an English month', EN_MONTHS);
  } else {
    hit('money written in Italian', /\b\d+,\d{2}\s?€/);
    // Italian month names only in words of a sentence would be rare: whole words, lower case.
    const it = text.match(
      /\b\d{1,2} (gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre)\b/,
    );
    if (it) found.push(`an Italian date: “${it[0]}”`);
  }
  return found;
}

export interface Watched {
  problems: string[];
  /** The path the page showed when each problem was seen. */
  at: () => string;
}

/** Requests that fail on purpose (answers a visitor or a fresh page is expected to get). */
const EXPECTED_FAILURES: Array<[number, RegExp]> = [
  // A visitor's session check (signed out) and the ads slot when nothing is sponsored.
  [401, /\/api\/(me|auth\/get-session)\b/],
  [204, /./],
  [304, /./],
];

/**
 * Listens to the page: console errors, uncaught errors, requests that fail or answer 4xx/5xx
 * (a 404 asked for by the test itself is passed in `allow`).
 */
export function watch(page: Page, allow: RegExp[] = []): Watched {
  const problems: string[] = [];
  const at = () => {
    try {
      return new URL(page.url()).pathname + new URL(page.url()).search;
    } catch {
      return page.url();
    }
  };
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = m.text();
    // The browser's own line for a failed request: reported once, as the request.
    if (/Failed to load resource/.test(text)) return;
    problems.push(`${at()}: console error: ${text.slice(0, 300)}`);
  });
  page.on('pageerror', (e) => problems.push(`${at()}: uncaught ${e.message.slice(0, 300)}`));
  page.on('requestfailed', (r: Request) => {
    const failure = r.failure()?.errorText ?? '';
    // A navigation away cancels what the last page was still fetching: not a failure.
    if (/ERR_ABORTED|NS_BINDING_ABORTED/.test(failure)) return;
    problems.push(`${at()}: request failed: ${r.method()} ${r.url()} (${failure})`);
  });
  page.on('response', (r: Response) => {
    const status = r.status();
    if (status < 400) return;
    const url = r.url();
    if (EXPECTED_FAILURES.some(([s, re]) => s === status && re.test(url))) return;
    if (allow.some((re) => re.test(url))) return;
    problems.push(`${at()}: ${r.request().method()} ${url} answered ${status}`);
  });
  return { problems, at };
}

/** Waits until the page has settled: no request in flight for a moment, nothing busy or loading. */
export async function settle(page: Page) {
  await expect(page.locator('main')).toBeVisible({ timeout: 30_000 });
  // A page's requests done (a page that keeps polling is not waited for past a few seconds).
  await page.waitForLoadState('networkidle', { timeout: 4_000 }).catch(() => undefined);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('main .mantine-Skeleton-root')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('main .mantine-Loader-root')).toHaveCount(0, {
    timeout: 20_000,
  });
}

export interface PageCheck {
  lang: 'it' | 'en';
  width: number;
}

/** The page's broken invariants, each named with its path. */
export async function pageProblems(page: Page, { lang, width }: PageCheck) {
  const path = new URL(page.url()).pathname;
  const text = await page.locator('body').innerText();
  const found: string[] = [];
  for (const key of untranslatedKeys(text)) found.push(`untranslated key “${key}”`);
  found.push(...rawPayloads(text));
  found.push(...foreignFormats(text, lang));
  const html = await page.evaluate(() => document.documentElement.lang);
  if (html !== lang) found.push(`<html lang="${html}"> on a page in ${lang}`);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width <= 375 && scroll > width) found.push(`scrolls sideways: ${scroll} px wide at ${width}`);
  return found.map((f) => `${path}: ${f}`);
}
