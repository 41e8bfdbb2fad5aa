/**
 * WebSocket close codes of /api/realtime, shared by the server that sends them and the browser
 * client that acts on them. What the client does is part of the contract:
 * - goingAway (1001): the server is closing or draining; reconnect with backoff and jitter.
 * - policy (1008): a malformed frame, or the member's frame budget is spent; reconnect with backoff.
 * - tooBig (1009): a frame over the size limit; reconnect with backoff.
 * - restart (1012): the server process is draining (SIGTERM) or events may have been missed;
 *   reconnect after a random 0.5-5 s (so the tabs of a draining process do not all come back at
 *   once; the load balancer sends them to another process) and fetch what was missed over HTTP.
 * - sessionEnded (4401): the session this socket was opened with ended (sign-out, another device
 *   signed this one out, password reset, suspension, deletion, expiry). Never reconnect on it:
 *   the tab asks the server whether it is still signed in, and only a live session starts a new
 *   socket.
 * - tooManySockets (4429): the member already holds the most sockets allowed (tabs); wait long
 *   (tens of seconds, with jitter) before trying again.
 * Application codes are 4000-4999; the browser reports a handshake refused over HTTP as 1006.
 */
export const REALTIME_CLOSE = {
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  restart: 1012,
  sessionEnded: 4401,
  tooManySockets: 4429,
} as const;

export type RealtimeCloseCode = (typeof REALTIME_CLOSE)[keyof typeof REALTIME_CLOSE];

/** Topic kind of a chat room's live events (`chat.typing`): `room:<roomId>`. */
export const ROOM_TOPIC_KIND = 'room';
export const roomTopic = (roomId: string) => `${ROOM_TOPIC_KIND}:${roomId}`;
