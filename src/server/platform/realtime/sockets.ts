import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { TokenBuckets } from '../rate-limits';
import type { BusMessage } from './bus';
import {
  type Connection,
  encodeFrame,
  type FrameHandler,
  type HubSocket,
  kConn,
  type MemberState,
  rawSocket,
  SESSION_RECHECK_MS,
  type SessionLookup,
  SETTLED,
  type SocketLimits,
  TEXT,
  type TopicAuthorizer,
} from './connection';
import { CLOSE, type ClientFrame, type RealtimeEvent, type WireEvent } from './types';

export { CLOSE };
export { encodeFrame, SESSION_RECHECK_MS };
export type { Connection, SessionLookup, SocketLimits };

/** The sockets of this process: who holds them, what they subscribed to, what they may send. */
export function createSocketHub(opts: {
  processId: string;
  limits: SocketLimits;
  onFirstSocket: (userId: string) => void;
  onLastSocket: (userId: string) => void;
  /** Checks the socket's session before each frame's work; without it every session lives. */
  sessionExpiry?: SessionLookup;
  /**
   * True while news of ended sessions arrives (they close their sockets at once): a frame then
   * skips the session's query unless the session reached its expiry or was last checked
   * SESSION_RECHECK_MS ago (docs/decisions/0077). Without it every frame checks.
   */
  sessionNewsLive?: () => boolean;
  log: { warn(obj: object, msg: string): void };
  /** Told of each frame a client sends and each event sent to a socket (metrics). */
  observe?: { frameIn(): void; eventOut(): void };
}) {
  const { limits } = opts;
  const members = new Map<string, MemberState>();
  // Kept after a member's last socket closes, so reconnecting does not refill the budget.
  const budgets = new TokenBuckets({ perSecond: limits.framesPerSecond, burst: limits.burst });
  const bySession = new Map<string, Set<Connection>>();
  const byTopic = new Map<string, Set<Connection>>();
  const topicKinds = new Map<string, TopicAuthorizer>();
  const frameHandlers = new Map<string, FrameHandler>();

  const isOpen = (conn: Connection) => conn.ws.readyState === conn.ws.OPEN;
  /**
   * Sockets written to in this tick, corked: their frames leave together in one write when the
   * tick ends (process.nextTick), so a member getting several events at once costs one syscall,
   * and nothing waits past the current tick.
   */
  const corked = new Set<Socket>();
  const uncorkAll = () => {
    for (const raw of corked) raw.uncork();
    corked.clear();
  };
  /** `frame`: the event encoded once, shared by every recipient (ws copies nothing of it). */
  const send = (conn: Connection, frame: Buffer) => {
    if (!isOpen(conn)) return;
    if (conn.ws.bufferedAmount > limits.maxBufferedBytes) {
      conn.ws.terminate();
      return;
    }
    const raw = rawSocket(conn.ws);
    if (raw && !corked.has(raw)) {
      if (corked.size === 0) process.nextTick(uncorkAll);
      raw.cork();
      corked.add(raw);
    }
    conn.ws.send(frame, TEXT);
    opts.observe?.eventOut();
  };
  const reply = (conn: Connection, event: WireEvent) => send(conn, encodeFrame(event));
  /** The service's own answers to a client frame (@shared/realtimeEvents). */
  const answer = (conn: Connection, event: RealtimeEvent<'subscribed' | 'error'>) =>
    reply(conn, event);
  const endSession = (conn: Connection) => conn.ws.close(CLOSE.sessionEnded, 'session ended');

  function unsubscribe(conn: Connection, topic: string) {
    if (!conn.topics?.delete(topic)) return;
    const member = members.get(conn.userId);
    if (member) member.topics--;
    const set = byTopic.get(topic);
    set?.delete(conn);
    if (set?.size === 0) byTopic.delete(topic);
  }

  /** False once the socket's session ended (or expired): the socket is then closed. */
  async function sessionLives(conn: Connection): Promise<boolean> {
    if (!conn.sessionId || !opts.sessionExpiry) return true;
    const now = Date.now();
    if (
      opts.sessionNewsLive?.() &&
      now < conn.sessionExpiresAt &&
      now - conn.sessionCheckedAt < SESSION_RECHECK_MS
    )
      return true;
    const expiry = await opts.sessionExpiry(conn.sessionId);
    if (!expiry) {
      endSession(conn);
      return false;
    }
    conn.sessionExpiresAt = expiry.getTime();
    conn.sessionCheckedAt = now;
    return true;
  }

  /**
   * Runs a frame's work after the member's earlier frames, so one member's frames never hold
   * more than one database connection at a time. False when too much is already waiting.
   */
  function enqueue(conn: Connection, work: () => Promise<void>): boolean {
    const member = members.get(conn.userId);
    if (!member || member.queued >= limits.maxQueued) return false;
    member.queued++;
    member.queue = member.queue
      .then(async () => {
        if (!isOpen(conn) || !(await sessionLives(conn))) return;
        await work();
      })
      .catch((err) => opts.log.warn({ err }, 'realtime: frame failed'))
      .then(() => void member.queued--);
    return true;
  }

  function subscribe(conn: Connection, topic: unknown) {
    if (typeof topic !== 'string' || topic.length > 200) {
      return answer(conn, { type: 'error', status: 400, topic: null });
    }
    if (conn.topics?.has(topic)) return answer(conn, { type: 'subscribed', topic });
    if (conn.pending?.has(topic)) return;
    const member = members.get(conn.userId)!;
    if (
      (conn.topics?.size ?? 0) + (conn.pending?.size ?? 0) >= limits.maxTopics ||
      member.topics >= limits.maxTopicsPerMember
    ) {
      return answer(conn, { type: 'error', status: 429, topic });
    }
    const colon = topic.indexOf(':');
    const authorize = colon > 0 ? topicKinds.get(topic.slice(0, colon)) : undefined;
    const id = topic.slice(colon + 1);
    if (!authorize || !id) return answer(conn, { type: 'error', status: 403, topic });
    (conn.pending ??= new Set()).add(topic);
    member.topics++;
    const queued = enqueue(conn, async () => {
      let allowed = false;
      try {
        allowed = await authorize(conn.userId, id);
      } catch (err) {
        opts.log.warn({ err, topic }, 'realtime: topic authorisation failed');
      }
      if (!allowed) return answer(conn, { type: 'error', status: 403, topic });
      if (!isOpen(conn)) return;
      conn.pending?.delete(topic);
      (conn.topics ??= new Set()).add(topic);
      let set = byTopic.get(topic);
      if (!set) byTopic.set(topic, (set = new Set()));
      set.add(conn);
      answer(conn, { type: 'subscribed', topic });
    });
    const settle = () => {
      // Still pending means it was not granted: give its place back.
      if (conn.pending?.delete(topic)) member.topics--;
    };
    if (!queued) {
      settle();
      return answer(conn, { type: 'error', status: 429, topic });
    }
    void member.queue.then(settle);
  }

  /** The member's token bucket: false when they sent more than their share. */
  const spend = (userId: string): boolean => budgets.take(userId, Date.now()) === 0;

  function onMessage(conn: Connection, raw: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) {
    opts.observe?.frameIn();
    if (!spend(conn.userId)) return conn.ws.close(CLOSE.policy, 'rate limit');
    let data: unknown;
    try {
      if (isBinary) throw new Error('binary');
      data = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw));
    } catch {
      return conn.ws.close(CLOSE.policy, 'malformed frame');
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      return conn.ws.close(CLOSE.policy, 'malformed frame');
    }
    const frame = data as Record<string, unknown>;
    if (typeof frame.type !== 'string') return conn.ws.close(CLOSE.policy, 'frame without type');
    if (frame.type === 'subscribe') return subscribe(conn, frame.topic);
    if (frame.type === 'unsubscribe') {
      if (typeof frame.topic === 'string') unsubscribe(conn, frame.topic);
      return;
    }
    const handler = frameHandlers.get(frame.type);
    if (!handler) return answer(conn, { type: 'error', status: 400, frameType: frame.type });
    const clientFrame: ClientFrame<WireEvent> = {
      userId: conn.userId,
      socketId: `${opts.processId}:${conn.seq}`,
      data: frame,
      reply: (event) => reply(conn, event),
    };
    const queued = enqueue(conn, async () => {
      try {
        await handler(clientFrame);
      } catch (err) {
        opts.log.warn({ err, type: frame.type }, 'realtime: frame handler failed');
      }
    });
    if (!queued) answer(conn, { type: 'error', status: 429, frameType: frame.type });
  }

  function remove(conn: Connection) {
    for (const topic of [...(conn.topics ?? [])]) unsubscribe(conn, topic);
    if (conn.sessionId) {
      const same = bySession.get(conn.sessionId);
      same?.delete(conn);
      if (same?.size === 0) bySession.delete(conn.sessionId);
    }
    const member = members.get(conn.userId);
    if (!member?.conns.delete(conn)) return;
    member.topics -= conn.pending?.size ?? 0;
    conn.pending = null;
    if (member.conns.size === 0) {
      members.delete(conn.userId);
      opts.onLastSocket(conn.userId);
    }
  }

  // The listeners of every socket: one function each for all of them, not closures per socket.
  function onSocketMessage(
    this: HubSocket,
    raw: Buffer | ArrayBuffer | Buffer[],
    isBinary: boolean,
  ) {
    const conn = this[kConn];
    if (conn) onMessage(conn, raw, isBinary);
  }
  function onSocketPong(this: HubSocket) {
    const conn = this[kConn];
    if (conn) conn.alive = true;
  }
  function onSocketClose(this: HubSocket) {
    const conn = this[kConn];
    if (conn) remove(conn);
  }
  let seq = 0;

  return {
    topicKinds,
    frameHandlers,

    /**
     * Takes a socket the handshake accepted. Past the member's socket cap it is closed at once
     * with 4429 and null is returned: counting here, not before the upgrade, means handshakes
     * racing each other cannot all slip under the cap.
     */
    accept(
      ws: WebSocket,
      userId: string,
      session?: { id: string; expiresAt: Date },
    ): Connection | null {
      let member = members.get(userId);
      if (member && member.conns.size >= limits.maxSocketsPerMember) {
        ws.close(CLOSE.tooManySockets, 'too many sockets');
        return null;
      }
      const conn: Connection = {
        seq: ++seq,
        userId,
        sessionId: session?.id ?? null,
        sessionExpiresAt: session?.expiresAt.getTime() ?? Number.POSITIVE_INFINITY,
        sessionCheckedAt: Date.now(),
        ws,
        topics: null,
        pending: null,
        alive: true,
      };
      const first = !member;
      if (!member) {
        member = { conns: new Set(), topics: 0, queue: SETTLED, queued: 0 };
        members.set(userId, member);
      }
      member.conns.add(conn);
      if (conn.sessionId) {
        let same = bySession.get(conn.sessionId);
        if (!same) bySession.set(conn.sessionId, (same = new Set()));
        same.add(conn);
      }
      if (first) opts.onFirstSocket(userId);
      (ws as HubSocket)[kConn] = conn;
      ws.on('message', onSocketMessage);
      ws.on('pong', onSocketPong);
      ws.on('close', onSocketClose);
      return conn;
    },

    deliver(message: BusMessage) {
      const targets = new Set<Connection>();
      for (const userId of message.users ?? []) {
        for (const conn of members.get(userId)?.conns ?? []) targets.add(conn);
      }
      if (message.disconnect) {
        for (const sessionId of message.sessions ?? []) {
          for (const conn of bySession.get(sessionId) ?? []) targets.add(conn);
        }
        const { code, reason } = message.disconnect;
        for (const conn of targets) conn.ws.close(code, reason);
        return;
      }
      if (message.topic) {
        if (message.leave) {
          for (const conn of targets) unsubscribe(conn, message.topic);
          return;
        }
        const except = new Set(message.exceptUsers ?? []);
        for (const conn of byTopic.get(message.topic) ?? []) {
          if (!except.has(conn.userId)) targets.add(conn);
        }
      }
      if (!targets.size) return;
      const frame = encodeFrame(message.event);
      for (const conn of targets) send(conn, frame);
    },

    /**
     * Pings every socket; one that did not answer the previous ping is dropped. A socket whose
     * session reached its expiry is checked again (use may have extended it) and closed if ended.
     */
    heartbeat() {
      const now = Date.now();
      for (const member of members.values()) {
        for (const conn of member.conns) {
          if (!conn.alive) {
            conn.ws.terminate();
            continue;
          }
          conn.alive = false;
          try {
            conn.ws.ping();
          } catch {
            conn.ws.terminate();
            continue;
          }
          if (conn.sessionExpiresAt <= now) enqueue(conn, async () => {});
        }
      }
      budgets.sweep(now, (userId) => members.has(userId));
    },

    socketCount(userId?: string): number {
      if (userId) return members.get(userId)?.conns.size ?? 0;
      let n = 0;
      for (const member of members.values()) n += member.conns.size;
      return n;
    },

    /** Members with a socket on this process. */
    memberIds(): string[] {
      return [...members.keys()];
    },

    /** Forgets a member's sockets without closing them (the service is closing). */
    forget(userId: string) {
      members.delete(userId);
    },

    closeAll(code: number, reason: string) {
      for (const member of members.values()) {
        for (const conn of member.conns) conn.ws.close(code, reason);
      }
    },
  };
}

export type SocketHub = ReturnType<typeof createSocketHub>;
