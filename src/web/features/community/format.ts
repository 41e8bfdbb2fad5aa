import type { TFunction } from '@web/lib/translator';
import { formatDate } from '@shared/format';
import { intlLocale } from '@shared/intlLocale';
import { relativeTime } from '@shared/relativeTime';

const UNITS = { minutes: 'minute', hours: 'hour', days: 'day' } as const;

/** 'just now', '5 minutes ago', '3 hours ago', '2 days ago', or the date from 7 days. */
export function formatWhen(value: string, t: TFunction, language: string, now = Date.now()) {
  const r = relativeTime(value, now);
  if (r.unit === 'now') return t('community.time.now');
  if (r.unit === 'date') return formatDate(value, language);
  const locale = intlLocale(language);
  return new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(-r.count, UNITS[r.unit]);
}

/** The sign-in page, coming back to `back` afterwards. */
export const loginPath = (back: string) => `/login?redirect_to=${encodeURIComponent(back)}`;
