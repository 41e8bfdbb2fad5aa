// The notification centre's stored rows as the list reads them, and its keyset cursor.
import { isUuid } from '@shared/schemas/common';
import { badRequest } from '../errors';
import type { NotificationData } from './types';
import { toIso } from '../../db/rows';

export interface Row {
  id: string;
  type: string;
  actor_id: string | null;
  actor_count: number;
  subject_type: string;
  subject_id: string;
  data: NotificationData | string;
  read_at: Date | null;
  created_at: Date;
  updated_at: Date;
  actor_name: string | null;
  actor_username: string | null;
  actor_avatar: string | null;
}

export const parseData = (d: NotificationData | string): NotificationData =>
  typeof d === 'string' ? (JSON.parse(d) as NotificationData) : (d ?? {});

export const ROW_COLUMNS = `n.id, n.type, n.actor_id, n.actor_count, n.subject_type, n.subject_id,
  n.data, n.read_at, n.created_at, n.updated_at, u.display_name as actor_name,
  u.username::text as actor_username, u.avatar_url as actor_avatar`;

export function encodeCursor(row: Row): string {
  return Buffer.from(`${toIso(row.updated_at)}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || !isUuid(id) || Number.isNaN(Date.parse(at)))
    throw badRequest('notifications.errors.badCursor', {
      cursor: 'notifications.errors.badCursor',
    });
  return { at, id };
}
