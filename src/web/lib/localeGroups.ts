/**
 * Top-level locale namespaces that are not part of the first download: each becomes its own chunk
 * per language and is fetched by the routes that need it (see `page()` in app/router.tsx).
 * Everything else in it.json / en.json is the "core" catalogue loaded at start.
 * Pure data: vite.config.ts reads it too.
 */
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
] as const;
export type LocaleGroup = (typeof LAZY_LOCALE_GROUPS)[number];
