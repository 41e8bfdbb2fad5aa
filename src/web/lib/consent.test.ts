import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_PREFERENCES,
  createConsentStore,
  parsePreferences,
  preferencesFromCategories,
} from './consent';

const none = { essential: true, functional: false, analytics: false, marketing: false };

describe('consent store', () => {
  it('before any choice follows the defaults: essential and functional on, the rest off', () => {
    const store = createConsentStore(null);
    expect(store.getSnapshot()).toEqual({ decided: false, preferences: DEFAULT_PREFERENCES });
    expect(store.hasConsent('essential')).toBe(true);
    expect(store.hasConsent('functional')).toBe(true);
    expect(store.hasConsent('analytics')).toBe(false);
    expect(store.hasConsent('marketing')).toBe(false);
  });

  it('essential stays on whatever is stored', () => {
    const store = createConsentStore({ ...none, essential: false });
    expect(store.hasConsent('essential')).toBe(true);
    expect(store.getSnapshot().preferences.essential).toBe(true);
  });

  it('runWithConsent does not run analytics code until analytics is accepted, then runs it once', () => {
    const store = createConsentStore(null);
    const fn = vi.fn();
    store.runWithConsent('analytics', fn);
    expect(fn).not.toHaveBeenCalled();
    store.setPreferences({ ...none, functional: true });
    expect(fn).not.toHaveBeenCalled();
    store.setPreferences({ ...none, analytics: true });
    expect(fn).toHaveBeenCalledTimes(1);
    store.setPreferences(none);
    store.setPreferences({ ...none, analytics: true, marketing: true });
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('runWithConsent runs at once when the category is already accepted', () => {
    const store = createConsentStore({ ...none, marketing: true });
    const fn = vi.fn();
    store.runWithConsent('marketing', fn);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('a cancelled runWithConsent never runs', () => {
    const store = createConsentStore(null);
    const fn = vi.fn();
    const cancel = store.runWithConsent('marketing', fn);
    cancel();
    store.setPreferences({ ...none, marketing: true });
    expect(fn).not.toHaveBeenCalled();
  });

  it('notifies subscribers only on real changes and keeps the snapshot stable otherwise', () => {
    const store = createConsentStore(null);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const before = store.getSnapshot();
    store.setPreferences(null);
    expect(listener).not.toHaveBeenCalled();
    expect(store.getSnapshot()).toBe(before);
    // The defaults chosen explicitly are a decision: that is a change.
    store.setPreferences({ ...DEFAULT_PREFERENCES });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().decided).toBe(true);
    unsubscribe();
    store.setPreferences(none);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('a throwing listener does not stop the others', () => {
    const store = createConsentStore(null);
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fn = vi.fn();
    store.subscribe(() => {
      throw new Error('boom');
    });
    store.runWithConsent('analytics', fn);
    store.setPreferences({ ...none, analytics: true });
    expect(fn).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});

describe('stored preferences', () => {
  it('parse the localStorage mirror', () => {
    expect(
      parsePreferences('{"essential":true,"functional":false,"analytics":true,"marketing":false}'),
    ).toEqual({ essential: true, functional: false, analytics: true, marketing: false });
  });

  it('treat missing or malformed values as no choice', () => {
    expect(parsePreferences(null)).toBeNull();
    expect(parsePreferences('')).toBeNull();
    expect(parsePreferences('not json')).toBeNull();
    expect(parsePreferences('[]')).toBeNull();
    expect(parsePreferences('{"functional":true,"analytics":"yes","marketing":false}')).toBeNull();
  });

  it('come from the accepted categories of the consent tool', () => {
    expect(preferencesFromCategories(['essential', 'analytics'])).toEqual({
      essential: true,
      functional: false,
      analytics: true,
      marketing: false,
    });
    expect(preferencesFromCategories([])).toEqual(none);
  });
});
