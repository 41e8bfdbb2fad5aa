import { ROOMS_PAGE_SIZE, type ChatRoom, type GroupRoomInput } from '@shared/schemas/chats';
import { roomTopic } from '@shared/realtime';
import { badRequest, notFound } from '../../platform/errors';
import { isBlockedBetween } from '../../platform/moderation';
import { inTransaction, type Query } from '../../db/tx';
import { accessDenied, cannotMessage, type ChatContext } from './context';
import { messageEvent } from './events';
import { insertMessage } from './insert';
import { claimHolidayReply } from '../profiles';
import { SUBJECT as NOTIFICATION_SUBJECT } from './notifications';
import { directKey, findMessage, isUuid, listRooms, participantIds, unreadTotal } from './queries';

/**
 * Creates the pair's one direct room, or finds it; both members are (again) participants. A room
 * contacted about a listing is about that listing from now on: the pair's one room may discuss
 * several books over time, and its current book (room.listing, where the offer controls look) is
 * the latest one contacted about (issue 33). `changed` then tells both members to refresh it.
 */
export async function directRoom(
  q: Query,
  me: string,
  other: string,
  listingId: string | null,
): Promise<{ roomId: string; changed: boolean }> {
  const key = directKey(me, other);
  const [created] = await q<{ id: string }>(
    `insert into chat_rooms (is_group, created_by, direct_key, listing_id)
     values (false, $1, $2, $3) on conflict (direct_key) do nothing returning id`,
    [me, key, listingId],
  );
  const roomId =
    created?.id ??
    (await q<{ id: string }>('select id from chat_rooms where direct_key = $1', [key]))[0].id;
  const moved =
    !created && listingId !== null
      ? await q(
          `update chat_rooms set listing_id = $2
           where id = $1 and listing_id is distinct from $2 returning id`,
          [roomId, listingId],
        )
      : [];
  const joined = await q(
    `insert into chat_participants (room_id, user_id) values ($1, $2), ($1, $3)
     on conflict do nothing returning user_id`,
    [roomId, me, other],
  );
  return { roomId, changed: created !== undefined || moved.length > 0 || joined.length > 0 };
}

