import { useEffect } from 'react';
import { startCookieConsent } from './api';

/**
 * Mounted once by the shell. Renders nothing itself: after the first render it loads the consent
 * tool, which shows the banner when no choice is stored.
 */
export function CookieConsent() {
  useEffect(() => {
    startCookieConsent().catch((err) => console.error('cookie consent unavailable', err));
  }, []);
  return null;
}
