import { intlLocale } from '@shared/intlLocale';

// One formatter per locale and currency: building an Intl.NumberFormat costs far more than using
// one, and a page formats the price of every card it shows.
const formatters = new Map<string, Intl.NumberFormat>();

/** Price in the listing's currency, in the interface language ('10,00 €' / '€10.00'). */
export function formatPrice(price: number | null | undefined, currency: string, language: string) {
  if (price === null || price === undefined) return '';
  const locale = intlLocale(language);
  const key = `${locale} ${currency}`;
  try {
    let formatter = formatters.get(key);
    if (!formatter) {
      formatter = new Intl.NumberFormat(locale, { style: 'currency', currency });
      formatters.set(key, formatter);
    }
    return formatter.format(price);
  } catch {
    return `${price.toFixed(2)} ${currency}`;
  }
}
