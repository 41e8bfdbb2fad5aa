import { z } from 'zod';
import type { ChatMessage } from '@shared/schemas/chats';
import { UUID_PATTERN } from '@shared/schemas/common';
import { AppError, conflict } from '../../platform/errors';
import { termsRequired } from '../../platform/auth';
import { accessDenied, cannotMessage } from './context';
import { toSentMessage, type SentMessageRow } from './queries';

/**
 * Messages a member may send in a minute by HTTP (the budget the route had from
 * @fastify/rate-limit, counted in the sending statement itself, in `rate_limits`, so every
 * process shares it).
 */
export const CHAT_SENDS_PER_MINUTE = 120;
/**
 * Socket sends spend a budget in the process's memory instead (docs/decisions/0077): the same
 * 120 a minute, refilled continuously, and at most this many at once.
 */
export const SOCKET_SEND_BURST = 30;
/** Socket sends stored by one statement at most (a batch waits for the one before it). */
export const SEND_BATCH_MAX = 200;
export const WINDOW_MS = 60_000;
/** A send that met a twin committing at the same instant runs again (it then finds the twin). */
export const ATTEMPTS = 3;

export interface CheckedRow extends Partial<SentMessageRow> {
  existing_id: string | null;
  existing_room_id: string | null;
  participant: boolean;
  closed: boolean;
  /** The sender has not accepted the terms yet (platform/auth.ts's gate). */
  needs_terms: boolean;
  audience: string[] | null;
}

/** What a send did: stored the message now, or found it stored by an earlier try. */
export interface SendResult {
  message: ChatMessage;
  created: boolean;
  /** Who gets the chat.message event (the room's participants, the sender too). */
  audience: string[];
}

/** A client-made message id: a UUID (any case; stored as a uuid, so case does not matter). */
export const clientIdField = () =>
  z
    .string({ error: 'chatApi.validation.clientIdInvalid' })
    .regex(UUID_PATTERN, { error: 'chatApi.validation.clientIdInvalid' });

/** Same sender, same client id, another room: a client bug or a forged frame, never a retry. */
export const clientIdReused = () => conflict('chatApi.errors.clientIdReused');

/**
 * What a checked row says, in the route's order: stored before (the same room, or 409), not a
 * participant (403), closed by a block (403), stored now; null when the insert met a twin that
 * committed after the statement began (it is not visible yet: the next run finds it).
 */
export function outcomeOf(
  row: CheckedRow,
  roomId: string,
): { existing: string } | { result: SendResult } | AppError | null {
  if (row.existing_id) {
    if (row.existing_room_id !== roomId) return clientIdReused();
    return { existing: row.existing_id };
  }
  if (!row.participant) return accessDenied();
  if (row.needs_terms) return termsRequired();
  if (row.closed) return cannotMessage();
  if (row.id)
    return {
      result: {
        message: toSentMessage(row as SentMessageRow),
        created: true,
        audience: row.audience ?? [],
      },
    };
  return null;
}
