import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from '../../db/sql';
import { CLOSE, type WireEvent } from './types';

/**
 * What travels between server processes: an event and who receives it. Each process delivers it
 * to its own sockets. `leave` removes a topic subscription of these members (e.g. a member left
 * a room) instead of delivering an event; `disconnect` closes every socket of these members, or
 * opened with these sessions, with that close code and reason (e.g. their sessions ended).
 */
export interface BusMessage {
  users?: string[];
  /** Session ids: with `disconnect`, the sockets opened with them. */
  sessions?: string[];
  topic?: string;
  exceptUsers?: string[];
  leave?: boolean;
  disconnect?: { code: number; reason: string };
  event: WireEvent;
}

export interface Bus {
  publish(message: BusMessage): Promise<void>;
  onMessage(handler: (message: BusMessage) => void): void;
  /** Runs when messages may have been lost (the listener reconnected). */
  onGap(handler: () => void): void;
  /** Resolves once messages from other processes can arrive. */
  ready: Promise<void>;
  /** True while messages from other processes can arrive (the LISTEN connection is up). */
  connected?(): boolean;
  close(): Promise<void>;
}

/** NOTIFY refuses payloads of 8,000 bytes or more; the rest is room for the envelope. */
export const MAX_PAYLOAD_BYTES = 7900;
export const CHANNEL = 'scaffale_rt';
/** Where the sessions table's triggers (migration 0025) announce an ended session by its id. */
export const SESSION_ENDED_CHANNEL = 'scaffale_session_ended';

/** The typed "session ended" event: closes the sockets opened with these sessions. */
export function sessionsEnded(sessionIds: string[]): BusMessage {
  return {
    sessions: sessionIds,
    disconnect: { code: CLOSE.sessionEnded, reason: 'session ended' },
    event: { type: 'session.ended' },
  };
}

/** A trigger's payload is a bare session id; anything else is not ours and is ignored. */
function sessionIdFrom(payload: string | undefined): string | null {
  return payload && payload.length <= 255 && /^[\w.-]+$/.test(payload) ? payload : null;
}

export class PayloadTooLargeError extends Error {
  readonly code = 'realtime_payload_too_large';
  constructor(bytes: number) {
    super(
      `Realtime payload of ${bytes} bytes is over the ${MAX_PAYLOAD_BYTES}-byte limit ` +
        '(PostgreSQL NOTIFY): send ids and let clients fetch the rest',
    );
  }
}

/** `o`: the publishing process; `t`: when it published (ms since the epoch), for the bus delay. */
type Wire = BusMessage & { o: string; t?: number };

/** Told of each payload published and of each received from another process (metrics). */
export interface BusObserver {
  published(): void;
  /** `delayMs`: from publish to receipt (clocks of different machines may differ a little). */
  received(delayMs: number): void;
}

/**
 * The message as one or more wire payloads within the size limit: a long member list is split
 * across several notifications; an event that does not fit on its own is refused.
 */
export function encode(message: BusMessage, origin: string): string[] {
  const text = JSON.stringify({ ...message, o: origin, t: Date.now() } satisfies Wire);
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_PAYLOAD_BYTES) return [text];
  const key =
    (message.users?.length ?? 0) >= (message.sessions?.length ?? 0) ? 'users' : 'sessions';
  const list = message[key] ?? [];
  if (list.length <= 1) throw new PayloadTooLargeError(bytes);
  const half = Math.ceil(list.length / 2);
  return [
    ...encode({ ...message, [key]: list.slice(0, half) }, origin),
    ...encode({ ...message, [key]: list.slice(half) }, origin),
  ];
}

function decode(text: string): Wire | null {
  try {
    const wire = JSON.parse(text) as Wire;
    return wire && typeof wire.event?.type === 'string' ? wire : null;
  } catch {
    return null;
  }
}

/**
 * One process (the embedded database): delivery is a function call, with the same size rule.
 * With the embedded database it also listens to the sessions table's "session ended" triggers.
 */
export function createLocalBus(opts: { pglite?: PGlite; observe?: BusObserver } = {}): Bus {
  const handlers: ((m: BusMessage) => void)[] = [];
  const onEnded = (payload: string) => {
    const id = sessionIdFrom(payload);
    if (id) for (const handler of handlers) handler(sessionsEnded([id]));
  };
  const listening = opts.pglite?.listen(SESSION_ENDED_CHANNEL, onEnded);
  // Without the triggers' news (no embedded database to listen to) sessions end unannounced.
  let listened = false;
  void listening?.then(() => (listened = true)).catch(() => {});
  return {
    async publish(message) {
      // Encoded for the size rule (the same as between processes); delivered as it is.
      const payloads = encode(message, 'local');
      for (let i = 0; i < payloads.length; i++) opts.observe?.published();
      for (const handler of handlers) handler(message);
    },
    onMessage(handler) {
      handlers.push(handler);
    },
    onGap() {},
    ready: listening ? listening.then(() => {}) : Promise.resolve(),
    connected: () => listened && !opts.pglite?.closed,
    async close() {
      handlers.length = 0;
      listened = false;
      if (listening && !opts.pglite?.closed) {
        await listening.then((unlisten) => unlisten()).catch(() => {});
      }
    },
  };
}

