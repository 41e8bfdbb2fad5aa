import { loaders } from 'virtual:locale-loaders';
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_STORAGE_KEY } from '@shared/constants';
import { setBrowserLanguages } from '@shared/intlLocale';
import type { LocaleGroup } from './localeGroups';
import { languageDetector } from './languageDetector';
import { createTranslator } from './translator';

// Only the language in use is downloaded: its core catalogue at start, and the other groups
// (see localeGroups.ts) when a page or a lazily loaded component asks for them. A language
// switch loads the new language's core and every group asked for so far (`load` below).
const requestedGroups = new Set<LocaleGroup>();

async function loadCatalogue(language: string, groups: string[]): Promise<Record<string, unknown>> {
  const forLanguage = loaders[language];
  if (!forLanguage) throw new Error(`no catalogue for ${language}`);
  const parts = await Promise.all(groups.map((g) => forLanguage[g]()));
  return Object.assign({}, ...parts.map((p) => p.default));
}

// Dates and times follow the browser's region (en-GB: day first) whatever the interface language.
if (typeof navigator !== 'undefined') setBrowserLanguages(navigator.languages);

// Language detection order: the stored choice, then the browser, then <html lang>.
const detector = languageDetector(LANGUAGE_STORAGE_KEY);

// Our own translator (lib/translator.ts over @shared/translator, decisions 0029 and 0048): Italian
// for a browser speaking neither language; English needs no fallback (a test keeps both
// catalogues complete), so an English page does not download the Italian one too.
const i18n = createTranslator({
  supported: LANGUAGES,
  fallback: DEFAULT_LANGUAGE,
  detect: () => detector.detect(),
  remember: (language) => detector.cacheUserLanguage(language),
  load: (language) => loadCatalogue(language, ['core', ...requestedGroups]),
});

/** Fetches lazy locale groups for every language already loaded (a later switch keeps them). */
export async function loadLocaleGroups(groups: readonly LocaleGroup[]): Promise<void> {
  const fresh = groups.filter((g) => !requestedGroups.has(g));
  if (!fresh.length) return;
  fresh.forEach((g) => requestedGroups.add(g));
  // Also a language whose catalogue is on its way (a first visit straight to such a page).
  const languages = LANGUAGES.filter((l) => i18n.hasResourceBundle(l) || i18n.isLoading(l));
  try {
    await Promise.all(
      languages.map(async (l) => {
        const data = await loadCatalogue(l, fresh);
        i18n.addResourceBundle(l, 'translation', data);
      }),
    );
  } catch (error) {
    // Not fetched (offline, a deploy): asked for again next time (the page's Retry).
    fresh.forEach((g) => requestedGroups.delete(g));
    throw error;
  }
}
/**
 * A lazily loaded module together with the locale groups it shows (both fetched at once), for a
 * component the shell or a page loads on demand: `lazy(() => withLocaleGroups(['ads'], () =>
 * import('./SponsoredCard')))`. Keep this shape: localeGroups.test.ts reads it from the source.
 */
export function withLocaleGroups<T>(
  groups: readonly LocaleGroup[],
  load: () => Promise<T>,
): Promise<T> {
  return Promise.all([load(), loadLocaleGroups(groups)]).then(([mod]) => mod);
}

function applyHtmlLang(language: string | undefined) {
  if (language && typeof document !== 'undefined')
    document.documentElement.lang = language.split('-')[0];
}
i18n.on('languageChanged', applyHtmlLang);
applyHtmlLang(i18n.resolvedLanguage ?? i18n.language);

export default i18n;

export function currentLanguage(): 'it' | 'en' {
  return (i18n.resolvedLanguage ?? i18n.language ?? DEFAULT_LANGUAGE).startsWith('en')
    ? 'en'
    : 'it';
}
