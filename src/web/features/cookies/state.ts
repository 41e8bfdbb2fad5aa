import { COOKIE_PREFERENCES_KEY } from '@shared/constants';
import { createConsentStore, parsePreferences, type CookiePreferences } from './consent';

function readStored(): CookiePreferences | null {
  try {
    return parsePreferences(localStorage.getItem(COOKIE_PREFERENCES_KEY));
  } catch {
    return null; // storage blocked: behave as if no choice was made
  }
}

/**
 * The page's consent state. It starts from the localStorage mirror so that features can ask
 * before the consent tool has loaded; the tool's own cookie stays the source of truth.
 */
export const consentStore = createConsentStore(readStored());

/** Records a choice (or forgets it with null) in the store and in the localStorage mirror. */
export function recordPreferences(preferences: CookiePreferences | null) {
  try {
    if (preferences)
      localStorage.setItem(
        COOKIE_PREFERENCES_KEY,
        JSON.stringify({
          essential: true,
          functional: preferences.functional,
          analytics: preferences.analytics,
          marketing: preferences.marketing,
        }),
      );
    else localStorage.removeItem(COOKIE_PREFERENCES_KEY);
  } catch {
    // storage blocked: the store still holds the choice for this page
  }
  consentStore.setPreferences(preferences);
}
