import { intlLocale } from './intlLocale';

// One formatter per locale, currency and precision: building an Intl.NumberFormat costs far more
// than using one, and a page formats the price of every card it shows.
const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(locale: string, currency: string, whole: boolean): Intl.NumberFormat {
  const key = `${locale} ${currency} ${whole ? 0 : 2}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * An amount in a currency (ISO 4217), written as a reader of the language expects: "7,50 €" in
 * Italian, "€7.50" in English (`intlLocale`). `whole` drops the cents (counters, slider bounds).
 * Every place money becomes text goes through here: pages, notifications, e-mails, page heads.
 * No amount (null, undefined, not a number) reads as nothing.
 */
export function formatMoney(
  amount: number | string | null | undefined,
  currency: string,
  language: string | null | undefined,
  options: { whole?: boolean } = {},
): string {
  if (amount === null || amount === undefined || amount === '') return '';
  const value = Number(amount);
  if (!Number.isFinite(value)) return '';
  try {
    return formatterFor(
      intlLocale(language),
      currency.toUpperCase(),
      options.whole ?? false,
    ).format(value);
  } catch {
    // Not a currency Intl knows: still the reader's digits, then the code.
    return `${value.toLocaleString(intlLocale(language), { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
  }
}

/** "15.00 EUR", as offer notifications stored their amount before they stored the number. */
const LEGACY_AMOUNT = /^\s*(-?\d+(?:\.\d+)?)\s+([A-Za-z]{3})\s*$/;

/**
 * Money kept in data (a notification's): the number and its currency, formatted now in the
 * reader's language. An amount stored already written ("15.00 EUR") is read back and written
 * again; any other text is shown as it is.
 */
export function storedMoney(
  amount: unknown,
  currency: unknown,
  language: string | null | undefined,
): string {
  if (typeof amount === 'number') {
    return typeof currency === 'string' && currency ? formatMoney(amount, currency, language) : '';
  }
  if (typeof amount !== 'string') return '';
  const legacy = LEGACY_AMOUNT.exec(amount);
  return legacy ? formatMoney(legacy[1], legacy[2], language) : amount;
}
