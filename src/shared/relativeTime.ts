/**
 * Relative time: just now under a minute, minutes under 60, hours under 24, days under 7, otherwise
 * a date. Pure: the caller words it in its language.
 */
export type RelativeTime =
  { unit: 'now' } | { unit: 'minutes' | 'hours' | 'days'; count: number } | { unit: 'date' };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function relativeTime(
  value: Date | string | number,
  now: number = Date.now(),
): RelativeTime {
  const at = new Date(value).getTime();
  if (Number.isNaN(at)) return { unit: 'date' };
  // A clock slightly ahead of ours is still "just now", never "in 2 minutes".
  const elapsed = Math.max(0, now - at);
  if (elapsed < MINUTE) return { unit: 'now' };
  if (elapsed < HOUR) return { unit: 'minutes', count: Math.floor(elapsed / MINUTE) };
  if (elapsed < DAY) return { unit: 'hours', count: Math.floor(elapsed / HOUR) };
  if (elapsed < 7 * DAY) return { unit: 'days', count: Math.floor(elapsed / DAY) };
  return { unit: 'date' };
}
