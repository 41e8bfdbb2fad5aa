export type { Notifications, NotificationTypeDef, NotificationData, NotifyInput } from './types';
export {
  createNotifications,
  DIGEST_INTERVAL_MS,
  MAX_DATA_BYTES,
  NOTIFICATIONS_PAGE_SIZE,
  NOTIFICATIONS_PAGE_MAX,
  type NotificationService,
  type NotificationsOptions,
  type NotificationItem,
  type NotificationsPage,
  type NotificationSettings,
  type SettingsPatch,
  type TypeSetting,
} from './service';
export {
  DIGEST_WINDOW_HOURS,
  DIGEST_MAX_ITEMS,
  notificationText,
  digestEmail,
  sendDigestEmail,
  digestTimer,
  runDigest,
  type DigestKind,
} from './digest';
export { mayHear, mayHearSql } from './audience';
