// Pure consent state: no DOM, no library. The browser singleton (state.ts) and the consent tool
// (manager.ts) feed it; features read it through index.ts.

export const CONSENT_CATEGORIES = ['essential', 'functional', 'analytics', 'marketing'] as const;
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number];
export type CookiePreferences = Record<ConsentCategory, boolean>;
/** The categories a person can switch (essential is always on). */
export const OPTIONAL_CATEGORIES = ['functional', 'analytics', 'marketing'] as const;
export type OptionalCategory = (typeof OPTIONAL_CATEGORIES)[number];

/** Default cookie preferences: essential and functional on, analytics and marketing off. */
export const DEFAULT_PREFERENCES: CookiePreferences = Object.freeze({
  essential: true,
  functional: true,
  analytics: false,
  marketing: false,
});

export function isConsentCategory(value: unknown): value is ConsentCategory {
  return typeof value === 'string' && (CONSENT_CATEGORIES as readonly string[]).includes(value);
}

/** Preferences from the list of accepted categories (essential is always on). */
export function preferencesFromCategories(accepted: readonly string[]): CookiePreferences {
  return {
    essential: true,
    functional: accepted.includes('functional'),
    analytics: accepted.includes('analytics'),
    marketing: accepted.includes('marketing'),
  };
}

/** Reads the stored mirror; anything malformed counts as "no choice made yet". */
export function parsePreferences(raw: string | null | undefined): CookiePreferences | null {
  if (!raw) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  const record = data as Record<string, unknown>;
  if (!OPTIONAL_CATEGORIES.every((c) => typeof record[c] === 'boolean')) return null;
  return {
    essential: true,
    functional: record.functional as boolean,
    analytics: record.analytics as boolean,
    marketing: record.marketing as boolean,
  };
}

export function samePreferences(a: CookiePreferences | null, b: CookiePreferences | null) {
  if (a === b) return true;
  if (!a || !b) return false;
  return CONSENT_CATEGORIES.every((c) => a[c] === b[c]);
}

export interface ConsentSnapshot {
  /** False until the person has made a choice (banner or preferences). */
  decided: boolean;
  preferences: CookiePreferences;
}

export interface ConsentStore {
  /** Stable until the next change (usable with useSyncExternalStore). */
  getSnapshot(): ConsentSnapshot;
  /** null forgets the choice (the banner will ask again). */
  setPreferences(preferences: CookiePreferences | null): void;
  subscribe(listener: () => void): () => void;
  hasConsent(category: ConsentCategory): boolean;
  /**
   * Runs fn once the category is accepted: now if it already is, otherwise on the change that
   * accepts it. Returns a function that cancels a pending run.
   */
  runWithConsent(category: ConsentCategory, fn: () => void): () => void;
}

export function createConsentStore(initial: CookiePreferences | null): ConsentStore {
  const snapshotOf = (p: CookiePreferences | null): ConsentSnapshot =>
    p
      ? { decided: true, preferences: { ...p, essential: true } }
      : { decided: false, preferences: { ...DEFAULT_PREFERENCES } };
  let snapshot = snapshotOf(initial);
  const listeners = new Set<() => void>();

  const hasConsent = (category: ConsentCategory) =>
    category === 'essential' || snapshot.preferences[category] === true;

  return {
    getSnapshot: () => snapshot,
    setPreferences(preferences) {
      const next = snapshotOf(preferences);
      if (
        next.decided === snapshot.decided &&
        samePreferences(next.preferences, snapshot.preferences)
      )
        return;
      snapshot = next;
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch (err) {
          // One failing consumer must not stop the others from hearing about the change.
          console.error(err);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hasConsent,
    runWithConsent(category, fn) {
      if (hasConsent(category)) {
        fn();
        return () => {};
      }
      const listener = () => {
        if (!hasConsent(category)) return;
        listeners.delete(listener);
        fn();
      };
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
