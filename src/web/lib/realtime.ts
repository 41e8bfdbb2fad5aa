// The browser side of the realtime service: one WebSocket per tab at /api/realtime while a member
// is signed in. It reconnects with exponential backoff and full jitter, subscribes again to the
// tab's topics, and then runs every `onReconnect` handler so features fetch what they missed
// (delivery over the socket is at most once). Frames are never queued: best effort, except a
// chat.send (`sendChatFrame`), which waits for its answer and is sent again after a reconnect
// until answered or timed out; the caller then falls back to HTTP with the same client id.
// The browser going offline drops the socket at once (the next try waits for 'online').
// Close code 4401 means the session this socket was opened with ended (sign-out on this or another
// device, password reset, suspension): the client stops and tells the app, which asks the server
// whether this browser is still signed in and starts the socket again only if it is. 4429 means
// the member holds the most sockets allowed: the next try waits tens of seconds. 1012 and 1001
// mean the server process is draining or restarting: the next try waits 0.5-5 s at random.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { REALTIME_CLOSE } from '@shared/realtime';
import type {
  RealtimeClientFrames,
  RealtimeClientFrameType,
  RealtimeEvent,
  RealtimeEventType,
} from '@shared/realtimeEvents';

// The events and frames, by name and payload: src/shared/realtimeEvents.ts.
export type { RealtimeEvent, RealtimeEventType };
export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'closed';

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;
/** A connection that lived this long was healthy: the next failure starts the backoff over. */
const HEALTHY_MS = 10_000;
/** The server closed the socket because its session ended (see @shared/realtime). */
export const SESSION_ENDED = REALTIME_CLOSE.sessionEnded;

/**
 * After 1001 or 1012 a server process is draining or restarting and closes every socket it holds
 * at once: each tab waits 0.5 to 5 s, at random, so they do not all come back in the same instant.
 */
const RESTART_MIN_MS = 500;
const RESTART_SPREAD_MS = 4_500;

/**
 * How long to wait before reconnecting after a close with this code, at this attempt: full
 * jitter within the exponential backoff; after 1001/1012 (draining, restart) at least 0.5-5 s at
 * random; after 4429 (too many sockets) at least half the cap, so a member's surplus tabs do not
 * keep knocking. null: do not reconnect (4401).
 */
export function reconnectDelay(code: number, attempt: number, random = Math.random): number | null {
  if (code === REALTIME_CLOSE.sessionEnded) return null;
  const r = random();
  if (code === REALTIME_CLOSE.tooManySockets) return (BACKOFF_CAP_MS / 2) * (1 + r);
  const backoff = r * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  if (code === REALTIME_CLOSE.goingAway || code === REALTIME_CLOSE.restart)
    return Math.max(backoff, RESTART_MIN_MS + r * RESTART_SPREAD_MS);
  return backoff;
}

type Listener = (event: RealtimeEvent) => void;
const listeners = new Map<string, Set<Listener>>();
const topics = new Map<string, number>();
const reconnectHandlers = new Set<() => void>();
const sessionEndedHandlers = new Set<() => void>();
const statusListeners = new Set<() => void>();

let status: RealtimeStatus = 'idle';
let socket: WebSocket | null = null;
let url = '';
let wanted = false;
let everOpened = false;
let attempt = 0;
let openedAt = 0;
let retry: ReturnType<typeof setTimeout> | undefined;

function setStatus(next: RealtimeStatus) {
  if (status === next) return;
  status = next;
  // Readable from outside the app (a journey waits for 'open' before it acts on another member's
  // behalf: events sent before the socket opened are not replayed).
  if (typeof document !== 'undefined') document.documentElement.dataset.realtime = next;
  for (const notify of statusListeners) notify();
}

/**
 * A frame to send. Its fields are typed but may be left out: the server checks each and ignores
 * (or refuses) a frame without them.
 */
type OutgoingFrame<K extends RealtimeClientFrameType> = { type: K } & Partial<
  RealtimeClientFrames[K]
>;

function send<K extends RealtimeClientFrameType>(frame: OutgoingFrame<K>): boolean {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(frame));
  return true;
}

type ChatAnswer = RealtimeEvent<'chat.ack'> | RealtimeEvent<'chat.nack'>;

