import { formatMoney } from '@shared/money';

/** Price in the listing's currency, in the interface language ('10,00 €' / '€10.00'). */
export function formatPrice(price: number | null | undefined, currency: string, language: string) {
  return formatMoney(price, currency, language);
}
