import { AppError } from '../../platform/errors';
import { blockedBetween } from '../../platform/moderation';
import { roomWithDeletedMember } from '../../platform/moderation/members';
import { rateLimited } from '../../platform/rate-limits';
import { countAttemptSql, storedKey } from '../../platform/rate-limits-store';
import { accessDenied, type ChatContext } from './context';
import { messageEvent } from './events';
import { findMessage, isUuid } from './queries';
import { createSendBatcher, preparedBatch } from './send-batch';
import {
  ATTEMPTS,
  CHAT_SENDS_PER_MINUTE,
  clientIdReused,
  outcomeOf,
  WINDOW_MS,
  type CheckedRow,
  type SendResult,
} from './send-outcome';

export { createSendBatcher, SEND_BATCH_SQL, type BatchRow } from './send-batch';
export {
  CHAT_SENDS_PER_MINUTE,
  clientIdField,
  clientIdReused,
  SEND_BATCH_MAX,
  SOCKET_SEND_BURST,
  type SendResult,
} from './send-outcome';

/**
 * One statement stores a text message, docs/decisions/0065: it finds an earlier message of the
 * same sender and client id, counts the send in the member's rate limit, checks that the sender
 * is a participant and that no block (nor a deleted member) closes a direct room, inserts the
 * message (a twin of the same client id committing meanwhile makes it insert nothing), moves the
 * room up the list, and answers the stored message with its sender and the room's participants.
 * $1 room, $2 sender, $3 content, $4 client id or null, $5 rate key, $6 now, $7 window (ms), $8 max.
 */
const SEND_SQL = `with existing as (
    select m.id, m.room_id from chat_messages m where m.sender_id = $2 and m.client_id = $4::uuid),
  rl as (${countAttemptSql({ key: '$5', now: '$6', windowMs: '$7', when: 'not exists (select 1 from existing)' })}),
  facts as (select
    exists (select 1 from chat_participants where room_id = $1 and user_id = $2) as participant,
    -- The terms gate of the HTTP routes, for the socket's sends too (platform/auth.ts).
    exists (select 1 from users tu where tu.id = $2 and tu.terms_accepted_at is null) as needs_terms,
    -- Nobody writes in a direct conversation whose other member deleted their account or when a
    -- block stands between its two members (group conversations are not affected).
    exists (select 1 from chat_rooms dr where dr.id = $1 and not dr.is_group and (
      ${roomWithDeletedMember('$1')}
      or exists (select 1 from chat_participants bp where bp.room_id = $1 and bp.user_id <> $2
        and ${blockedBetween('$2', 'bp.user_id')}))) as closed),
  ins as (
    insert into chat_messages (room_id, sender_id, type, content, client_id)
    select $1, $2, 'text', $3, $4::uuid from facts, rl
    where facts.participant and not facts.closed and not facts.needs_terms and rl.count <= $8
    on conflict (sender_id, client_id) do nothing
    returning id, room_id, sender_id, type, content, created_at),
  bump as (
    update chat_rooms r set updated_at = greatest(r.updated_at, ins.created_at)
    from ins where r.id = ins.room_id returning r.id)
  select e.id as existing_id, e.room_id as existing_room_id, f.participant, f.closed, f.needs_terms,
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

interface SendRow extends CheckedRow {
  rate_count: number | null;
  rate_reset_at: string | number | null;
}

/** Sending a text message, by HTTP or by a socket frame: the same rules and the same statement. */
export function sendActions(ctx: ChatContext) {
  const { query, orFail, publish, afterCommit, afterCommitMany, deps, log } = ctx;
  // The missed-message e-mails of a batch start together, after its sends are settled.
  const batcher = createSendBatcher({
    query,
    storeBatch: preparedBatch(ctx.database),
    log,
    onBatch: (_size, stored) => setImmediate(() => afterCommitMany(stored)),
  });
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
    ): Promise<SendResult> {
      if (!isUuid(roomId)) throw accessDenied();
      for (let attempt = 1; ; attempt++) {
        const at = deps.now().getTime();
        const [row] = await orFail('chatApi.errors.sendFailed', () =>
          query<SendRow>(SEND_SQL, [
            roomId,
            userId,
            content,
            clientId,
            storedKey(`chat.send:${userId}`),
            at,
            WINDOW_MS,
            CHAT_SENDS_PER_MINUTE,
          ]),
        );
        if (row.rate_count !== null && row.rate_count > CHAT_SENDS_PER_MINUTE && !row.existing_id)
          throw rateLimited((Number(row.rate_reset_at) - at) / 1000);
        const outcome = outcomeOf(row, roomId);
        if (outcome instanceof AppError) throw outcome;
        if (outcome && 'result' in outcome) return outcome.result;
        if (outcome) {
          const message = (await findMessage(query, outcome.existing))!;
          return { message, created: false, audience: [] };
        }
        if (attempt >= ATTEMPTS) throw new AppError(500, 'internal', 'chatApi.errors.sendFailed');
      }
    },

    /**
     * The socket's send: the same rules, stored with the other sends of the moment by one
     * statement (the member's budget is the frame handler's, in memory).
     */
    async sendBatched(
      userId: string,
      roomId: string,
      content: string,
      clientId: string,
    ): Promise<SendResult> {
      if (!isUuid(roomId)) throw accessDenied();
      return batcher.send(userId, roomId, content, clientId);
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

    /** The socket send's delivery: its e-mail started with its batch's (sendBatched). */
    async publishSent(result: SendResult): Promise<void> {
      if (!result.created) return;
      await publish(result.audience, messageEvent(result.message.roomId, result.message));
    },
  };
}
