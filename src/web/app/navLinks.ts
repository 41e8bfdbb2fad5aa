/** The header's links (the marketplace first); the mobile menu adds MOBILE_EXTRA_LINKS. */
export const NAV_LINKS = [
  { to: '/buy', key: 'nav.buy' },
  { to: '/trade', key: 'nav.trade' },
  { to: '/sell', key: 'nav.sell' },
  { to: '/library', key: 'nav.library' },
  { to: '/community', key: 'nav.community' },
] as const;

/** Links the phone's drawer adds (a wide header has them in the footer only). */
export const MOBILE_EXTRA_LINKS = [{ to: '/about', key: 'nav.about' }] as const;
