import type { TFunction } from '@web/lib/translator';
import type { NotificationView } from '@shared/notifications';
import { relativeTime } from '@shared/relativeTime';

/**
 * The words of a notification: `notifications.types.<type>` with the latest actor's name,
 * `others` (and `count`, for the plural forms: "Anna and 3 others"), every entry of its data, and
 * data's `context` as i18next's context (e.g. offer.answered_accepted). The e-mails use the same.
 */
export function notificationText(t: TFunction, n: NotificationView): string {
  const others = Math.max(0, n.actorCount - 1);
  const { context, ...data } = n.data;
  return t(`notifications.types.${n.type}`, {
    ...data,
    actor: n.actor?.displayName || t('notifications.someone'),
    others,
    count: others,
    ...(typeof context === 'string' ? { context } : {}),
  });
}

const UNITS = { minutes: 'minute', hours: 'hour', days: 'day' } as const;

export function whenText(t: TFunction, value: string, language: string, now = Date.now()) {
  const r = relativeTime(value, now);
  const locale = language.startsWith('en') ? 'en' : 'it';
  if (r.unit === 'now') return t('notifications.justNow');
  if (r.unit === 'date') return new Intl.DateTimeFormat(locale).format(new Date(value));
  return new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(-r.count, UNITS[r.unit]);
}
