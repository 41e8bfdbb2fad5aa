/** Where the detector looks; the browser's by default, plain values in tests. */
export interface LanguageSources {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  navigator: { languages?: readonly string[]; language?: string } | null;
  htmlLang: () => string | null;
}

function browserSources(): LanguageSources {
  let storage: Storage | null;
  try {
    // Reading localStorage throws when storage is blocked (privacy settings, sandboxed frames).
    storage = typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    storage = null;
  }
  return {
    storage,
    navigator: typeof navigator === 'undefined' ? null : navigator,
    htmlLang: () =>
      typeof document === 'undefined' ? null : document.documentElement.getAttribute('lang'),
  };
}

/** Language codes only: nothing that could break out of `<html lang="...">`. */
const safeCode = /^[A-Za-z0-9_@.-]{1,128}$/;

/** What the translator (lib/translator.ts) asks of a detector. */
export interface LanguageDetector {
  /** Candidate languages, best first; the translator takes the first supported one. */
  detect(): string[];
  /** Remembers the language chosen. */
  cacheUserLanguage(language: string): void;
}

/**
 * Language detection order: the stored choice, then the browser's languages, then `<html lang>`;
 * the choice is stored on every change. Ours, of about 40 lines; it replaced
 * i18next-browser-languagedetector, of which only these three sources were used.
 */
export function languageDetector(
  storageKey: string,
  sources: () => LanguageSources = browserSources,
): LanguageDetector {
  const read = (storage: LanguageSources['storage']) => {
    try {
      return storage?.getItem(storageKey) ?? null;
    } catch {
      return null;
    }
  };
  return {
    detect() {
      const { storage, navigator: nav, htmlLang } = sources();
      const candidates = [read(storage), ...(nav?.languages ?? []), nav?.language, htmlLang()];
      return candidates.filter(
        (c): c is string => typeof c === 'string' && safeCode.test(c) && !c.includes('..'),
      );
    },
    cacheUserLanguage(language: string) {
      try {
        sources().storage?.setItem(storageKey, language);
      } catch {
        // Storage full or blocked: the choice lasts for this visit only.
      }
    },
  };
}
