import { DEFAULT_LANGUAGE, isLanguage, type Language } from './constants';

/**
 * The locale every Intl formatter is built with (numbers, money, dates, times, relative times),
 * one per interface language whatever region the browser adds ('en-GB' reads as English):
 * - Italian: it-IT, money "7,50 €", dates 01/05/2026.
 * - English: en-US, money "€7.50", dates 5/1/2026 and times "1:05 PM": English dates are
 *   month-first (as formatDate). en-GB and en-IE also write "€7.50" but put the day first,
 *   and en-GB writes dollars "US$7.50" where the pages say "$7.50".
 */
const INTL_LOCALES: Record<Language, string> = { it: 'it-IT', en: 'en-US' };

export function intlLocale(language: string | null | undefined): string {
  const base = (language ?? '').split('-')[0].toLowerCase();
  return INTL_LOCALES[isLanguage(base) ? base : DEFAULT_LANGUAGE];
}
