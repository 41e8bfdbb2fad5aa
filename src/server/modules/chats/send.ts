import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { isLanguage, type Language } from '@shared/constants';
import { sendMessageSchema, type ChatMessage } from '@shared/schemas/chats';
import { UUID_PATTERN } from '@shared/schemas/common';
import type { Query } from '../../db/tx';
import { AppError, badRequest, conflict, validationFailed } from '../../platform/errors';
import { hasKey, t } from '../../platform/i18n';
import { blockedBetween } from '../../platform/moderation';
import { roomWithDeletedMember } from '../../platform/moderation/members';
import { rateLimited, TokenBuckets } from '../../platform/rate-limits';
import { countAttemptSql, storedKey } from '../../platform/rate-limits-store';
import type { Realtime } from '../../platform/realtime';
import { findUnstorableText, invalidCharacters } from '../../platform/text-input';
import { accessDenied, cannotMessage, type ChatContext } from './context';
import { messageEvent } from './events';
import { findMessage, isUuid, toSentMessage, type SentMessageRow } from './queries';

/**
 * Messages a member may send in a minute, over the socket and HTTP together (the budget the
 * route had from @fastify/rate-limit, now counted in the sending statement itself).
 */
export const CHAT_SENDS_PER_MINUTE = 120;
/**
 * Socket sends spend a budget in the process's memory instead (docs/decisions/0077): the same
 * 120 a minute, refilled continuously, and at most this many at once.
 */
export const SOCKET_SEND_BURST = 30;
const WINDOW_MS = 60_000;
/** A send that met a twin committing at the same instant runs again (it then finds the twin). */
const ATTEMPTS = 3;

/**
 * One statement stores a text message, docs/decisions/0065: it finds an earlier message of the
 * same sender and client id, counts the send in the member's rate limit, checks that the sender
 * is a participant and that no block (nor a deleted member) closes a direct room, inserts the
 * message (a twin of the same client id committing meanwhile makes it insert nothing), moves the
 * room up the list, and answers the stored message with its sender and the room's participants.
 * $1 room, $2 sender, $3 content, $4 client id or null, $5 rate key, $6 now, $7 window (ms), $8 max.
 */
const sendSql = (counted: boolean) => `with existing as (
    select m.id, m.room_id from chat_messages m where m.sender_id = $2 and m.client_id = $4::uuid),
  rl as (${
    counted
      ? countAttemptSql({
          key: '$5',
          now: '$6',
          windowMs: '$7',
          when: 'not exists (select 1 from existing)',
        })
      : 'select $5::int as count, $6::bigint as reset_at, $7::bigint as window_ms'
  }),
  facts as (select
    exists (select 1 from chat_participants where room_id = $1 and user_id = $2) as participant,
    -- Nobody writes in a direct conversation whose other member deleted their account or when a
    -- block stands between its two members (group conversations are not affected).
    exists (select 1 from chat_rooms dr where dr.id = $1 and not dr.is_group and (
      ${roomWithDeletedMember('$1')}
      or exists (select 1 from chat_participants bp where bp.room_id = $1 and bp.user_id <> $2
        and ${blockedBetween('$2', 'bp.user_id')}))) as closed),
  ins as (
    insert into chat_messages (room_id, sender_id, type, content, client_id)
    select $1, $2, 'text', $3, $4::uuid from facts, rl
    where facts.participant and not facts.closed and (rl.count is null or rl.count <= $8)
    on conflict (sender_id, client_id) do nothing
    returning id, room_id, sender_id, type, content, created_at),
  bump as (
    update chat_rooms r set updated_at = greatest(r.updated_at, ins.created_at)
    from ins where r.id = ins.room_id returning r.id)
  select e.id as existing_id, e.room_id as existing_room_id, f.participant, f.closed,
    rl.count as rate_count, rl.reset_at as rate_reset_at,
    ins.id, ins.room_id, ins.sender_id, ins.type, ins.content, ins.created_at,
    u.display_name as s_display_name, coalesce(u.display_username, u.username::text) as s_username,
    u.avatar_url as s_avatar_url, u.last_seen_at as s_last_seen_at,
    u.account_status = 'deleted' as s_deleted,
    array(select p.user_id from chat_participants p where p.room_id = $1) as audience
  from facts f
  left join existing e on true
  left join rl on true
  left join ins on true
  left join users u on u.id = $2`;
const SEND_SQL = sendSql(true);
/** Socket sends: the member's budget is the frame handler's, in memory (docs/decisions/0077). */
const SOCKET_SEND_SQL = sendSql(false);

