/** Price in the listing's currency, in the interface language ('10,00 €' / '€10.00'). */
export function formatPrice(price: number | null | undefined, currency: string, language: string) {
  if (price === null || price === undefined) return '';
  try {
    return new Intl.NumberFormat(language.startsWith('en') ? 'en-US' : 'it-IT', {
      style: 'currency',
      currency,
    }).format(price);
  } catch {
    return `${price.toFixed(2)} ${currency}`;
  }
}
