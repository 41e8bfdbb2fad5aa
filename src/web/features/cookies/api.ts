import { useSyncExternalStore } from 'react';
import { consentStore } from './state';
import { dropPrerenderedBanner } from './prerendered';
import type { ConsentCategory, CookiePreferences, OptionalCategory } from './consent';

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

// The consent tool is its own chunk, fetched after the first render.
const loadManager = () => import('./manager');

/** Starts the consent tool: shows the banner when no valid choice is stored. */
export async function startCookieConsent(): Promise<void> {
  await (await loadManager()).start();
  // The tool has replaced the server's banner with its own, or shows none (a choice is stored).
  dropPrerenderedBanner();
}

/** Opens the consent tool's preferences dialog (loading the tool if needed). */
export async function openCookiePreferences(): Promise<void> {
  await (await loadManager()).showPreferences();
}

/** Saves functional/analytics/marketing choices made outside the tool; closes the banner. */
export async function saveCookiePreferences(
  choice: Pick<CookiePreferences, OptionalCategory>,
): Promise<void> {
  await (await loadManager()).savePreferences(choice);
}
