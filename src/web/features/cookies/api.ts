import { dropPrerenderedBanner } from './prerendered';
import type { CookiePreferences, OptionalCategory } from '../../lib/consent';

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
