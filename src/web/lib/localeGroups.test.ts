import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  localeKeysIn,
  moduleGraph,
  readRouteTable,
  type Reached,
} from '../../../scripts/locale-usage';
import {
  CORE_LOCALE_KEYS,
  DEFAULT_PAGE_LOCALE_GROUPS,
  LAZY_LOCALE_GROUPS,
  PAGES_LOCALE_GROUP,
  localeGroupOf,
} from './localeGroups';
import itCatalogue from '../locales/it.json';

// Whoever sees a page must never see a raw key: each part of the app (the shell, the home page,
// every route, every lazily loaded component) may only name texts of the core catalogue or of a
// group that arrives with it. Read from the sources (scripts/locale-usage.ts).

const web = fileURLToPath(new URL('..', import.meta.url));
const shared = fileURLToPath(new URL('../../shared', import.meta.url));
const app = resolve(web, 'app');
const routes = readRouteTable(readFileSync(resolve(app, 'router.tsx'), 'utf8'));
const fileOf = (spec: string) => resolve(app, `${spec}.tsx`);
const pageFiles = new Set(routes.map((r) => fileOf(r.module)));
const catalogue = itCatalogue as Record<string, unknown>;
const topKeys = Object.keys(catalogue);
const src = resolve(web, '..');

/** The top-level keys a set of groups (plus the core) makes available. */
function keysOf(groups: Iterable<string>): Set<string> {
  const wanted = new Set(['core', ...groups]);
  return new Set(topKeys.filter((k) => wanted.has(localeGroupOf(k))));
}

/** `file: key` for every text named in `reached` that is not among `available` (or its groups). */
function missing(reached: readonly Reached[], available: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const { file, groups } of reached) {
    const here = groups.size ? keysOf([...groups]) : available;
    for (const key of localeKeysIn(readFileSync(file, 'utf8'), catalogue))
      if (!available.has(key) && !here.has(key)) out.add(`${relative(src, file)}: ${key}`);
  }
  return [...out].sort();
}

const graphOf = (file: string) =>
  moduleGraph([file], shared, new Set([...pageFiles].filter((f) => f !== file)));

describe('locale groups', () => {
  it('name top-level keys of the catalogues, each in one place', () => {
    expect(CORE_LOCALE_KEYS.filter((k) => !(k in catalogue))).toEqual([]);
    expect(LAZY_LOCALE_GROUPS.filter((k) => !(k in catalogue))).toEqual([]);
    expect(
      CORE_LOCALE_KEYS.filter((k) => (LAZY_LOCALE_GROUPS as readonly string[]).includes(k)),
    ).toEqual([]);
    expect(topKeys).not.toContain(PAGES_LOCALE_GROUP);
  });

  it('are read from the sources (the checks below see what they check)', () => {
    expect(routes.length).toBeGreaterThan(30);
    const home = routes.find((r) => r.index && !r.privateArea);
    expect(home?.module).toBe('../features/home/HomePage');
    expect(routes.find((r) => r.path === 'cookie-policy')?.groups).toEqual(['legal']);
    expect(routes.find((r) => r.path === 'user/:userId')?.groups).toContain('blocks');
    const shell = moduleGraph([resolve(web, 'main.tsx')], shared, pageFiles);
    const bell = shell.find((r) => r.file.endsWith('NotificationBell.tsx'));
    expect([...(bell?.groups ?? [])]).toEqual(['notifications']);
    // The barrel features/chats/index.ts is followed for the names imported only.
    expect(shell.some((r) => r.file.endsWith('chats/ContactSeller.tsx'))).toBe(false);
    expect(missing(shell, keysOf([]))).toEqual([]);
    expect(missing(shell, new Set())).toContain('web/app/Layout.tsx: nav');
    expect(localeKeysIn("t(`community.postTypes.${type}`); t('nav.home')", catalogue)).toEqual(
      new Set(['community', 'nav']),
    );
    expect(localeKeysIn("t('nav.nothingHere'); 'plain.text'", catalogue)).toEqual(new Set());
  });

  it('give the shell (app/ and what it loads without a route change) core texts only', () => {
    const shell = moduleGraph([resolve(web, 'main.tsx')], shared, pageFiles);
    expect(shell.length).toBeGreaterThan(20);
    expect(missing(shell, keysOf([]))).toEqual([]);
  });

  it('give the home page core texts only', () => {
    const home = routes.find((r) => r.index && !r.privateArea)!;
    expect(home.groups).toEqual([]);
    expect(missing(graphOf(fileOf(home.module)), keysOf([]))).toEqual([]);
  });

  it('give every route the groups its pages use', () => {
    const layout = routes.find((r) => r.path === 'profile/:userId')!;
    const problems = routes.flatMap((route) => {
      const groups = [
        ...(route.groups ?? DEFAULT_PAGE_LOCALE_GROUPS),
        // The private area's layout comes with each of its pages.
        ...(route.privateArea ? (layout.groups ?? DEFAULT_PAGE_LOCALE_GROUPS) : []),
      ];
      return missing(graphOf(fileOf(route.module)), keysOf(groups)).map(
        (m) => `/${route.privateArea ? 'profile/:userId/' : ''}${route.path}: ${m}`,
      );
    });
    expect(problems).toEqual([]);
  });
});
