export type { ConsentCategory, CookiePreferences, OptionalCategory } from './consent';
export { CONSENT_CATEGORIES, OPTIONAL_CATEGORIES, DEFAULT_PREFERENCES } from './consent';
export {
  hasConsent,
  runWithConsent,
  useConsent,
  useCookiePreferences,
  startCookieConsent,
  openCookiePreferences,
  saveCookiePreferences,
} from './api';
export { CookieConsent } from './CookieConsent';
export { CookieSettingsButton } from './CookieSettingsButton';
