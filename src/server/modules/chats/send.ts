import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { isLanguage, type Language } from '@shared/constants';
import { sendMessageSchema, type ChatMessage } from '@shared/schemas/chats';
import { UUID_PATTERN } from '@shared/schemas/common';
import type { Database } from '../../db/client';
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
const SEND_SQL = `with existing as (
    select m.id, m.room_id from chat_messages m where m.sender_id = $2 and m.client_id = $4::uuid),
  rl as (${countAttemptSql({ key: '$5', now: '$6', windowMs: '$7', when: 'not exists (select 1 from existing)' })}),
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
    where facts.participant and not facts.closed and rl.count <= $8
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

/**
 * The socket's sends, a batch at a time (docs/decisions/0077): the same checks as SEND_SQL for
 * each row of the input arrays, one multi-row insert, one bump of each room, and one answer row
 * per input row (`n`, from 1, in input order). The member's budget is counted in memory before.
 * $1 rooms, $2 senders, $3 contents, $4 client ids: arrays of the same length.
 */
export const SEND_BATCH_SQL = `with input as (
    select * from unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[]) with ordinality
      as i(room_id, sender_id, content, client_id, n)),
  existing as (
    select i.n, m.id, m.room_id from input i
    join chat_messages m on m.sender_id = i.sender_id and m.client_id = i.client_id),
  facts as (
    select i.n,
      exists (select 1 from chat_participants cp
        where cp.room_id = i.room_id and cp.user_id = i.sender_id) as participant,
      exists (select 1 from chat_rooms dr where dr.id = i.room_id and not dr.is_group and (
        ${roomWithDeletedMember('i.room_id')}
        or exists (select 1 from chat_participants bp
          where bp.room_id = i.room_id and bp.user_id <> i.sender_id
          and ${blockedBetween('i.sender_id', 'bp.user_id')}))) as closed
    from input i),
  ins as (
    insert into chat_messages (room_id, sender_id, type, content, client_id)
    select i.room_id, i.sender_id, 'text', i.content, i.client_id
    from input i join facts f on f.n = i.n
    where f.participant and not f.closed and not exists (select 1 from existing e where e.n = i.n)
    order by i.n
    on conflict (sender_id, client_id) do nothing
    returning id, room_id, sender_id, type, content, created_at, client_id),
  -- Rooms locked in one order (by id), so two batches meeting on the same rooms queue up.
  bump as (
    update chat_rooms r set updated_at = greatest(r.updated_at, x.at)
    from (select room_id, max(created_at) as at from ins group by room_id order by room_id) x
    where r.id = x.room_id)
  select i.n, e.id as existing_id, e.room_id as existing_room_id, f.participant, f.closed,
    ins.id, ins.room_id, ins.sender_id, ins.type, ins.content, ins.created_at,
    u.display_name as s_display_name, coalesce(u.display_username, u.username::text) as s_username,
    u.avatar_url as s_avatar_url, u.last_seen_at as s_last_seen_at,
    u.account_status = 'deleted' as s_deleted,
    case when ins.id is not null then
      array(select p.user_id from chat_participants p where p.room_id = i.room_id) end as audience
  from input i
  join facts f on f.n = i.n
  left join existing e on e.n = i.n
  left join ins on ins.sender_id = i.sender_id and ins.client_id = i.client_id
  left join users u on u.id = i.sender_id
  order by i.n`;

interface CheckedRow extends Partial<SentMessageRow> {
  existing_id: string | null;
  existing_room_id: string | null;
  participant: boolean;
  closed: boolean;
  audience: string[] | null;
}

interface SendRow extends CheckedRow {
  rate_count: number | null;
  rate_reset_at: string | number | null;
}

export interface BatchRow extends CheckedRow {
  n: number | string;
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
function outcomeOf(
  row: CheckedRow,
  roomId: string,
): { existing: string } | { result: SendResult } | AppError | null {
  if (row.existing_id) {
    if (row.existing_room_id !== roomId) return clientIdReused();
    return { existing: row.existing_id };
  }
  if (!row.participant) return accessDenied();
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

/**
 * The batch statement prepared once per connection on PostgreSQL (named: it is parsed once,
 * and planned once when the server settles on a generic plan), plain on the embedded database.
 */
function preparedBatch(database: Database) {
  const pool = database.kind === 'postgres' ? database.pool : undefined;
  if (!pool) return undefined;
  return async (values: unknown[]) =>
    (await pool.query<BatchRow>({ name: 'chats.send_batch', text: SEND_BATCH_SQL, values })).rows;
}

/** Errors of one row's data (classes 22 and 23): the batch is stored again a row at a time. */
const isDataError = (err: unknown) => /^2[23]/.test(String((err as { code?: unknown }).code ?? ''));
/** Two batches that met on the same rows in another order: run again. */
const isRetryable = (err: unknown) =>
  ['40P01', '40001'].includes(String((err as { code?: unknown }).code ?? ''));

interface QueuedSend {
  userId: string;
  roomId: string;
  content: string;
  clientId: string;
  attempt: number;
  resolve(result: SendResult): void;
  reject(err: unknown): void;
}

/**
 * Gathers the socket's sends that arrive in one turn of the event loop, and while a batch is
 * being stored, into the next batch: one statement stores them all (docs/decisions/0077), and
 * each send still settles on its own (stored, stored before, or refused like the HTTP route).
 * One batch at a time per process: under load batches grow instead of queueing statements.
 */
export function createSendBatcher(opts: {
  query: Query;
  /** Runs the batch statement; defaults to `query` (a prepared statement on PostgreSQL). */
  storeBatch?: (params: unknown[]) => Promise<BatchRow[]>;
  log: FastifyBaseLogger;
  /** Told of each batch stored: its size and the messages it stored (for the e-mails). */
  onBatch?: (size: number, stored: ChatMessage[]) => void;
}) {
  const { query, log } = opts;
  const storeBatch = opts.storeBatch ?? ((params) => query<BatchRow>(SEND_BATCH_SQL, params));
  let queue: QueuedSend[] = [];
  let scheduled = false;
  let running = false;

  function schedule() {
    if (scheduled || running || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  }

  async function flush() {
    running = true;
    // One send per sender and client id in a batch: a copy waits for the next, where it finds
    // the first one stored.
    const batch: QueuedSend[] = [];
    const later: QueuedSend[] = [];
    const seen = new Set<string>();
    for (const item of queue) {
      const key = `${item.userId}\n${item.clientId.toLowerCase()}`;
      if (batch.length >= SEND_BATCH_MAX || seen.has(key)) later.push(item);
      else {
        seen.add(key);
        batch.push(item);
      }
    }
    queue = later;
    try {
      await store(batch);
    } finally {
      running = false;
      schedule();
    }
  }

  async function run(batch: QueuedSend[]): Promise<BatchRow[]> {
    const params = [
      batch.map((b) => b.roomId),
      batch.map((b) => b.userId),
      batch.map((b) => b.content),
      batch.map((b) => b.clientId),
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        return await storeBatch(params);
      } catch (err) {
        if (!isRetryable(err) || attempt >= ATTEMPTS) throw err;
      }
    }
  }

  async function store(batch: QueuedSend[]): Promise<void> {
    let rows: BatchRow[];
    try {
      rows = await run(batch);
    } catch (err) {
      // One row's bad data must not fail the others: each is stored on its own.
      if (batch.length > 1 && isDataError(err)) {
        for (const item of batch) await store([item]);
        return;
      }
      log.error({ err, size: batch.length }, 'chatApi.errors.sendFailed');
      for (const item of batch)
        item.reject(new AppError(500, 'internal', 'chatApi.errors.sendFailed'));
      return;
    }
    const stored: ChatMessage[] = [];
    for (const row of rows) {
      const item = batch[Number(row.n) - 1];
      const outcome = outcomeOf(row, item.roomId);
      if (outcome instanceof AppError) item.reject(outcome);
      else if (outcome && 'result' in outcome) {
        stored.push(outcome.result.message);
        item.resolve(outcome.result);
      } else if (outcome) {
        findMessage(query, outcome.existing).then(
          (message) => item.resolve({ message: message!, created: false, audience: [] }),
          (err) => {
            log.error({ err }, 'chatApi.errors.sendFailed');
            item.reject(new AppError(500, 'internal', 'chatApi.errors.sendFailed'));
          },
        );
      } else if (++item.attempt >= ATTEMPTS)
        item.reject(new AppError(500, 'internal', 'chatApi.errors.sendFailed'));
      else queue.push(item);
    }
    opts.onBatch?.(batch.length, stored);
  }

  return {
    /** Settles once the send's batch is stored: the result, or the refusal to answer. */
    send(userId: string, roomId: string, content: string, clientId: string): Promise<SendResult> {
      return new Promise((resolve, reject) => {
        queue.push({ userId, roomId, content, clientId, attempt: 0, resolve, reject });
        schedule();
      });
    },
  };
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
  // A member's socket sends, all their sockets on this process together (full buckets are
  // forgotten when the map reaches its cap).
  const budget = new TokenBuckets({
    perSecond: CHAT_SENDS_PER_MINUTE / 60,
    burst: SOCKET_SEND_BURST,
  });

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
          : await chats.sendBatched(userId, roomId, content, clientId);
    } catch (err) {
      if (!(err instanceof AppError)) log.error({ err }, 'chatApi.errors.sendFailed');
      const error =
        err instanceof AppError ? err : new AppError(500, 'internal', 'chatApi.errors.sendFailed');
      frame.reply(await refusal(userId, clientId, error));
      return;
    }
    frame.reply({ type: 'chat.ack', clientId, message: result.message });
    await chats.publishSent(result);
  });
}
