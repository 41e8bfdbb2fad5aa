import type { Database } from '../../db/client';
import type { NotificationTypeDef } from './types';

/**
 * A member's two switches for one type, as they decide now: the in-app switch (their setting, or
 * the type's default), and the e-mail switch (likewise, and only while the profile's
 * `email_notifications` is on). Null when the member does not exist.
 */
export async function readSwitches(
  database: Database,
  def: NotificationTypeDef,
  recipientId: string,
): Promise<{ inApp: boolean; email: boolean } | null> {
  const [who] = await database.query<{
    email_notifications: boolean;
    in_app: boolean | null;
    email: boolean | null;
  }>(
    `select u.email_notifications, s.in_app, s.email
     from users u left join notification_settings s on s.user_id = u.id and s.type = $2
     where u.id = $1`,
    [recipientId, def.type],
  );
  if (!who) return null;
  return {
    inApp: who.in_app ?? def.defaults.inApp,
    email: (who.email ?? def.defaults.email) && who.email_notifications,
  };
}
