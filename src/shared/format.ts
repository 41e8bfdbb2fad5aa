import { intlLocale } from './intlLocale';

/**
 * Home counters: one decimal and M from a million, one decimal and K from a thousand, plain below.
 * Missing or invalid counts are 0.
 */
export function formatCounter(value: number | null | undefined): string {
  const n =
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}K`;
  return String(n);
}

/**
 * DD/MM/YYYY in Italian; in English the order of the reader's region (intlLocale): MM/DD/YYYY
 * in the US and where no region is known, DD/MM/YYYY for en-GB and most others.
 */
export function formatDate(value: Date | string | number, language: string): string {
  // A bare calendar date ('2025-09-28') is that day wherever the reader is, not UTC midnight.
  const bare = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = bare ? new Date(`${value}T00:00:00`) : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  if (language.toLowerCase().startsWith('en')) {
    return new Intl.DateTimeFormat(intlLocale(language), {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).format(d);
  }
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${d.getFullYear()}`;
}

/** A number with a fixed count of decimals as the reader writes it: "4,7" in Italian, "4.7" in English. */
export function formatDecimal(value: number, language: string, digits = 1): string {
  return value.toLocaleString(intlLocale(language), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** '{page title} | Scaffale' or '{title} - {detail} | Scaffale'. */
export function pageTitle(title: string, detail?: string): string {
  return detail ? `${title} - ${detail} | Scaffale` : `${title} | Scaffale`;
}
