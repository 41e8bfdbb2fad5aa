import { formatMoney } from '@shared/money';
import { intlLocale } from '@shared/intlLocale';

/** "5% of books and shipping plus €0.70" in the reader's language. */
export function feeRate(
  fee: { percent: number; fixedCents: number },
  currency: string,
  lang: string,
) {
  return {
    percent: fee.percent.toLocaleString(intlLocale(lang), { maximumFractionDigits: 2 }),
    fixed: formatMoney(fee.fixedCents / 100, currency, lang),
  };
}
