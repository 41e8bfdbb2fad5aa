import { DEFAULT_LANGUAGE, isLanguage, type Language } from './constants';

/**
 * The locale every Intl formatter is built with (numbers, dates, times, relative times), one per
 * interface language, with the reader's region for English:
 * - Italian: it-IT, dates 01/05/2026.
 * - English: the region of the interface language ('en-GB') or else of the browser's first English
 *   language (`setBrowserLanguages`, from navigator.languages), so an en-GB reader sees 1/5/2026
 *   for 1 May while the interface stays in English; en-US where no region is known.
 * Money keeps one locale per language (`moneyLocale`): en-GB would write dollars "US$7.50" where
 * the pages say "$7.50".
 */
const INTL_LOCALES: Record<Language, string> = { it: 'it-IT', en: 'en-US' };

let browserLanguages: readonly string[] = [];

/** The browser's languages, best first (the web app passes navigator.languages at start). */
export function setBrowserLanguages(languages: readonly string[] | null | undefined): void {
  browserLanguages = Array.isArray(languages) ? languages.filter((l) => typeof l === 'string') : [];
}

const REGIONAL = /^([a-z]{2})-([a-z]{2})$/i;

function baseOf(language: string | null | undefined): Language {
  const base = (language ?? '').split('-')[0].toLowerCase();
  return isLanguage(base) ? base : DEFAULT_LANGUAGE;
}

export function intlLocale(language: string | null | undefined): string {
  const base = baseOf(language);
  if (base !== 'en') return INTL_LOCALES[base];
  for (const candidate of [language ?? '', ...browserLanguages]) {
    const m = REGIONAL.exec(candidate);
    if (m && m[1].toLowerCase() === 'en') return `en-${m[2].toUpperCase()}`;
  }
  return INTL_LOCALES.en;
}

/** The locale money is written in: one per interface language, whatever the region. */
export function moneyLocale(language: string | null | undefined): string {
  return INTL_LOCALES[baseOf(language)];
}
