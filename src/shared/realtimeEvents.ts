/**
 * The realtime contract: every event the server sends over /api/realtime and every frame a tab
 * sends back, by name, with its payload. The server publishes only these (`Realtime` in
 * src/server/platform/realtime) and the browser listens only to these (`useRealtimeEvent` in
 * src/web/lib/realtime.ts), so a wrong name or payload is a type error on both sides.
 *
 * On the wire an event is one JSON object: its name in `type`, its payload beside it, e.g.
 * `{"type":"chat.room","roomId":"…"}`. Events carry ids and short facts (NOTIFY's 8,000-byte
 * limit); clients fetch the rest over HTTP, and after a reconnect fetch what they missed.
 * Close codes are in ./realtime.ts.
 */
import type { ChatMessage } from './schemas/chats';
import type { ListingStatus } from './marketplaceConstants';

/** Events from the server, by name: what each carries besides `type`. */
export type RealtimeEvents = {
  // To the room's participants (after a block, chat.message.updated goes to the blocker only).
  /** A new message; `message` is left out when the event would be too large (fetch it). */
  'chat.message': { roomId: string; message?: ChatMessage };
  /** A message was edited or deleted, or its offer changed: refetch it. */
  'chat.message.updated': { roomId: string; messageId: string };
  /** A member read the room up to `at` (ISO time). */
  'chat.read': { roomId: string; userId: string; at: string };
  /** The room appeared, changed or was left: refresh the room list and the room. */
  'chat.room': { roomId: string };
  // To the members of the rooms that show the listing (chats/listing-events.ts).
  /** The listing's status changed (sold, reserved, available again; hidden: unavailable); null: deleted. */
  'chat.listing': { listingId: string; status: ListingStatus | null };
  // To the topic room:<roomId>, except the typist.
  'chat.typing': { roomId: string; userId: string; displayName: string };
  // To the members who share a room with `userId`.
  presence: { userId: string; online: boolean; lastSeenAt: string | null };
  // To both members of the connection (after a block, to the blocker only).
  'connection.changed': { connectionId: string };
  // To the recipient: their unread count.
  'notification.new': { unread: number };
  'notification.read': { unread: number };
  /**
   * To the members who wish the listing's book: it became available or stopped being available
   * (sold, reserved, deleted): refetch the wishlist's "available now".
   */
  'wishlist.availability': { listingId: string; available: boolean };
  // To the topic post:<postId> (postTopic in ./schemas/community).
  'community.comment': {
    postId: string;
    commentId: string;
    action: 'created' | 'updated' | 'hidden';
    commentCount: number;
  };
  /** `commentId` null: the post's own like count. */
  'community.reaction': { postId: string; commentId: string | null; likeCount: number };
  /** A moderator removed the post or restored it: refetch it (404 once removed). */
  'community.post': { postId: string; action: 'removed' | 'restored' };
  // Answers on one socket to a chat.send frame (the sender's own socket only).
  /** The message of the frame with this clientId is stored (once, however often it was sent). */
  'chat.ack': { clientId: string; message: ChatMessage };
  /**
   * The chat.send frame with this clientId was refused: `status` and `code` as the HTTP route
   * POST /api/chats/:id/messages would answer (400 invalid, 403 blocked, 404 not a participant,
   * 429 too many); `message` is the error's text in the member's language.
   */
  'chat.nack': { clientId: string; status: number; code: string; message: string };
  // Answers on one socket, from the service itself.
  subscribed: { topic: string };
  /**
   * A frame was refused: 400 bad subscription or unknown frame type (`frameType`), 403 topic not
   * allowed, 429 over the topic or queue budget. A chat.typing frame for a room the member is not
   * in answers 403 with its `roomId`.
   */
  error: { status: number; topic?: string | null; frameType?: string; roomId?: string };
};

export type RealtimeEventType = keyof RealtimeEvents;

/** One event as it travels (`type` and payload); without a name, any event of the contract. */
export type RealtimeEvent<K extends RealtimeEventType = RealtimeEventType> =
  K extends RealtimeEventType ? { type: K } & RealtimeEvents[K] : never;

/** Frames a tab sends, by name. The server checks each field: frames are untrusted input. */
export type RealtimeClientFrames = {
  /** Answered by `subscribed` or `error`. */
  subscribe: { topic: string };
  unsubscribe: { topic: string };
  /** The member is typing in this room (at most one frame every TYPING_THROTTLE_MS). */
  'chat.typing': { roomId: string };
  /**
   * Send a message: answered by chat.ack or chat.nack with the same clientId (a UUID the tab
   * made). A frame sent again with the same clientId (after a reconnect) never stores it twice.
   */
  'chat.send': { clientId: string; roomId: string; content: string };
};

export type RealtimeClientFrameType = keyof RealtimeClientFrames;

export type RealtimeClientFrame<K extends RealtimeClientFrameType = RealtimeClientFrameType> =
  K extends RealtimeClientFrameType ? { type: K } & RealtimeClientFrames[K] : never;
