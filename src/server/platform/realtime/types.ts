import { REALTIME_CLOSE } from '@shared/realtime';
import type { RealtimeClientFrameType, RealtimeEvent } from '@shared/realtimeEvents';

export type { RealtimeEvent };

/** WebSocket close codes the service sends; their meaning for clients is in @shared/realtime. */
export const CLOSE = REALTIME_CLOSE;

/**
 * What the transport carries: any small JSON object with a string `type`. Features publish only
 * the events of the contract (@shared/realtimeEvents) through `Realtime`; the service itself
 * carries any, which its own tests use. A payload that does not fit the cross-process limit
 * (PostgreSQL NOTIFY refuses more than 8,000 bytes) is refused by `publish`, so features send
 * ids and let clients fetch the rest.
 */
export interface WireEvent {
  type: string;
  [key: string]: unknown;
}

/** A frame a client sent, after the service checked its size, shape and rate. */
export interface ClientFrame<E extends WireEvent = RealtimeEvent> {
  userId: string;
  /** The socket's id, unique across processes. */
  socketId: string;
  /** As sent: untrusted, every field is checked by the handler. */
  data: Record<string, unknown>;
  /** Answers on this socket only. */
  reply(event: E): void;
}

/**
 * The realtime service's contract, which every feature uses (chats, connections, notifications,
 * community). Typed by the events it may send (`E`) and the client frames it may handle (`F`):
 * by default those of @shared/realtimeEvents, so a wrong event name or payload is a type error.
 */
export interface Realtime<
  E extends WireEvent = RealtimeEvent,
  F extends string = RealtimeClientFrameType,
> {
  /** Delivers an event to every live socket of these members, on any server process. */
  toUsers(userIds: readonly string[], event: E): Promise<void>;
  /**
   * Delivers an event to every socket subscribed to a topic (`kind:id`, e.g. `room:<uuid>`),
   * on any server process. `exceptUserIds` leaves out these members' sockets (e.g. the typist).
   */
  toTopic(topic: string, event: E, options?: { exceptUserIds?: readonly string[] }): Promise<void>;
  /**
   * Ends these members' subscriptions to a topic on every process (e.g. a member left a room:
   * a subscription is authorised once, when made). Optional so that fakes need not implement it.
   */
  leaveTopic?(userIds: readonly string[], topic: string): Promise<void>;
  /**
   * Closes every socket of these members on every process (e.g. a suspension ended their
   * sessions: a socket is authorised once, at the handshake). The close code defaults to
   * 4401 (`session ended`), which tells the browser client not to keep reconnecting; another
   * code must be in 4000-4999 (otherwise 4401 is used).
   * Optional so that fakes need not implement it.
   */
  disconnectUsers?(userIds: readonly string[], code?: number): Promise<void>;
  /**
   * Closes the sockets opened with these sessions, on every process, with 4401. Deleting a row of
   * the sessions table does this by itself (a trigger announces it); call this for a session that
   * ends without its row going. Optional so that fakes need not implement it.
   */
  endSessions?(sessionIds: readonly string[]): Promise<void>;
  /**
   * Declares a topic kind. A client subscribes with `{"type":"subscribe","topic":"kind:id"}`;
   * `authorize` decides (once, at subscription); success answers `{"type":"subscribed","topic"}`,
   * a refusal or an unknown kind `{"type":"error","status":403,"topic":...}` and nothing of the
   * topic is revealed; past 50 topics on one socket or 100 over all of a member's sockets on one
   * process, status 429. Authorisations of one member run one at a time.
   */
  topic(kind: string, authorize: (userId: string, id: string) => Promise<boolean>): void;
  /**
   * Handles client frames of one `type` (e.g. 'chat.typing'). A frame of a type nobody handles
   * answers `{"type":"error","status":400,"frameType"}`; a handler's error is logged, not sent.
   * One member's frames are handled one at a time, and only while the socket's session lives.
   */
  onFrame(type: F, handler: (frame: ClientFrame<E>) => void | Promise<void>): void;
  /** True when the member has a live socket on any process. */
  isOnline(userId: string): Promise<boolean>;
  /** The members among these who have a live socket on any process. */
  onlineAmong(userIds: readonly string[]): Promise<Set<string>>;
  /**
   * Called on the process where a member's presence changed: first socket anywhere opened
   * (online) or last socket anywhere closed (offline; `last_seen_at` is already written). For a
   * process that died, its members go offline on the live process that expired its rows (within
   * about 80 s; `last_seen_at` is then the dead process's last minute-by-minute update).
   */
  onPresence(handler: (userId: string, online: boolean) => void | Promise<void>): void;
  /**
   * The same changes, a batch at a time (every change written in one presence write, about
   * 50 ms of them): a feature that tells watchers resolves them in one query per batch instead
   * of one per change. Optional so that fakes need not implement it.
   */
  onPresenceChanges?(
    handler: (changes: { userId: string; online: boolean }[]) => void | Promise<void>,
  ): void;
  close(): Promise<void>;
}
