import type { FastifyRequest } from 'fastify';
import type { ModerationAction } from '@shared/moderation';
import { notFound, unauthorized } from '../errors';
import type { ModerationQuery } from './registry';

/** Who took a moderation action (null: the command line). */
export interface Moderator {
  id: string;
  email: string;
}

export async function isAdmin(query: ModerationQuery, userId: string): Promise<boolean> {
  const rows = await query('select 1 from admins where user_id = $1', [userId]);
  return rows.length > 0;
}

/**
 * A route's preValidation for admin routes: 401 for visitors, 404 for members who are not admins
 * (as if the route were absent), checked before the input is, so a bad request reveals nothing.
 */
export const adminOnly = (query: ModerationQuery) => async (request: FastifyRequest) => {
  if (!request.user) throw unauthorized();
  if (!(await isAdmin(query, request.user.id))) throw notFound();
};

/** One row of the audit log (append-only: the table refuses UPDATE and DELETE). */
export async function writeModerationLog(
  query: ModerationQuery,
  actor: Moderator | null,
  action: ModerationAction,
  entry: { kind?: string | null; itemId?: string | null; targetUserId?: string | null },
  reason: string,
) {
  await query(
    `insert into moderation_log (actor_id, actor_email, action, kind, item_id, target_user_id, reason)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      actor?.id ?? null,
      actor?.email ?? null,
      action,
      entry.kind ?? null,
      entry.itemId ?? null,
      entry.targetUserId ?? null,
      reason,
    ],
  );
}
