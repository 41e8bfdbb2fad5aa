import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { ClientFrame, WireEvent } from './types';

/**
 * What one member may cost this process. Every budget is the member's, shared by all their
 * sockets (tabs), so opening more sockets buys a flooder nothing and other members keep theirs.
 */
export interface SocketLimits {
  /** Frames per second a member may send on average, and the burst they may spend at once. */
  framesPerSecond: number;
  burst: number;
  /** Topics one socket may hold, and one member over all their sockets. */
  maxTopics: number;
  maxTopicsPerMember: number;
  /** Sockets one member may hold on this process; one more is closed with 4429. */
  maxSocketsPerMember: number;
  /** Frames of one member waiting for their turn (their work runs one frame at a time). */
  maxQueued: number;
  /** A socket whose unsent output grows past this is too slow to keep (bytes). */
  maxBufferedBytes: number;
}

/** A member's share of this process: their sockets, frame budget and the queue of their work. */
export interface MemberState {
  conns: Set<Connection>;
  /** Topic subscriptions over all their sockets, pending ones included. */
  topics: number;
  queue: Promise<void>;
  queued: number;
}

/**
 * One socket as the hub keeps it while it is open: only what delivery, the budgets and the session
 * rule need, so that ten thousand idle sockets cost little (docs/decisions/0081). Its listeners
 * are the hub's own functions, shared by every socket; the sets are made on first use.
 */
export interface Connection {
  /** Its number on this process; `${processId}:${seq}` is its id across processes. */
  seq: number;
  userId: string;
  /** The session the socket was opened with: ending it closes the socket. */
  sessionId: string | null;
  /** When that session expires unless extended meanwhile (ms since epoch). */
  sessionExpiresAt: number;
  /** When the session was last found alive in the database (the handshake resolved it). */
  sessionCheckedAt: number;
  ws: WebSocket;
  /** Its topics (null until the first). */
  topics: Set<string> | null;
  /** Subscriptions being authorised: they count towards the caps already (null until the first). */
  pending: Set<string> | null;
  alive: boolean;
}

/** The hub's record of a socket, kept on the socket so that shared listeners find it. */
export const kConn = Symbol('realtime connection');
export type HubSocket = WebSocket & { [kConn]?: Connection };

/** An idle member's queue: one settled promise for all of them. */
export const SETTLED: Promise<void> = Promise.resolve();

/** Sent as text frames (a Buffer would otherwise go as a binary frame). */
export const TEXT = { binary: false } as const;

/** An event as the bytes of its text frame: encoded once however many sockets receive it. */
export function encodeFrame(event: WireEvent): Buffer {
  return Buffer.from(JSON.stringify(event));
}

/**
 * The TCP socket under a WebSocket. `ws` keeps it as `_socket` (its only handle on it, stable
 * across ws 7 to 8); absent (a test double), frames are simply not batched.
 */
export function rawSocket(ws: WebSocket): Socket | undefined {
  const raw = (ws as unknown as { _socket?: Socket })._socket;
  return raw && typeof raw.cork === 'function' && !raw.destroyed ? raw : undefined;
}

/**
 * While session news is live, how long a socket's session is trusted without a query: the news
 * closes an ended session's sockets at once; this bounds what no news announces (the 30-day
 * limit passing while the row stays).
 */
export const SESSION_RECHECK_MS = 5 * 60_000;

export type TopicAuthorizer = (userId: string, id: string) => Promise<boolean>;
export type FrameHandler = (frame: ClientFrame<WireEvent>) => void | Promise<void>;
/** The session's expiry when it still lives, null when it ended. */
export type SessionLookup = (sessionId: string) => Promise<Date | null>;
