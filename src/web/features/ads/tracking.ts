import { useEffect, useRef, type RefObject } from 'react';
import type { AdEventKind, AdPlacement, AdPurchaseStore } from '@shared/schemas/ads';
import { hasConsent } from '../../lib/consentStore';

/** The IAB viewability rule: at least half of the ad on screen for one second. */
export const VIEWABLE_RATIO = 0.5;
export const VIEWABLE_MS = 1000;

/**
 * The token each impression is answered with, by ad: the server counts a click only when it
 * brings back the token of an impression by the same viewer, that day. Kept for the tab's life
 * (sessionStorage), so a reload between seeing an ad and clicking it still counts.
 */
const TOKENS_KEY = 'scaffale.adTokens';
const tokens = new Map<string, string>();

function storedTokens(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(TOKENS_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

export function rememberAdToken(adId: string, token: string): void {
  tokens.set(adId, token);
  try {
    sessionStorage.setItem(TOKENS_KEY, JSON.stringify({ ...storedTokens(), [adId]: token }));
  } catch {
    // storage full or off: the token in memory still serves this page
  }
}

export function adTokenFor(adId: string): string | undefined {
  return tokens.get(adId) ?? storedTokens()[adId];
}

/**
 * Sends one ad event without ever holding the page. An impression goes with fetch, whose answer
 * carries the token the click needs; a click or a conversion with sendBeacon (queued by the
 * browser, survives the navigation it starts), else fetch with keepalive. Failures are dropped
 * on purpose: an event is worth less than a reader's page. The server counts each kind once per
 * viewer, ad and day, so a repeat costs nothing.
 */
export function sendAdEvent(
  adId: string,
  kind: AdEventKind,
  placement?: AdPlacement,
  store?: AdPurchaseStore,
): void {
  const url = `/api/ads/${encodeURIComponent(adId)}/events`;
  // User agent, referrer and device details are kept only with marketing consent: without it
  // the referrer is not even sent.
  const consent = hasConsent('marketing');
  const token = kind === 'click' ? adTokenFor(adId) : undefined;
  const body = JSON.stringify({
    kind,
    ...(placement ? { placement } : {}),
    ...(store ? { store } : {}),
    ...(token ? { token } : {}),
    consent,
    ...(consent && document.referrer ? { referrer: document.referrer.slice(0, 500) } : {}),
  });
  const post = () =>
    fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      keepalive: true,
    });
  if (kind === 'impression') {
    try {
      void post()
        .then((res) => (res.ok ? (res.json() as Promise<{ token?: string }>) : null))
        .then((answer) => {
          if (answer?.token) rememberAdToken(adId, answer.token);
        })
        .catch(() => {});
    } catch {
      // nothing more to try
    }
    return;
  }
  try {
    // A string goes as text/plain, which a beacon may send without a preflight.
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, body)) return;
  } catch {
    // fall through to fetch
  }
  try {
    void post().catch(() => {});
  } catch {
    // nothing more to try
  }
}

export interface ViewabilityEnv {
  IntersectionObserver: typeof IntersectionObserver;
  document: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
}

/**
 * Calls `onViewable` once, when at least half of `el` has been on screen for a full second
 * without a break; leaving the screen or the tab being hidden before that cancels the timer.
 * Returns the function that stops watching.
 */
export function watchViewability(
  el: Element,
  onViewable: () => void,
  env: ViewabilityEnv = { IntersectionObserver, document },
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let visible = false;
  let done = false;
  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const stop = () => {
    cancel();
    observer.disconnect();
    env.document.removeEventListener('visibilitychange', onVisibility);
  };
  const arm = () => {
    if (done || timer !== undefined || env.document.visibilityState === 'hidden') return;
    timer = setTimeout(() => {
      timer = undefined;
      if (!visible || done) return;
      done = true;
      stop();
      onViewable();
    }, VIEWABLE_MS);
  };
  const observer = new env.IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        visible = entry.isIntersecting && entry.intersectionRatio >= VIEWABLE_RATIO;
        if (visible) arm();
        else cancel();
      }
    },
    { threshold: VIEWABLE_RATIO },
  );
  const onVisibility = () => {
    if (env.document.visibilityState === 'hidden') cancel();
    else if (visible) arm();
  };
  observer.observe(el);
  env.document.addEventListener('visibilitychange', onVisibility);
  return stop;
}

/** Records one impression of the ad in `ref` by the IAB rule (see watchViewability). */
export function useAdImpression(
  ref: RefObject<Element | null>,
  adId: string | undefined,
  placement?: AdPlacement,
) {
  const sent = useRef<string | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !adId || sent.current === adId) return;
    if (typeof IntersectionObserver === 'undefined') return;
    return watchViewability(el, () => {
      sent.current = adId;
      sendAdEvent(adId, 'impression', placement);
    });
  }, [ref, adId, placement]);
}