export interface PgBusOptions {
  pool: pg.Pool;
  processId: string;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  channel?: string;
  /** Reconnect backoff of the LISTEN connection: base and cap in ms (full jitter). */
  backoffMs?: { base: number; cap: number };
  /** How often the LISTEN connection is checked with a query. */
  checkEveryMs?: number;
  observe?: BusObserver;
}

/**
 * Several processes on one PostgreSQL server: NOTIFY through the pool, LISTEN on a dedicated
 * connection that reconnects with backoff. A process delivers its own messages at once and skips
 * their echo, so a local recipient does not wait for a round trip.
 */
export function createPgBus(opts: PgBusOptions): Bus {
  const channel = opts.channel ?? CHANNEL;
  const backoff = opts.backoffMs ?? { base: 500, cap: 30_000 };
  const handlers: ((m: BusMessage) => void)[] = [];
  const gapHandlers: (() => void)[] = [];
  let listener: pg.Client | null = null;
  let closed = false;
  let everConnected = false;
  let retry: NodeJS.Timeout | undefined;
  let listening = () => {};
  const ready = new Promise<void>((resolve) => (listening = resolve));

  const deliver = (m: BusMessage) => {
    for (const handler of handlers) handler(m);
  };

  async function listen(attempt: number): Promise<void> {
    if (closed) return;
    const client = new pg.Client({
      ...(opts.pool.options as pg.ClientConfig),
      keepAlive: true,
      application_name: 'scaffale_realtime',
    });
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (listener === client) listener = null;
      client.end().catch(() => {});
      if (closed) return;
      opts.log.warn({ err: err?.message }, 'realtime: LISTEN connection lost, reconnecting');
      schedule(attempt + 1);
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', (n) => {
      if (n.channel === SESSION_ENDED_CHANNEL) {
        const id = sessionIdFrom(n.payload);
        if (id) deliver(sessionsEnded([id]));
        return;
      }
      if (n.channel !== channel || !n.payload) return;
      const wire = decode(n.payload);
      if (wire && wire.o !== opts.processId) {
        if (typeof wire.t === 'number') opts.observe?.received(Math.max(0, Date.now() - wire.t));
        deliver(wire);
      }
    });
    try {
      await client.connect();
      await client.query(sql`listen ${sql.identifier(channel)}`.text);
      await client.query(sql`listen ${sql.identifier(SESSION_ENDED_CHANNEL)}`.text);
    } catch (err) {
      drop(err as Error);
      return;
    }
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    listener = client;
    attempt = 0;
    if (everConnected) {
      opts.log.info({}, 'realtime: LISTEN connection restored');
      for (const handler of gapHandlers) handler();
    }
    everConnected = true;
    listening();
  }

  function schedule(attempt: number) {
    const delay = Math.random() * Math.min(backoff.cap, backoff.base * 2 ** attempt);
    retry = setTimeout(() => void listen(attempt), delay);
    retry.unref();
  }

  // A connection that died silently (no FIN) shows up on the next query.
  const check = setInterval(() => {
    listener?.query('select 1').catch(() => listener?.emit('error', new Error('check failed')));
  }, opts.checkEveryMs ?? 30_000);
  check.unref();

  void listen(0);

  /**
   * NOTIFY in batches (docs/decisions/0077): the payloads published during one turn of the event
   * loop, and while a batch is on its way, leave together in one statement (one transaction, in
   * the order published); each publish resolves once its batch is committed.
   */
  const pending: { texts: string[]; done: (err?: unknown) => void }[] = [];
  let scheduled = false;
  let sending = false;
  function scheduleNotify() {
    if (scheduled || sending || pending.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void sendNotify();
    });
  }
  async function sendNotify() {
    sending = true;
    const batch: typeof pending = [];
    let count = 0;
    while (pending.length && (batch.length === 0 || count + pending[0].texts.length <= 500)) {
      const next = pending.shift()!;
      count += next.texts.length;
      batch.push(next);
    }
    try {
      await opts.pool.query(
        'select count(pg_notify($1, payload)) from unnest($2::text[]) as p(payload)',
        [channel, batch.flatMap((b) => b.texts)],
      );
      for (let i = 0; i < count; i++) opts.observe?.published();
      for (const b of batch) b.done();
    } catch (err) {
      for (const b of batch) b.done(err);
    } finally {
      sending = false;
      scheduleNotify();
    }
  }
  const notify = (texts: string[]) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ texts, done: (err) => (err ? reject(err) : resolve()) });
      scheduleNotify();
    });

  return {
    async publish(message) {
      const payloads = encode(message, opts.processId);
      // This process's sockets get the message as it is, before the round trip (no re-parse).
      deliver(message);
      await notify(payloads);
    },
    onMessage(handler) {
      handlers.push(handler);
    },
    onGap(handler) {
      gapHandlers.push(handler);
    },
    ready,
    connected: () => listener !== null && !closed,
    async close() {
      closed = true;
      listening();
      clearInterval(check);
      clearTimeout(retry);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
    },
  };
}
