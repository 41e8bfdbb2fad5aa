import { moneyLocale } from './intlLocale';

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
      moneyLocale(language),
      currency.toUpperCase(),
      options.whole ?? false,
    ).format(value);
  } catch {
    // Not a currency Intl knows: still the reader's digits, then the code.
    return `${value.toLocaleString(moneyLocale(language), { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
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

/** The decimal separator a reader of the language writes in an amount: "8,90" or "8.90". */
export function decimalSeparator(language: string | null | undefined): ',' | '.' {
  return moneyLocale(language).startsWith('it') ? ',' : '.';
}

/**
 * An amount as a money box shows it for editing: the reader's decimal separator, always two
 * decimals, no grouping and no currency ("8,90" in Italian, "8.90" in English). Nothing for no
 * amount.
 */
export function formatMoneyInput(
  amount: number | string | null | undefined,
  language: string | null | undefined,
): string {
  if (amount === null || amount === undefined || amount === '') return '';
  const value = Number(amount);
  if (!Number.isFinite(value)) return typeof amount === 'string' ? amount : '';
  const text = value.toFixed(2);
  return decimalSeparator(language) === ',' ? text.replace('.', ',') : text;
}

/** What a person may type around the digits: spaces, a currency sign or code. */
const MONEY_NOISE = /[\s\u00a0\u202f€$£]|eur|usd|gbp/gi;

/**
 * An amount typed, pasted or autofilled in a money box, read as the reader means it: `null` when
 * empty, `NaN` when it is not an amount. Either separator is understood:
 * - both present: the last is the decimal one, the other groups thousands ("1.234,50" and
 *   "1,234.50" are 1234.5 in any language);
 * - one, followed by one or two digits (or none, still typing): decimal ("6,50" and "6.50" are
 *   six and a half in any language);
 * - one, followed by three digits: the reader's thousands separator groups ("1.234" in Italian,
 *   "1,234" in English are 1234); the other is a decimal one, so the amount has three decimals and
 *   the form says "at most two decimals" instead of guessing;
 * - the same one more than once: thousands ("1.234.567").
 * A leading minus is kept, for the form to refuse a negative amount with its own message.
 */
export function parseMoney(text: string, language: string | null | undefined): number | null {
  const cleaned = text.replace(MONEY_NOISE, '');
  if (cleaned === '') return null;
  const match = /^(-?)([\d.,]+)$/.exec(cleaned);
  if (!match) return Number.NaN;
  const [, sign, body] = match;
  const lastDot = body.lastIndexOf('.');
  const lastComma = body.lastIndexOf(',');
  let whole: string;
  let cents = '';
  if (lastDot >= 0 && lastComma >= 0) {
    const decimalAt = Math.max(lastDot, lastComma);
    const group = decimalAt === lastDot ? ',' : '.';
    whole = body.slice(0, decimalAt);
    cents = body.slice(decimalAt + 1);
    if (!validGroups(whole, group)) return Number.NaN;
    whole = whole.split(group).join('');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const parts = body.split(separator);
    if (parts.length > 2) {
      if (!validGroups(body, separator)) return Number.NaN;
      whole = parts.join('');
    } else {
      const [before, after] = parts;
      const groups = separator !== decimalSeparator(language);
      if (after.length === 3 && groups && before !== '' && validGroups(body, separator)) {
        whole = before + after;
      } else {
        whole = before;
        cents = after;
      }
    }
  } else {
    whole = body;
  }
  if (whole === '' && cents === '') return Number.NaN;
  const value = Number(`${sign}${whole || '0'}.${cents || '0'}`);
  return Number.isFinite(value) ? value : Number.NaN;
}

/** "1.234.567" groups by thousands: a first group of 1 to 3 digits, then groups of exactly 3. */
function validGroups(text: string, separator: string): boolean {
  const groups = text.split(separator);
  return /^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

/**
 * Above this a price asks "are you sure?" before it is published (a slip of the keyboard that
 * would put a paperback on sale at 650 €); the rule still allows it up to MAX_PRICE.
 */
export const PRICE_CONFIRM_ABOVE = 500;

/**
 * Whether a price is far enough from the usual to ask before publishing: over the ceiling, or
 * more than five times the usual price for the book when one is known.
 */
export function priceNeedsConfirmation(
  price: number | null | undefined,
  usual?: number | null,
): boolean {
  if (price === null || price === undefined || !Number.isFinite(price)) return false;
  if (price > PRICE_CONFIRM_ABOVE) return true;
  return typeof usual === 'number' && usual > 0 && price > usual * 5;
}