/** chat.send frames waiting for their chat.ack or chat.nack, by client id. */
const awaiting = new Map<
  string,
  {
    frame: OutgoingFrame<'chat.send'>;
    resolve: (answer: ChatAnswer) => void;
    reject: (err: Error) => void;
    timer: ReturnType<typeof setTimeout>;
  }
>();

/** The socket is not open, or did not answer in time: send over HTTP with the same client id. */
export class RealtimeUnavailable extends Error {
  constructor(reason: 'closed' | 'timeout') {
    super(`realtime ${reason}`);
    this.name = 'RealtimeUnavailable';
  }
}

/** How long a chat.send waits for its answer, reconnects included, before HTTP takes over. */
export const CHAT_SEND_TIMEOUT_MS = 5_000;

function settle(event: RealtimeEvent) {
  if (event.type !== 'chat.ack' && event.type !== 'chat.nack') return;
  const entry = awaiting.get(event.clientId);
  if (!entry) return;
  awaiting.delete(event.clientId);
  clearTimeout(entry.timer);
  entry.resolve(event);
}

/**
 * Sends a message as a chat.send frame and resolves with the server's chat.ack or chat.nack.
 * Rejects with RealtimeUnavailable when the socket is not open now, or when no answer came within
 * `timeoutMs`; a socket that closes meanwhile sends the frame again once it reopens. The server
 * stores a client id once, so a late ack and the caller's HTTP fallback make one message.
 */
export function sendChatFrame(
  frame: RealtimeClientFrames['chat.send'],
  timeoutMs = CHAT_SEND_TIMEOUT_MS,
): Promise<ChatAnswer> {
  const outgoing: OutgoingFrame<'chat.send'> = { type: 'chat.send', ...frame };
  if (!send(outgoing)) return Promise.reject(new RealtimeUnavailable('closed'));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      awaiting.delete(frame.clientId);
      reject(new RealtimeUnavailable('timeout'));
    }, timeoutMs);
    awaiting.set(frame.clientId, { frame: outgoing, resolve, reject, timer });
  });
}

/** Sign-out: nobody is left to answer; the callers' HTTP fallback answers 401. */
function abandonAwaiting() {
  for (const [clientId, entry] of awaiting) {
    awaiting.delete(clientId);
    clearTimeout(entry.timer);
    entry.reject(new RealtimeUnavailable('closed'));
  }
}

function dispatch(event: RealtimeEvent) {
  settle(event);
  for (const listener of [...(listeners.get(event.type) ?? [])]) {
    try {
      listener(event);
    } catch (err) {
      console.error(err);
    }
  }
}

function connect() {
  retry = undefined;
  if (!wanted) return;
  setStatus('connecting');
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    openedAt = Date.now();
    setStatus('open');
    for (const topic of topics.keys()) send({ type: 'subscribe', topic });
    // Unanswered messages again, with their client ids: stored once whatever happened before.
    for (const entry of awaiting.values()) send(entry.frame);
    if (everOpened) for (const handler of [...reconnectHandlers]) handler();
    everOpened = true;
  };
  ws.onmessage = (message) => {
    let event: RealtimeEvent;
    try {
      event = JSON.parse(String(message.data)) as RealtimeEvent;
    } catch {
      return;
    }
    if (event && typeof event.type === 'string') dispatch(event);
  };
  // A close always follows an error; the backoff starts there.
  ws.onerror = () => {};
  ws.onclose = (event) => {
    if (socket !== ws) return;
    socket = null;
    if (openedAt && Date.now() - openedAt > HEALTHY_MS) attempt = 0;
    openedAt = 0;
    setStatus('closed');
    if (!wanted) return;
    const delay = reconnectDelay(event.code, attempt);
    if (delay === null) {
      // Reconnecting would reuse a dead session: stop, and let the app find out who is signed in.
      stopRealtime();
      setStatus('closed');
      for (const handler of [...sessionEndedHandlers]) handler();
      return;
    }
    attempt = Math.min(attempt + 1, 16);
    retry = setTimeout(connect, delay);
  };
}

/** Back online or back on the tab: no reason to sit out the rest of a long backoff. */
function reconnectNow() {
  if (!wanted || socket || retry === undefined) return;
  clearTimeout(retry);
  connect();
}

/**
 * The browser says it is offline: the socket is as good as gone (a dead connection can take long
 * to close by itself, and a chat.send into it would wait for nothing). It is dropped now and the
 * next try waits for the backoff, or for 'online'; frames awaiting an answer are sent again then.
 */
