import type { Database } from '../../db/client';
import type { Notifications } from '../../platform/notifications';

/** Friend notifications are about the connection row; they last only while it says the same. */
export const SUBJECT = 'connection';

/**
 * 'friend.request' (to the addressee, while the request is pending: it opens the friends page
 * where it is answered) and 'friend.accepted' (to the requester, while they are friends: it opens
 * the new friend's profile).
 */
export function defineFriendNotifications(notifications: Notifications, database: Database) {
  const connectionsWhere = (condition: string) => async (recipientId: string, ids: string[]) => {
    const rows = await database.query<{ id: string }>(
      `select id::text as id from connections where id = any($2::uuid[]) and ${condition}`,
      [recipientId, ids],
    );
    return new Set(rows.map((r) => r.id));
  };
  notifications.defineType({
    type: 'friend.request',
    defaults: { inApp: true, email: true },
    link: ({ recipientId }) => `/profile/${encodeURIComponent(recipientId)}/friends`,
    visible: connectionsWhere(`status = 'pending' and addressee_id = $1`),
  });
  notifications.defineType({
    type: 'friend.accepted',
    defaults: { inApp: true, email: true },
    link: ({ data }) => `/user/${encodeURIComponent(String(data.userId))}`,
    visible: connectionsWhere(`status = 'accepted' and requester_id = $1`),
  });
}
