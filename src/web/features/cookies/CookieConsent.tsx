import { useEffect } from 'react';
import i18n from '../../lib/i18n';
import { startCookieConsent } from './api';
import { hasPrerenderedBanner } from './prerendered';

/**
 * Mounted once by the shell. Renders nothing itself: after the first render it loads the consent
 * tool, which shows the banner when no choice is stored.
 */
export function CookieConsent() {
  useEffect(() => {
    const start = () =>
      startCookieConsent().catch((err) => console.error('cookie consent unavailable', err));
    // When the server wrote the banner into the page (prerendered.ts keeps its buttons working),
    // the tool can wait for an idle moment after the load instead of adding to the start's work.
    if (!hasPrerenderedBanner()) return void start();
    let idle: number | undefined;
    const later = () => {
      idle = window.requestIdleCallback
        ? window.requestIdleCallback(start, { timeout: 1500 })
        : window.setTimeout(start, 200);
    };
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
    // The server's banner speaks one language: a switch before then needs the tool's.
    i18n.on('languageChanged', start);
    return () => {
      i18n.off('languageChanged', start);
      window.removeEventListener('load', later);
      if (idle !== undefined) (window.cancelIdleCallback ?? window.clearTimeout)(idle as number);
    };
  }, []);
  return null;
}