function dropOffline() {
  if (!wanted || !socket) return;
  const ws = socket;
  socket = null;
  ws.onclose = null;
  ws.close();
  openedAt = 0;
  setStatus('closed');
  clearTimeout(retry);
  attempt = Math.min(attempt + 1, 16);
  retry = setTimeout(connect, reconnectDelay(1006, attempt) ?? BACKOFF_CAP_MS);
}

/** Opens the tab's socket (on sign-in). `endpoint` defaults to this origin's /api/realtime. */
export function startRealtime(endpoint?: string): void {
  if (wanted) return;
  wanted = true;
  everOpened = false;
  attempt = 0;
  url =
    endpoint ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/realtime`;
  if (typeof window !== 'undefined') {
    window.addEventListener('online', reconnectNow);
    window.addEventListener('offline', dropOffline);
    document.addEventListener('visibilitychange', reconnectNow);
  }
  connect();
}

/** Closes the tab's socket for good (on sign-out). */
export function stopRealtime(): void {
  if (!wanted) return;
  wanted = false;
  clearTimeout(retry);
  retry = undefined;
  if (typeof window !== 'undefined') {
    window.removeEventListener('online', reconnectNow);
    window.removeEventListener('offline', dropOffline);
    document.removeEventListener('visibilitychange', reconnectNow);
  }
  const ws = socket;
  socket = null;
  ws?.close(1000);
  abandonAwaiting();
  setStatus('idle');
}

/** Listens to events of one type; returns the function that stops listening. */
export function onRealtimeEvent<K extends RealtimeEventType>(
  type: K,
  listener: (event: RealtimeEvent<K>) => void,
): () => void {
  // Dispatched by `type`: this listener only ever gets events of type K.
  const entry = listener as Listener;
  let set = listeners.get(type);
  if (!set) listeners.set(type, (set = new Set()));
  set.add(entry);
  return () => {
    set.delete(entry);
    if (!set.size) listeners.delete(type);
  };
}

/** Subscribes the tab to a topic (counted: several components may hold the same topic). */
export function holdRealtimeTopic(topic: string): () => void {
  const count = topics.get(topic) ?? 0;
  topics.set(topic, count + 1);
  if (count === 0) send({ type: 'subscribe', topic });
  return () => {
    const left = (topics.get(topic) ?? 1) - 1;
    if (left > 0) return void topics.set(topic, left);
    topics.delete(topic);
    send({ type: 'unsubscribe', topic });
  };
}

/**
 * Runs `handler` when the server closed the socket because its session ended (4401); the socket
 * stays stopped until started again.
 */
export function onRealtimeSessionEnded(handler: () => void): () => void {
  sessionEndedHandlers.add(handler);
  return () => sessionEndedHandlers.delete(handler);
}

export function onRealtimeReconnect(handler: () => void): () => void {
  reconnectHandlers.add(handler);
  return () => reconnectHandlers.delete(handler);
}

/** Opens the socket while `active` (a signed-in member's id) is set; used once by the app shell. */
export function useRealtimeConnection(active: string | null): void {
  useEffect(() => {
    if (!active) return;
    startRealtime();
    return stopRealtime;
  }, [active]);
}

/** Runs `handler` for every event of this type while the component is mounted. */
export function useRealtimeEvent<K extends RealtimeEventType>(
  type: K,
  handler: (event: RealtimeEvent<K>) => void,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onRealtimeEvent(type, (event) => latest.current(event)), [type]);
}

/** Subscribes this tab to a topic (`kind:id`) while mounted; null subscribes to nothing. */
export function useRealtimeTopic(topic: string | null): void {
  useEffect(() => (topic ? holdRealtimeTopic(topic) : undefined), [topic]);
}

/** Runs `handler` after every reconnect (not the first connect) while mounted. */
export function useRealtimeReconnect(handler: () => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onRealtimeReconnect(() => latest.current()), []);
}

/** Sends a frame if the socket is open; returns false otherwise (frames are best effort). */
export function sendRealtime<K extends RealtimeClientFrameType>(frame: OutgoingFrame<K>): boolean {
  return send(frame);
}

function subscribeStatus(notify: () => void) {
  statusListeners.add(notify);
  return () => statusListeners.delete(notify);
}

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(
    subscribeStatus,
    () => status,
    () => 'idle',
  );
}
