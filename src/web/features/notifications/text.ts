import type { TFunction } from '@web/lib/translator';
import { relativeTime } from '@shared/relativeTime';
import { intlLocale } from '@shared/intlLocale';

/** The words of a notification: the same code as the e-mail digest's (`@shared/notificationText`). */
export { notificationText } from '@shared/notificationText';

const UNITS = { minutes: 'minute', hours: 'hour', days: 'day' } as const;

export function whenText(t: TFunction, value: string, language: string, now = Date.now()) {
  const r = relativeTime(value, now);
  const locale = intlLocale(language);
  if (r.unit === 'now') return t('notifications.justNow');
  if (r.unit === 'date') return new Intl.DateTimeFormat(locale).format(new Date(value));
  return new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(-r.count, UNITS[r.unit]);
}
