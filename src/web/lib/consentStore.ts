import { useSyncExternalStore } from 'react';
import { COOKIE_PREFERENCES_KEY } from '@shared/constants';
import {
  createConsentStore,
  parsePreferences,
  type ConsentCategory,
  type CookiePreferences,
} from './consent';

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

/** Whether the person has accepted this category (essential: always). */
export function hasConsent(category: ConsentCategory): boolean {
  return consentStore.hasConsent(category);
}

/**
 * Runs fn once the category is accepted: now if it already is, otherwise when it gets accepted.
 * Analytics and marketing code must start only through this (or behind hasConsent/useConsent).
 * Returns a function that cancels a pending run.
 */
export function runWithConsent(category: ConsentCategory, fn: () => void): () => void {
  return consentStore.runWithConsent(category, fn);
}

/** Re-renders when the choice about this category changes. */
export function useConsent(category: ConsentCategory): boolean {
  return useSyncExternalStore(consentStore.subscribe, () => consentStore.hasConsent(category));
}

/** The current choice, and whether one has been made yet. */
export function useCookiePreferences(): { decided: boolean; preferences: CookiePreferences } {
  return useSyncExternalStore(consentStore.subscribe, consentStore.getSnapshot);
}
