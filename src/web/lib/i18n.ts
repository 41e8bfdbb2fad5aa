import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loaders } from 'virtual:locale-loaders';
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_STORAGE_KEY } from '@shared/constants';
import type { LocaleGroup } from './localeGroups';
import { languageDetector } from './languageDetector';

// Only the language in use is downloaded: its core catalogue at start, and the lazy groups
// (see localeGroups.ts) when a page asks for them.
const requestedGroups = new Set<LocaleGroup>();

async function loadCatalogue(language: string, groups: string[]): Promise<Record<string, unknown>> {
  const forLanguage = loaders[language];
  if (!forLanguage) throw new Error(`no catalogue for ${language}`);
  const parts = await Promise.all(groups.map((g) => forLanguage[g]()));
  return Object.assign({}, ...parts.map((p) => p.default));
}

i18n
  .use({
    type: 'backend',
    read(language: string, _namespace: string, callback: (err: unknown, data?: unknown) => void) {
      loadCatalogue(language, ['core', ...requestedGroups]).then(
        (data) => callback(null, data),
        (err) => callback(err),
      );
    },
  })
  // The spec's order: the stored choice, then the browser, then <html lang>.
  .use(languageDetector(LANGUAGE_STORAGE_KEY))
  .use(initReactI18next)
  .init({
    supportedLngs: [...LANGUAGES],
    // Italian for a browser speaking neither language; English needs no fallback (a test keeps
    // both catalogues complete), so an English page no longer downloads the Italian one too.
    fallbackLng: { en: [], default: [DEFAULT_LANGUAGE] },
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

/** Fetches lazy locale groups for every language already loaded (a later switch keeps them). */
export async function loadLocaleGroups(groups: readonly LocaleGroup[]): Promise<void> {
  const fresh = groups.filter((g) => !requestedGroups.has(g));
  if (!fresh.length) return;
  fresh.forEach((g) => requestedGroups.add(g));
  const languages = LANGUAGES.filter((l) => i18n.hasResourceBundle(l, 'translation'));
  await Promise.all(
    languages.map(async (l) => {
      const data = await loadCatalogue(l, fresh);
      i18n.addResourceBundle(l, 'translation', data, true, true);
    }),
  );
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
