import { intlLocale } from '@shared/intlLocale';

/** A moment as a date and time in the reader's language. */
export const formatWhen = (iso: string, language: string) =>
  new Date(iso).toLocaleString(intlLocale(language), { dateStyle: 'medium', timeStyle: 'short' });
