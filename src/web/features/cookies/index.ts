export type { ConsentCategory, CookiePreferences, OptionalCategory } from '../../lib/consent';
export { CONSENT_CATEGORIES, OPTIONAL_CATEGORIES, DEFAULT_PREFERENCES } from '../../lib/consent';
export {
  hasConsent,
  runWithConsent,
  useConsent,
  useCookiePreferences,
} from '../../lib/consentStore';
export { startCookieConsent, openCookiePreferences, saveCookiePreferences } from './api';
export { CookieConsent } from './CookieConsent';
export { CookieSettingsButton } from './CookieSettingsButton';