interface SendRow extends Partial<SentMessageRow> {
  existing_id: string | null;
  existing_room_id: string | null;
  participant: boolean;
  closed: boolean;
  rate_count: number | null;
  rate_reset_at: string | number | null;
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

/** Sending a text message, by HTTP or by a socket frame: the same rules and the same statement. */
export function sendActions(ctx: ChatContext) {
  const { query, orFail, publish, afterCommit, deps } = ctx;
  return {
    /**
     * Stores the message once for this sender and client id, however often it is sent; refuses
     * as the HTTP route does (403, 429). The content is already checked (trimmed, 1 to 4,000).
     */
    async send(
      userId: string,
      roomId: string,
      content: string,
      clientId: string | null,
      counted = true,
    ): Promise<SendResult> {
      if (!isUuid(roomId)) throw accessDenied();
      for (let attempt = 1; ; attempt++) {
        const at = deps.now().getTime();
        const [row] = await orFail('chatApi.errors.sendFailed', () =>
          query<SendRow>(
            counted ? SEND_SQL : SOCKET_SEND_SQL,
            counted
              ? [
                  roomId,
                  userId,
                  content,
                  clientId,
                  storedKey(`chat.send:${userId}`),
                  at,
                  WINDOW_MS,
                  CHAT_SENDS_PER_MINUTE,
                ]
              : [roomId, userId, content, clientId, null, null, null, null],
          ),
        );
        if (row.existing_id) {
          if (row.existing_room_id !== roomId) throw clientIdReused();
          const message = (await findMessage(query, row.existing_id))!;
          return { message, created: false, audience: [] };
        }
        if (row.rate_count !== null && row.rate_count > CHAT_SENDS_PER_MINUTE)
          throw rateLimited((Number(row.rate_reset_at) - at) / 1000);
        if (!row.participant) throw accessDenied();
        if (row.closed) throw cannotMessage();
        if (row.id) {
          return {
            message: toSentMessage(row as SentMessageRow),
            created: true,
            audience: row.audience ?? [],
          };
        }
        // The insert met a twin (same sender and client id) that committed after this statement
        // began, so it is not visible here: the next run finds it.
        if (attempt >= ATTEMPTS) throw new AppError(500, 'internal', 'chatApi.errors.sendFailed');
      }
    },

    /**
     * The message this sender already stored with this client id in this room (a retry), or
     * `refusal` when there is none; 409 when the id was used in another room.
     */
    async resend(
      userId: string,
      roomId: string,
      clientId: string,
      refusal: AppError,
    ): Promise<SendResult> {
      const [row] = await orFail('chatApi.errors.sendFailed', () =>
        query<{ id: string; room_id: string }>(
          'select id, room_id from chat_messages where sender_id = $1 and client_id = $2::uuid',
          [userId, clientId],
        ),
      );
      if (!row) throw refusal;
      if (row.room_id !== roomId) throw clientIdReused();
      return { message: (await findMessage(query, row.id))!, created: false, audience: [] };
    },

    /**
     * Delivers a stored message to the room (chat.message, as every new message), then starts the
     * missed-message e-mail, which nobody waits for.
     */
    async deliver(result: SendResult): Promise<void> {
      if (!result.created) return;
      const { message } = result;
      await publish(result.audience, messageEvent(message.roomId, message));
      afterCommit(message.roomId, message);
    },
  };
}

type Sender = ReturnType<typeof sendActions>;

/**
 * The socket's `chat.send` frame: the same checks, statement and answers as the HTTP route, with
 * no session lookup (the socket knows its member). The sender's socket gets chat.ack with the
 * stored message, or chat.nack with the status, code and text the route would answer; the room
 * gets chat.message once, after the ack. A nack's text is the failing field's message when there
 * is one (a frame has no fields), in the member's language of their settings.
 */
export function registerSendFrame(opts: {
  realtime: Realtime;
  chats: Sender;
  query: Query;
  log: FastifyBaseLogger;
  now: () => Date;
}) {
  const { realtime, chats, query, log, now } = opts;
  // A member's socket sends, all their sockets on this process together.
  const budget = new TokenBuckets({
    perSecond: CHAT_SENDS_PER_MINUTE / 60,
    burst: SOCKET_SEND_BURST,
  });
  const sweep = setInterval(() => budget.sweep(now().getTime()), 60_000);
  sweep.unref();

  async function languageOf(userId: string): Promise<Language> {
    const [row] = await query<{ preferred_language: string }>(
      'select preferred_language from users where id = $1',
      [userId],
    );
    return row && isLanguage(row.preferred_language) ? row.preferred_language : 'it';
  }

  /** The refusal as the route's error handler words it; the field's message first. */
  async function refusal(userId: string, clientId: string, error: AppError) {
    const key = error.fields ? Object.values(error.fields)[0] : error.message;
    const lang = await languageOf(userId);
    return {
      type: 'chat.nack' as const,
      clientId,
      status: error.statusCode,
      code: error.code,
      message: hasKey(key) ? t(lang, key, error.vars) : key,
    };
  }

  /** The frame's checks, in the route's order: its id, storable text, the content's rules. */
  function check(data: Record<string, unknown>): { content: string } {
    if (typeof data.clientId !== 'string' || !UUID_PATTERN.test(data.clientId))
      throw validationFailed({ clientId: 'chatApi.validation.clientIdInvalid' });
    const unstorable = findUnstorableText(data);
    if (unstorable === 'too-deep') throw badRequest('errors.nestedTooDeep');
    if (unstorable !== null) throw invalidCharacters(unstorable);
    const parsed = sendMessageSchema.safeParse({ content: data.content });
    if (!parsed.success)
      throw validationFailed({ content: parsed.error.issues[0]?.message ?? 'validation.invalid' });
    return parsed.data;
  }

  realtime.onFrame('chat.send', async (frame) => {
    const { data, userId } = frame;
    // Echoed as sent (a UUID once checked), so the tab can match the answer to its message.
    const clientId = typeof data.clientId === 'string' ? data.clientId.slice(0, 64) : '';
    let result: SendResult;
    try {
      const { content } = check(data);
      const roomId = typeof data.roomId === 'string' ? data.roomId : '';
      const wait = budget.take(userId, now().getTime());
      // Over the budget, a retry of a message already stored is still acknowledged.
      result =
        wait > 0
          ? await chats.resend(userId, roomId, clientId, rateLimited(wait))
          : await chats.send(userId, roomId, content, clientId, false);
    } catch (err) {
      if (!(err instanceof AppError)) log.error({ err }, 'chatApi.errors.sendFailed');
      const error =
        err instanceof AppError ? err : new AppError(500, 'internal', 'chatApi.errors.sendFailed');
      frame.reply(await refusal(userId, clientId, error));
      return;
    }
    frame.reply({ type: 'chat.ack', clientId, message: result.message });
    await chats.deliver(result);
  });
}
