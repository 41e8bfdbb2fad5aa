import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_STORAGE_KEY } from '@shared/constants';

// Only the language in use is downloaded; each catalogue is its own chunk.
const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*.json');

i18n
  .use({
    type: 'backend',
    read(language: string, _namespace: string, callback: (err: unknown, data?: unknown) => void) {
      const load = catalogues[`../locales/${language}.json`];
      if (!load) return callback(new Error(`no catalogue for ${language}`));
      load().then(
        (mod) => callback(null, mod.default),
        (err) => callback(err),
      );
    },
  })
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    supportedLngs: [...LANGUAGES],
    fallbackLng: DEFAULT_LANGUAGE,
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    detection: {
      // The spec's order: the stored choice, then the browser, then <html lang>.
      order: ['localStorage', 'navigator', 'htmlTag'],
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      caches: ['localStorage'],
    },
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

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
