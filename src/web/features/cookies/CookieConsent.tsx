import { useEffect } from 'react';
import i18n from '../../lib/i18n';
import { startCookieConsent } from './api';
import { hasPrerenderedBanner } from './prerendered';

/**
 * Mounted once by the shell. Renders nothing itself: it loads the consent tool, which shows the
 * banner when no choice is stored (at once without the server's banner, else on interaction).
 */
export function CookieConsent() {
  useEffect(() => {
    const start = () =>
      startCookieConsent().catch((err) => console.error('cookie consent unavailable', err));
    // When the server wrote the banner into the page (prerendered.ts carries out a click on it
    // through the tool), the tool has nothing to do but put an identical banner in its place: it
    // starts at the visitor's first interaction with the page (or at an idle moment after it),
    // not during the load, where its start was the longest task of a phone's first visit.
    if (!hasPrerenderedBanner()) return void start();
    // The end of a gesture, never its start: swapping the banners between a button's mousedown
    // and mouseup would leave that click with no target (a click on the server's banner goes
    // through the tool anyway).
    const events = ['pointerup', 'keyup', 'touchend', 'wheel', 'scroll'] as const;
    let idle: number | undefined;
    const later = () => {
      stopListening();
      idle = window.requestIdleCallback
        ? window.requestIdleCallback(start, { timeout: 1500 })
        : window.setTimeout(start, 200);
    };
    const stopListening = () =>
      events.forEach((type) => window.removeEventListener(type, later, { capture: true }));
    events.forEach((type) =>
      window.addEventListener(type, later, { capture: true, passive: true, once: true }),
    );
    // The server's banner speaks one language: a switch before then needs the tool's.
    i18n.on('languageChanged', start);
    return () => {
      i18n.off('languageChanged', start);
      stopListening();
      if (idle !== undefined) (window.cancelIdleCallback ?? window.clearTimeout)(idle as number);
    };
  }, []);
  return null;
}
