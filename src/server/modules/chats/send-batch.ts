import type { FastifyBaseLogger } from 'fastify';
import type { ChatMessage } from '@shared/schemas/chats';
import type { Database } from '../../db/client';
import type { Query } from '../../db/tx';
import { AppError } from '../../platform/errors';
import { blockedBetween } from '../../platform/moderation';
import { roomWithDeletedMember } from '../../platform/moderation/members';
import { findMessage } from './queries';
import {
  ATTEMPTS,
  outcomeOf,
  SEND_BATCH_MAX,
  type CheckedRow,
  type SendResult,
} from './send-outcome';

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
      exists (select 1 from users tu where tu.id = i.sender_id and tu.terms_accepted_at is null)
        as needs_terms,
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
    where f.participant and not f.closed and not f.needs_terms and not exists (select 1 from existing e where e.n = i.n)
    order by i.n
    on conflict (sender_id, client_id) do nothing
    returning id, room_id, sender_id, type, content, created_at, client_id),
  -- Rooms locked in one order (by id), so two batches meeting on the same rooms queue up.
  bump as (
    update chat_rooms r set updated_at = greatest(r.updated_at, x.at)
    from (select room_id, max(created_at) as at from ins group by room_id order by room_id) x
    where r.id = x.room_id)
  select i.n, e.id as existing_id, e.room_id as existing_room_id, f.participant, f.closed,
    f.needs_terms,
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

export interface BatchRow extends CheckedRow {
  n: number | string;
}

/**
 * The batch statement prepared once per connection on PostgreSQL (named: it is parsed once,
 * and planned once when the server settles on a generic plan), plain on the embedded database.
 */
export function preparedBatch(database: Database) {
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
