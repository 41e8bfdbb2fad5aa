import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { BusMessage } from './bus';
import type { ClientFrame, RealtimeEvent } from './types';

/** WebSocket close codes the service uses. */
export const CLOSE = {
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  restart: 1012,
  /** The member's sessions ended (suspension): the client must not reconnect with them. */
  sessionEnded: 4401,
} as const;

export interface SocketLimits {
  /** Frames per second a socket may send on average, and the burst it may spend at once. */
  framesPerSecond: number;
  burst: number;
  maxTopics: number;
  /** A socket whose unsent output grows past this is too slow to keep (bytes). */
  maxBufferedBytes: number;
}

export interface Connection {
  id: string;
  userId: string;
  ws: WebSocket;
  topics: Set<string>;
  /** Subscriptions being authorised: they count towards the cap already. */
  pending: Set<string>;
  tokens: number;
  refilledAt: number;
  alive: boolean;
}

type TopicAuthorizer = (userId: string, id: string) => Promise<boolean>;
type FrameHandler = (frame: ClientFrame) => void | Promise<void>;

/** The sockets of this process: who holds them, what they subscribed to, what they may send. */
export function createSocketHub(opts: {
  processId: string;
  limits: SocketLimits;
  onFirstSocket: (userId: string) => void;
  onLastSocket: (userId: string) => void;
  log: { warn(obj: object, msg: string): void };
}) {
  const { limits } = opts;
  const byUser = new Map<string, Set<Connection>>();
  const byTopic = new Map<string, Set<Connection>>();
  const topicKinds = new Map<string, TopicAuthorizer>();
  const frameHandlers = new Map<string, FrameHandler>();

  const send = (conn: Connection, text: string) => {
    if (conn.ws.readyState !== conn.ws.OPEN) return;
    if (conn.ws.bufferedAmount > limits.maxBufferedBytes) {
      conn.ws.terminate();
      return;
    }
    conn.ws.send(text);
  };
  const reply = (conn: Connection, event: RealtimeEvent) => send(conn, JSON.stringify(event));

  function unsubscribe(conn: Connection, topic: string) {
    conn.topics.delete(topic);
    const set = byTopic.get(topic);
    set?.delete(conn);
    if (set?.size === 0) byTopic.delete(topic);
  }

  async function subscribe(conn: Connection, topic: unknown) {
    if (typeof topic !== 'string' || topic.length > 200) {
      return reply(conn, { type: 'error', status: 400, topic: null });
    }
    if (conn.topics.has(topic)) return reply(conn, { type: 'subscribed', topic });
    if (conn.pending.has(topic)) return;
    if (conn.topics.size + conn.pending.size >= limits.maxTopics) {
      return reply(conn, { type: 'error', status: 429, topic });
    }
    const colon = topic.indexOf(':');
    const authorize = colon > 0 ? topicKinds.get(topic.slice(0, colon)) : undefined;
    const id = topic.slice(colon + 1);
    let allowed = false;
    if (authorize && id) {
      conn.pending.add(topic);
      try {
        allowed = await authorize(conn.userId, id);
      } catch (err) {
        opts.log.warn({ err, topic }, 'realtime: topic authorisation failed');
      } finally {
        conn.pending.delete(topic);
      }
    }
    if (!allowed) return reply(conn, { type: 'error', status: 403, topic });
    if (conn.ws.readyState !== conn.ws.OPEN) return;
    conn.topics.add(topic);
    let set = byTopic.get(topic);
    if (!set) byTopic.set(topic, (set = new Set()));
    set.add(conn);
    reply(conn, { type: 'subscribed', topic });
  }

  /** Token bucket: false when the socket sent more than its share. */
  function spend(conn: Connection): boolean {
    const now = Date.now();
    conn.tokens = Math.min(
      limits.burst,
      conn.tokens + ((now - conn.refilledAt) / 1000) * limits.framesPerSecond,
    );
    conn.refilledAt = now;
    if (conn.tokens < 1) return false;
    conn.tokens -= 1;
    return true;
  }

  function onMessage(conn: Connection, raw: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) {
    if (!spend(conn)) return conn.ws.close(CLOSE.policy, 'rate limit');
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
    if (frame.type === 'subscribe') return void subscribe(conn, frame.topic);
    if (frame.type === 'unsubscribe') {
      if (typeof frame.topic === 'string') unsubscribe(conn, frame.topic);
      return;
    }
    const handler = frameHandlers.get(frame.type);
    if (!handler) return reply(conn, { type: 'error', status: 400, frameType: frame.type });
    const clientFrame: ClientFrame = {
      userId: conn.userId,
      socketId: conn.id,
      data: frame,
      reply: (event) => reply(conn, event),
    };
    try {
      const result = handler(clientFrame);
      if (result instanceof Promise) {
        result.catch((err) => opts.log.warn({ err, type: frame.type }, 'realtime: frame handler'));
      }
    } catch (err) {
      opts.log.warn({ err, type: frame.type }, 'realtime: frame handler failed');
    }
  }

  function remove(conn: Connection) {
    for (const topic of [...conn.topics]) unsubscribe(conn, topic);
    const set = byUser.get(conn.userId);
    if (!set?.delete(conn)) return;
    if (set.size === 0) {
      byUser.delete(conn.userId);
      opts.onLastSocket(conn.userId);
    }
  }

  return {
    topicKinds,
    frameHandlers,
    byUser,

    accept(ws: WebSocket, userId: string): Connection {
      const conn: Connection = {
        id: `${opts.processId}:${randomUUID()}`,
        userId,
        ws,
        topics: new Set(),
        pending: new Set(),
        tokens: limits.burst,
        refilledAt: Date.now(),
        alive: true,
      };
      let set = byUser.get(userId);
      const first = !set;
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(conn);
      if (first) opts.onFirstSocket(userId);
      ws.on('message', (raw, isBinary) => onMessage(conn, raw, isBinary));
      ws.on('pong', () => (conn.alive = true));
      ws.on('close', () => remove(conn));
      return conn;
    },

    deliver(message: BusMessage) {
      const targets = new Set<Connection>();
      for (const userId of message.users ?? []) {
        for (const conn of byUser.get(userId) ?? []) targets.add(conn);
      }
      if (message.disconnect) {
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
      const text = JSON.stringify(message.event);
      for (const conn of targets) send(conn, text);
    },

    /** Pings every socket; one that did not answer the previous ping is dropped. */
    heartbeat() {
      for (const set of byUser.values()) {
        for (const conn of set) {
          if (!conn.alive) {
            conn.ws.terminate();
            continue;
          }
          conn.alive = false;
          try {
            conn.ws.ping();
          } catch {
            conn.ws.terminate();
          }
        }
      }
    },

    socketCount(userId?: string): number {
      if (userId) return byUser.get(userId)?.size ?? 0;
      let n = 0;
      for (const set of byUser.values()) n += set.size;
      return n;
    },

    closeAll(code: number, reason: string) {
      for (const set of byUser.values()) for (const conn of set) conn.ws.close(code, reason);
    },
  };
}

export type SocketHub = ReturnType<typeof createSocketHub>;