/** Conversations: the member's rooms, direct and group rooms, leaving one, reading it. */
export function roomActions(ctx: ChatContext) {
  const { deps, database, realtime, log, query, publish, onlineAmong, orFail, roomFor } = ctx;
  const { publishMessage } = ctx;
  return {
    async rooms(userId: string, page = 1, pageSize = ROOMS_PAGE_SIZE) {
      const { items, total } = await listRooms(query, userId, { page, pageSize }, onlineAmong);
      return { items, page, pageSize, total };
    },

    unread: (userId: string) => unreadTotal(query, userId),

    room: roomFor,

    async direct(userId: string, otherId: string): Promise<{ room: ChatRoom; created: boolean }> {
      if (otherId === userId)
        throw badRequest('chatApi.errors.selfChat', { userId: 'chatApi.errors.selfChat' });
      // A suspended (or deleted) member is out of reach: as unknown as one who never signed up.
      const [other] = await query(
        `select id from users where id = $1 and account_status = 'active'`,
        [otherId],
      );
      if (!other) throw notFound('chatApi.errors.userNotFound');
      if (await isBlockedBetween(query, userId, otherId)) throw cannotMessage();
      const { roomId, changed, replyId } = await orFail('chatApi.errors.startFailed', () =>
        inTransaction(database, async (q) => {
          const room = await directRoom(q, userId, otherId, null);
          // A member on holiday answers a conversation started with them once per holiday, as
          // when contacted about a listing (profiles/holiday.ts): here before any first message.
          const away = await claimHolidayReply(q, room.roomId, otherId, deps.now());
          const replyId = away
            ? await insertMessage(q, {
                roomId: room.roomId,
                senderId: otherId,
                type: 'system',
                content: away,
              })
            : null;
          return { ...room, replyId };
        }),
      );
      if (changed) await publish([userId, otherId], { type: 'chat.room', roomId });
      if (replyId) await publishMessage(roomId, replyId);
      return { room: await roomFor(roomId, userId), created: changed };
    },

    async createGroup(userId: string, input: GroupRoomInput): Promise<ChatRoom> {
      const others = [...new Set(input.participantIds.map((id) => id.trim()))].filter(
        (id) => id !== userId,
      );
      const field = (key: string) => badRequest(key, { participantIds: key });
      if (others.length < 2) throw field('chatApi.validation.groupTooFew');
      const known = await query<{ id: string }>('select id from users where id = any($1::text[])', [
        others,
      ]);
      if (known.length !== others.length) throw field('chatApi.errors.userNotFound');
      const friends = await query<{ id: string }>(
        `select case when requester_id = $1 then addressee_id else requester_id end as id
         from connections where status = 'accepted'
           and ((requester_id = $1 and addressee_id = any($2::text[]))
             or (addressee_id = $1 and requester_id = any($2::text[])))`,
        [userId, others],
      );
      const friendIds = new Set(friends.map((f) => f.id));
      if (others.some((id) => !friendIds.has(id))) throw field('chatApi.errors.friendsOnly');
      const roomId = await orFail('chatApi.errors.createFailed', () =>
        inTransaction(database, async (q) => {
          const [room] = await q<{ id: string }>(
            `insert into chat_rooms (name, description, is_group, created_by)
             values ($1, $2, true, $3) returning id`,
            [input.name.trim(), input.description?.trim() || null, userId],
          );
          await q(
            `insert into chat_participants (room_id, user_id)
             select $1, unnest($2::text[]) on conflict do nothing`,
            [room.id, [userId, ...others]],
          );
          return room.id;
        }),
      );
      await publish([userId, ...others], { type: 'chat.room', roomId });
      return roomFor(roomId, userId);
    },

    async leave(userId: string, roomId: string): Promise<void> {
      if (!isUuid(roomId)) throw accessDenied();
      const result = await inTransaction(database, async (q) => {
        const left = await q(
          'delete from chat_participants where room_id = $1 and user_id = $2 returning user_id',
          [roomId, userId],
        );
        if (left.length === 0) return null;
        const remaining = await participantIds(q, roomId);
        if (remaining.length === 0) {
          await q('delete from chat_rooms where id = $1', [roomId]);
          return { remaining, messageId: null, deleted: true };
        }
        // "X left": a system message whose sender is the member who left (content is a code).
        const [row] = await q<{ id: string }>(
          `with ins as (insert into chat_messages (room_id, sender_id, type, content)
             values ($1, $2, 'system', 'left') returning id, created_at),
           bump as (update chat_rooms r set updated_at = ins.created_at from ins
             where r.id = $1 returning r.id)
           select id from ins`,
          [roomId, userId],
        );
        return { remaining, messageId: row.id, deleted: false };
      });
      if (!result) throw accessDenied();
      if (result.deleted) await deps.notifications?.removeForSubject(NOTIFICATION_SUBJECT, roomId);
      // A subscription is authorised once, when made: end it, or typing would still reach them.
      await realtime
        .leaveTopic?.([userId], roomTopic(roomId))
        .catch((err) => log.warn({ err }, 'room subscription not ended'));
      await publish([userId, ...result.remaining], { type: 'chat.room', roomId });
      if (result.messageId) {
        const message = (await findMessage(query, result.messageId))!;
        await publish(result.remaining, messageEvent(roomId, message));
      }
    },

    async markRead(userId: string, roomId: string): Promise<void> {
      if (!isUuid(roomId)) throw accessDenied();
      // Up to the newest message there is (not "now"): one committed a moment later stays unread.
      const [row] = await query<{ last_read_at: Date }>(
        `update chat_participants p set last_read_at = greatest(p.last_read_at,
           coalesce((select max(m.created_at) from chat_messages m where m.room_id = p.room_id),
             p.last_read_at))
         where p.room_id = $1 and p.user_id = $2 returning p.last_read_at`,
        [roomId, userId],
      );
      if (!row) throw accessDenied();
      await publish(await participantIds(query, roomId), {
        type: 'chat.read',
        roomId,
        userId,
        at: new Date(row.last_read_at).toISOString(),
      });
      // The contract also refreshes the reader's own other tabs with a room event.
      await publish([userId], { type: 'chat.room', roomId });
    },
  };
}
