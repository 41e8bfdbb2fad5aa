import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { SESSION_ABSOLUTE_MS } from '../auth/instance';
import { createLocalBus, createPgBus, sessionsEnded, type Bus, type BusObserver } from './bus';
import { createPresence } from './presence';
import { registerRealtimeRoute } from './route';
import { CLOSE, createSocketHub, type SocketLimits } from './sockets';
import type { Realtime, WireEvent } from './types';

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RealtimeOptions {
  database: Database;
  /** Origins whose pages may open a socket (config.trustedOrigins). */
  trustedOrigins: readonly string[];
  log?: Log;
  /** Defaults to PostgreSQL LISTEN/NOTIFY on a PostgreSQL server, in-process otherwise. */
  bus?: Bus;
  /** Ping interval; a socket that missed one ping is dropped at the next (default 25 s). */
  heartbeatMs?: number;
  /** How often this process refreshes its presence rows (default 20 s). */
  presenceRefreshMs?: number;
  /** A presence row not refreshed for this long belongs to a dead process (default 60 s). */
  presenceTtlMs?: number;
  /** Presence changes gathered into one write (default 50 ms; see presence.ts). */
  presenceBatchMs?: number;
  /** How often users.last_seen_at of connected members is written (default 60 s). */
  lastSeenEveryMs?: number;
  /** Largest client frame (default 16 KB); larger ones close the socket with 1009. */
  maxFrameBytes?: number;
  /** Sockets one member may hold on one process (tabs, default 10); more are closed with 4429. */
  maxSocketsPerUser?: number;
  limits?: Partial<SocketLimits>;
  /** Metrics: frames in, events out, bus payloads and delay. */
  observe?: RealtimeObserver;
}

export interface RealtimeObserver extends BusObserver {
  frameIn(): void;
  eventOut(): void;
}

/**
 * The realtime service with what buildApp needs to serve it. It carries any event (its tests send
 * made-up ones); features get it as `Realtime`, which takes only the contract's events.
 */
export interface RealtimeService extends Realtime<WireEvent, string> {
  readonly processId: string;
  /** Always implemented here (optional in the contract for fakes). */
  disconnectUsers(userIds: readonly string[], code?: number): Promise<void>;
  endSessions(sessionIds: readonly string[]): Promise<void>;
  /** Registers GET /api/realtime on the app and closes every socket when the app closes. */
  attach(app: FastifyInstance): Promise<void>;
  /** Live sockets on this process (of one member when given). */
  socketCount(userId?: string): number;
  /** Resolves once events from other processes can arrive (LISTEN is in place). */
  ready(): Promise<void>;
  /**
   * Told, on every process, when sessions end (their ids) or members are cut off (their ids,
   * disconnectUsers), and `'all'` when such news may have been lost (LISTEN reconnected).
   * The process that ends them is told at once, before the news goes out (its own answer, such
   * as a password reset's, must already refuse the old cookies), and again when it comes back.
   * The session cache (platform/sessions.ts) forgets them.
   */
  onSessionsEnded(handler: (ended: { sessions: string[]; users: string[] } | 'all') => void): void;
  /** False while session-ended news from other processes cannot arrive (LISTEN is down). */
  sessionNewsLive(): boolean;
  /**
   * The process is draining (SIGTERM): every socket is closed with 1012 so its tab reconnects,
   * after a jitter, to another process and fetches what it missed; new handshakes answer 503.
   * Events keep flowing to nobody until close().
   */
  drain(): void;
}

const silent: Log = { warn() {}, info() {}, error() {} };

