import type { Notifications } from '../../platform/notifications';
import type { Query } from '../../db/tx';

/** Room notifications (offers', deals' steps) are about a conversation: they open that chat. */
export const SUBJECT = 'room';

/**
 * A notification type about a conversation (its subject is the room): it opens that chat and is
 * shown while the recipient is still in the room. Offers' and deals' steps use it.
 */
export function defineRoomNotification(
  notifications: Notifications,
  query: Query,
  type: string,
  defaults: { inApp: boolean; email: boolean },
) {
  notifications.defineType({
    type,
    defaults,
    // About a conversation, which a block leaves standing with its history, and a sale under way
    // in it (decision 0036): it reaches across a block (audience.ts).
    acrossBlocks: true,
    link: ({ subjectId, recipientId }) =>
      `/profile/${encodeURIComponent(recipientId)}/chats?room=${encodeURIComponent(subjectId)}`,
    visible: async (recipientId, ids) => {
      const rows = await query<{ room_id: string }>(
        `select room_id::text as room_id from chat_participants
         where user_id = $1 and room_id = any($2::uuid[])`,
        [recipientId, ids],
      );
      return new Set(rows.map((r) => r.room_id));
    },
  });
}
