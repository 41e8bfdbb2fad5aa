export const NAV_LINKS = [
  { to: '/library', key: 'nav.library' },
  { to: '/community', key: 'nav.community' },
  { to: '/about', key: 'nav.about' },
] as const;
