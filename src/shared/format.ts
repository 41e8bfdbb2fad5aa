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

/** DD/MM/YYYY in Italian, MM/DD/YYYY in English. */
export function formatDate(value: Date | string | number, language: string): string {
  // A bare calendar date ('2025-09-28') is that day wherever the reader is, not UTC midnight.
  const bare = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = bare ? new Date(`${value}T00:00:00`) : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const yyyy = d.getFullYear();
  return language.startsWith('en') ? `${mm}/${dd}/${yyyy}` : `${dd}/${mm}/${yyyy}`;
}

/** '{page title} | Scaffale' or '{title} - {detail} | Scaffale'. */
export function pageTitle(title: string, detail?: string): string {
  return detail ? `${title} - ${detail} | Scaffale` : `${title} | Scaffale`;
}
