import type { FastifyBaseLogger } from 'fastify';
import type { ChatMessage } from '@shared/schemas/chats';
import { TYPING_THROTTLE_MS } from '@shared/schemas/chats';
import { ROOM_TOPIC_KIND, roomTopic } from '@shared/realtime';
import type { RealtimeEvent } from '@shared/realtimeEvents';
import type { Realtime } from '../../platform/realtime';
import { isParticipant, isUuid, roomMatesOf } from './queries';
import type { Query } from '../../db/tx';

/** Events carry the whole message only while they stay well under NOTIFY's 8,000 bytes. */
export const MESSAGE_EVENT_MAX_BYTES = 7000;

export function messageEvent(roomId: string, message: ChatMessage): RealtimeEvent<'chat.message'> {
  const full = { type: 'chat.message' as const, roomId, message };
  return Buffer.byteLength(JSON.stringify(full)) <= MESSAGE_EVENT_MAX_BYTES
    ? full
    : { type: 'chat.message', roomId };
}

/**
 * Publishing never fails the request that caused it: the change is committed, and a client that
 * missed the event catches up with ?after= on its next reconnect.
 */
export function createPublisher(realtime: Realtime, log: FastifyBaseLogger) {
  return async (userIds: readonly string[], event: RealtimeEvent) => {
    if (userIds.length === 0) return;
    try {
      await realtime.toUsers(userIds, event);
    } catch (err) {
      log.warn({ err, type: event.type }, 'chat event not published');
    }
  };
}

/**
 * Topic `room:<id>` for participants only, the typing relay (one event per member and room
 * every 2 s) and presence to the members who share a room with someone.
 */
export function registerLiveChat(opts: {
  realtime: Realtime;
  query: Query;
  log: FastifyBaseLogger;
  now: () => Date;
}) {
  const { query, log, now } = opts;
  const { realtime } = opts;
  realtime.topic(ROOM_TOPIC_KIND, (userId, roomId) => isParticipant(query, roomId, userId));

  const lastTyping = new Map<string, number>();
  realtime.onFrame('chat.typing', async (frame) => {
    const roomId = frame.data.roomId;
    if (typeof roomId !== 'string' || !isUuid(roomId)) return;
    const key = `${frame.userId}:${roomId}`;
    const at = now().getTime();
    const previous = lastTyping.get(key);
    if (previous !== undefined && at - previous < TYPING_THROTTLE_MS) return;
    if (!(await isParticipant(query, roomId, frame.userId))) {
      frame.reply({ type: 'error', status: 403, roomId });
      return;
    }
    lastTyping.set(key, at);
    if (lastTyping.size > 10_000) {
      for (const [k, t] of lastTyping) if (at - t >= TYPING_THROTTLE_MS) lastTyping.delete(k);
    }
    const [user] = await query<{ display_name: string }>(
      'select display_name from users where id = $1',
      [frame.userId],
    );
    try {
      await realtime.toTopic(
        roomTopic(roomId),
        {
          type: 'chat.typing',
          roomId,
          userId: frame.userId,
          displayName: user?.display_name ?? '',
        },
        { exceptUserIds: [frame.userId] },
      );
    } catch (err) {
      log.warn({ err }, 'typing not relayed');
    }
  });

  realtime.onPresence(async (userId, online) => {
    try {
      const mates = await roomMatesOf(query, userId);
      if (mates.length === 0) return;
      const [row] = await query<{ last_seen_at: Date | string | null }>(
        'select last_seen_at from users where id = $1',
        [userId],
      );
      const seen = row?.last_seen_at ?? null;
      await realtime.toUsers(mates, {
        type: 'presence',
        userId,
        online,
        lastSeenAt: seen === null ? null : new Date(seen).toISOString(),
      });
    } catch (err) {
      log.warn({ err }, 'presence not published');
    }
  });
}