export function createRealtime(opts: RealtimeOptions): RealtimeService {
  const processId = randomUUID();
  const log = opts.log ?? silent;
  const heartbeatMs = opts.heartbeatMs ?? 25_000;
  const refreshMs = opts.presenceRefreshMs ?? 20_000;
  const lastSeenMs = opts.lastSeenEveryMs ?? 60_000;
  const bus =
    opts.bus ??
    (opts.database.kind === 'postgres' && opts.database.pool
      ? createPgBus({ pool: opts.database.pool, processId, log, observe: opts.observe })
      : createLocalBus({ pglite: opts.database.pglite, observe: opts.observe }));
  const presenceHandlers: ((userId: string, online: boolean) => void | Promise<void>)[] = [];
  const presenceBatchHandlers: ((
    changes: { userId: string; online: boolean }[],
  ) => void | Promise<void>)[] = [];
  let closed = false;
  let draining = false;

  const presence = createPresence({
    database: opts.database,
    processId,
    ttlMs: opts.presenceTtlMs ?? 60_000,
    async onChange(userId, online) {
      for (const handler of presenceHandlers) {
        try {
          await handler(userId, online);
        } catch (err) {
          log.warn({ err, userId }, 'realtime: presence handler failed');
        }
      }
    },
    async onChanges(changes) {
      for (const handler of presenceBatchHandlers) {
        try {
          await handler(changes);
        } catch (err) {
          log.warn({ err, count: changes.length }, 'realtime: presence handler failed');
        }
      }
    },
    batchMs: opts.presenceBatchMs,
    onError: (err) => log.error({ err }, 'realtime: presence write failed'),
  });

  const hub = createSocketHub({
    processId,
    limits: {
      framesPerSecond: 20,
      burst: 40,
      maxTopics: 50,
      maxTopicsPerMember: 100,
      maxSocketsPerMember: opts.maxSocketsPerUser ?? 10,
      maxQueued: 64,
      maxBufferedBytes: 1024 * 1024,
      ...opts.limits,
    },
    async sessionExpiry(sessionId) {
      // The same rules as the session resolver: idle expiry, and 30 days at most whatever the use.
      const [row] = await opts.database.query<{ expires_at: Date }>(
        `select expires_at from sessions
         where id = $1 and expires_at > now()
           and created_at > now() - $2::bigint * interval '1 millisecond'`,
        [sessionId, SESSION_ABSOLUTE_MS],
      );
      return row ? new Date(row.expires_at) : null;
    },
    sessionNewsLive: () => !closed && (bus.connected?.() ?? false),
    onFirstSocket: (userId) => void presence.connected(userId),
    onLastSocket: (userId) => void presence.disconnected(userId),
    log,
    observe: opts.observe,
  });
  const endedHandlers: Parameters<RealtimeService['onSessionsEnded']>[0][] = [];
  const tellEnded = (ended: { sessions: string[]; users: string[] }) => {
    for (const handler of endedHandlers) handler(ended);
  };
  bus.onMessage((message) => {
    if (message.disconnect && endedHandlers.length)
      tellEnded({ sessions: message.sessions ?? [], users: message.users ?? [] });
    hub.deliver(message);
  });
  log.info(
    { bus: opts.bus ? 'custom' : opts.database.kind === 'postgres' ? 'postgres' : 'in-process' },
    'realtime ready',
  );
  // Messages from other processes may have been lost while LISTEN was down: clients reconnect
  // and fetch what they missed over HTTP.
  bus.onGap(() => {
    for (const handler of endedHandlers) handler('all');
    hub.closeAll(CLOSE.restart, 'resync');
  });

  const timers = [
    setInterval(() => hub.heartbeat(), heartbeatMs),
    setInterval(() => {
      presence
        .refresh()
        .then(() => presence.expire())
        .catch((err) => log.warn({ err }, 'realtime: presence refresh failed'));
    }, refreshMs),
    setInterval(() => {
      presence
        .touchLastSeen()
        .catch((err) => log.warn({ err }, 'realtime: last seen update failed'));
    }, lastSeenMs),
  ];
  for (const timer of timers) timer.unref();

  const service: RealtimeService = {
    processId,
    async toUsers(userIds, event) {
      if (!userIds.length) return;
      await bus.publish({ users: [...new Set(userIds)], event });
    },
    async toTopic(topic, event, options) {
      const exceptUsers = options?.exceptUserIds?.length ? [...options.exceptUserIds] : undefined;
      await bus.publish({ topic, exceptUsers, event });
    },
    async leaveTopic(userIds, topic) {
      if (!userIds.length) return;
      await bus.publish({ users: [...userIds], topic, leave: true, event: { type: 'leave' } });
    },
    async disconnectUsers(userIds, code = CLOSE.sessionEnded) {
      if (!userIds.length) return;
      // Application close codes are 4000-4999; anything else would be refused by ws.
      const valid = code >= 4000 && code <= 4999 ? code : CLOSE.sessionEnded;
      tellEnded({ sessions: [], users: [...new Set(userIds)] });
      await bus.publish({
        users: [...new Set(userIds)],
        disconnect: { code: valid, reason: 'session ended' },
        event: { type: 'disconnect' },
      });
    },
    async endSessions(sessionIds) {
      if (!sessionIds.length) return;
      tellEnded({ sessions: [...new Set(sessionIds)], users: [] });
      await bus.publish(sessionsEnded([...new Set(sessionIds)]));
    },
    topic(kind, authorize) {
      hub.topicKinds.set(kind, authorize);
    },
    onFrame(type, handler) {
      hub.frameHandlers.set(type, handler);
    },
    isOnline: (userId) => presence.isOnline(userId),
    onlineAmong: (userIds) => presence.onlineAmong(userIds),
    onPresence(handler) {
      presenceHandlers.push(handler);
    },
    onPresenceChanges(handler) {
      presenceBatchHandlers.push(handler);
    },
    socketCount: (userId) => hub.socketCount(userId),
    ready: () => bus.ready,
    onSessionsEnded(handler) {
      endedHandlers.push(handler);
    },
    sessionNewsLive: () => !closed && (bus.connected?.() ?? false),
    async attach(app) {
      await registerRealtimeRoute(app, {
        trustedOrigins: opts.trustedOrigins,
        maxFrameBytes: opts.maxFrameBytes ?? 16 * 1024,
        hub,
        isClosed: () => closed || draining,
      });
    },
    drain() {
      draining = true;
      hub.closeAll(CLOSE.restart, 'server restarting');
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearInterval(timer);
      // Sockets are closed by the route's preClose; a service used without a route has none.
      hub.closeAll(CLOSE.goingAway, 'server closing');
      for (const userId of hub.memberIds()) {
        hub.forget(userId);
        void presence.disconnected(userId);
      }
      await presence.settle();
      await bus.close();
    },
  };
  return service;
}
