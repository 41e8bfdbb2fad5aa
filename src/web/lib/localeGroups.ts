/**
 * How it.json / en.json are split into chunks per language (vite.config.ts `localeSplit`):
 * - "core", loaded at start: the top-level keys named here, the texts the shell (app/: header,
 *   footer, cookie banner, toasts, account menu, route error, not found) and the home page show;
 * - one chunk per lazy group (a top-level key of its own), fetched by the routes and the lazily
 *   loaded components that name it (`page()` in app/router.tsx, `withLocaleGroups()`);
 * - "pages", every other top-level key: the default group of a route, so a page that names no
 *   groups still finds its texts, and a new top-level key never weighs on the first download.
 * localeGroups.test.ts checks, from the sources, that each part finds every text it names.
 * Pure data: vite.config.ts reads it too.
 */
export const CORE_LOCALE_KEYS = [
  'account',
  'app',
  'common',
  'cookies',
  'errors',
  'footer',
  'home',
  'nav',
  'notFound',
  'privateArea',
] as const;

export const LAZY_LOCALE_GROUPS = [
  'legal',
  'chats',
  'ads',
  'community',
  'communityApi',
  'admin',
  'tradeMatches',
  'privacy',
  'blocks',
  'notifications',
] as const;

/** The group of every top-level key that is neither core nor a lazy group of its own. */
export const PAGES_LOCALE_GROUP = 'pages';

export type LocaleGroup = (typeof LAZY_LOCALE_GROUPS)[number] | typeof PAGES_LOCALE_GROUP;

/** What a route loads when it names no groups. */
export const DEFAULT_PAGE_LOCALE_GROUPS: readonly LocaleGroup[] = [PAGES_LOCALE_GROUP];

/** The chunk a top-level key of the catalogues goes to. */
export function localeGroupOf(key: string): 'core' | LocaleGroup {
  if ((CORE_LOCALE_KEYS as readonly string[]).includes(key)) return 'core';
  if ((LAZY_LOCALE_GROUPS as readonly string[]).includes(key)) return key as LocaleGroup;
  return PAGES_LOCALE_GROUP;
}
