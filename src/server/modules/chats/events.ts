import type { FastifyBaseLogger } from 'fastify';
import type { ChatMessage } from '@shared/schemas/chats';
import { TYPING_THROTTLE_MS } from '@shared/schemas/chats';
import { ROOM_TOPIC_KIND, roomTopic } from '@shared/realtime';
import type { RealtimeEvent } from '@shared/realtimeEvents';
import type { Realtime } from '../../platform/realtime';
import { isParticipant, isUuid } from './queries';
import { blockedBetween } from '../../platform/moderation/blocks';
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

  /** Tells each changed member's room mates, all changes of a batch resolved in one query. */
  const publishPresence = async (changes: readonly { userId: string; online: boolean }[]) => {
    // The last change of a member in the batch is the one that stands.
    const latest = new Map(changes.map((c) => [c.userId, c.online]));
    if (latest.size === 0) return;
    try {
      const rows = await query<{
        user_id: string;
        mate_id: string;
        last_seen_at: Date | null;
      }>(
        // A block keeps presence apart both ways: the blocked member stops seeing the blocker's.
        `select distinct p1.user_id, p2.user_id as mate_id, u.last_seen_at
         from chat_participants p1
         join chat_participants p2 on p2.room_id = p1.room_id and p2.user_id <> p1.user_id
         join users u on u.id = p1.user_id
         where p1.user_id = any($1::text[])
           and not ${blockedBetween('p1.user_id', 'p2.user_id')}`,
        [[...latest.keys()]],
      );
      const byMember = new Map<string, { mates: string[]; seen: Date | null }>();
      for (const r of rows) {
        const entry = byMember.get(r.user_id) ?? { mates: [], seen: r.last_seen_at };
        entry.mates.push(r.mate_id);
        byMember.set(r.user_id, entry);
      }
      for (const [userId, { mates, seen }] of byMember)
        await realtime.toUsers(mates, {
          type: 'presence',
          userId,
          online: latest.get(userId)!,
          lastSeenAt: seen === null ? null : new Date(seen).toISOString(),
        });
    } catch (err) {
      log.warn({ err }, 'presence not published');
    }
  };
  if (realtime.onPresenceChanges) realtime.onPresenceChanges(publishPresence);
  else realtime.onPresence((userId, online) => publishPresence([{ userId, online }]));
}
