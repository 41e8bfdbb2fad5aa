import type { TFunction } from '@web/lib/translator';
import { formatDate } from '@shared/format';
import { intlLocale } from '@shared/intlLocale';
import { relativeTime } from '@shared/relativeTime';
import type { ChatUser, Room } from './types';

/** The other members of a room (all of them but me). */
export const othersIn = (room: Room, meId: string): ChatUser[] =>
  room.participants.filter((p) => p.id !== meId);

/**
 * A direct room is named after the other member; a group by its name; and either, with nothing
 * to show, 'User {first 8 characters of the id}...'.
 */
export function roomName(room: Room, meId: string, t: TFunction): string {
  const other = room.isGroup ? undefined : othersIn(room, meId)[0];
  if (other?.deleted) return t('members.deleted');
  const named = room.isGroup ? room.name : (other?.displayName ?? room.name);
  return named?.trim() || t('chats.unnamed', { id: room.id.slice(0, 8) });
}

/** A member's name as chats show it: "Deleted member" once they deleted their account. */
export const memberName = (user: { displayName: string; deleted?: boolean }, t: TFunction) =>
  user.deleted ? t('members.deleted') : user.displayName;

/** A direct conversation whose other member deleted their account takes no new message. */
export const withDeletedMember = (room: Room, meId: string) =>
  !room.isGroup && othersIn(room, meId).some((p) => p.deleted);

const UNITS = { minutes: 'minute', hours: 'hour', days: 'day' } as const;

/** 'just now', '5 minutes ago', '3 hours ago', '2 days ago' (Intl words the plurals), or the date. */
export function formatRelative(value: string, t: TFunction, language: string, now = Date.now()) {
  const r = relativeTime(value, now);
  if (r.unit === 'now') return t('chats.time.now');
  if (r.unit === 'date') return formatDate(value, language);
  const locale = intlLocale(language);
  return new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(-r.count, UNITS[r.unit]);
}

/** 'Online', 'Last seen 5 minutes ago', 'Last seen on 03/02/2026', or 'Offline'. */
export function presenceText(
  presence: { online: boolean; lastSeenAt: string | null },
  t: TFunction,
  language: string,
  now = Date.now(),
): string {
  if (presence.online) return t('chats.presence.online');
  if (!presence.lastSeenAt) return t('chats.presence.offline');
  const r = relativeTime(presence.lastSeenAt, now);
  if (r.unit === 'date')
    return t('chats.presence.lastSeenOn', { date: formatDate(presence.lastSeenAt, language) });
  return t('chats.presence.lastSeen', {
    when: formatRelative(presence.lastSeenAt, t, language, now),
  });
}
