import { intlLocale } from '@shared/intlLocale';

/** A join for editing a list field as comma-separated text. */
export function joinList(items: readonly string[] | null | undefined): string {
  return (items ?? []).join(', ');
}

/** A percentage already computed (e.g. 33.33) with 2 decimals: "33.33%", "33,33%". */
export function formatPercent(value: number, language: string): string {
  return `${value.toLocaleString(intlLocale(language), { minimumFractionDigits: 2, maximumFractionDigits: 2 })}%`;
}
