import { z } from 'zod';

/** Notifications per page of the list (the bell's popover and the page); at most this many. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_PAGE_MAX = 50;
/** The realtime events the service pushes to a member's sockets. */
export const NOTIFICATION_NEW_EVENT = 'notification.new';
export const NOTIFICATION_READ_EVENT = 'notification.read';

const dataValue = z.union([z.string(), z.number(), z.null()]);

export const notificationSchema = z.object({
  id: z.string(),
  type: z.string(),
  /** The latest member who caused it (null when nobody did, e.g. a system notice). */
  actor: z
    .object({ id: z.string(), displayName: z.string(), avatarUrl: z.string().nullable() })
    .nullable(),
  /** How many members folded into this notification ("Anna and 3 others"). */
  actorCount: z.number().int(),
  subject: z.object({ type: z.string(), id: z.string() }),
  data: z.record(z.string(), dataValue),
  /** The app path it opens. */
  link: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
  /** When it last changed (a new actor folded in); the list is ordered by it. */
  updatedAt: z.string(),
});
export type NotificationView = z.infer<typeof notificationSchema>;

export const notificationsPageSchema = z.object({
  items: z.array(notificationSchema),
  /** The `cursor` of the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type NotificationsPageView = z.infer<typeof notificationsPageSchema>;

export const notificationsQuerySchema = z.object({
  cursor: z.string().max(200, { error: 'notifications.errors.badCursor' }).optional(),
  limit: z.preprocess(
    (x) => (x === '' || x === undefined ? undefined : typeof x === 'string' ? Number(x) : x),
    z
      .number({ error: 'notifications.validation.limit' })
      .int({ error: 'notifications.validation.limit' })
      .min(1, { error: 'notifications.validation.limit' })
      .max(NOTIFICATIONS_PAGE_MAX, { error: 'notifications.validation.limit' })
      .optional(),
  ),
});

export const unreadCountSchema = z.object({ unread: z.number().int() });

export const typeSettingSchema = z.object({
  type: z.string(),
  inApp: z.boolean(),
  email: z.boolean(),
});
export type TypeSettingView = z.infer<typeof typeSettingSchema>;

export const notificationSettingsSchema = z.object({
  /** The profile's e-mail notifications switch: when off, no notification e-mail is sent. */
  emailNotifications: z.boolean(),
  types: z.array(typeSettingSchema),
});
export type NotificationSettingsView = z.infer<typeof notificationSettingsSchema>;

/** PATCH: per type, only the switches sent change; at least one type. */
export const notificationSettingsPatchSchema = z
  .record(
    z.string().max(64),
    z
      .object({
        inApp: z.boolean({ error: 'notifications.validation.switch' }).optional(),
        email: z.boolean({ error: 'notifications.validation.switch' }).optional(),
      })
      .strict(),
  )
  .refine((r) => Object.keys(r).length <= 50, { error: 'errors.validation' })
  .refine((r) => Object.keys(r).length > 0, { error: 'errors.badRequest' });
export type NotificationSettingsPatch = z.infer<typeof notificationSettingsPatchSchema>;
