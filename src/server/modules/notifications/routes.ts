import {
  NOTIFICATIONS_PAGE_SIZE,
  notificationSettingsPatchSchema,
  notificationSettingsSchema,
  notificationsPageSchema,
  notificationsQuerySchema,
  unreadCountSchema,
} from '@shared/notifications';
import type { Module } from '../../platform/module';
import { idParam, memberRoutes } from '../../platform/route-presets';
import { currentUser } from '../../platform/auth';
import { errorSchema, errorResponses } from '../../platform/errors';

const idParams = idParam('id');

/**
 * The notification centre: the signed-in member's notifications (newest first, only those whose
 * subject the member may still see), the unread count, marking read, and the per-type settings.
 * A notification of another member answers 404, as a missing one does.
 */
export const notificationRoutes: Module = async (app, { notifications }) => {
  const { read, write } = memberRoutes(app, 'notifications', 120);

  app.get(
    '/api/notifications',
    read({
      summary: 'My notifications, newest first (keyset pages: pass nextCursor as cursor)',
      querystring: notificationsQuerySchema,
      response: { 200: notificationsPageSchema, 400: errorSchema, 401: errorSchema },
    }),
    async (request) =>
      notifications.list(currentUser(request).id, {
        cursor: request.query.cursor,
        limit: request.query.limit ?? NOTIFICATIONS_PAGE_SIZE,
      }),
  );

  app.get(
    '/api/notifications/unread-count',
    read({
      summary: 'How many of my notifications are unread (the bell)',
      response: { 200: unreadCountSchema, 401: errorSchema },
    }),
    async (request) => ({ unread: await notifications.unreadCount(currentUser(request).id) }),
  );

  app.post(
    '/api/notifications/read-all',
    write({
      summary: 'Marks all my notifications read; answers the unread count left (0)',
      response: { 200: unreadCountSchema, 401: errorSchema, 429: errorSchema },
    }),
    async (request) => ({ unread: await notifications.markAllRead(currentUser(request).id) }),
  );

  app.post(
    '/api/notifications/:id/read',
    write({
      summary: 'Marks one of my notifications read; answers the unread count left',
      params: idParams,
      response: { 200: unreadCountSchema, 401: errorSchema, 404: errorSchema, 429: errorSchema },
    }),
    async (request) => ({
      unread: await notifications.markRead(currentUser(request).id, request.params.id),
    }),
  );

  app.get(
    '/api/notifications/settings',
    read({
      summary: 'My in-app and e-mail switches for every notification type',
      response: { 200: notificationSettingsSchema, 401: errorSchema },
    }),
    async (request) => notifications.settings(currentUser(request).id),
  );

  app.patch(
    '/api/notifications/settings',
    write({
      summary:
        'Changes my switches: { "<type>": { "inApp"?: boolean, "email"?: boolean } }; only what is sent changes',
      body: notificationSettingsPatchSchema,
      response: { 200: notificationSettingsSchema, ...errorResponses(400, 401, 429) },
    }),
    async (request) => notifications.updateSettings(currentUser(request).id, request.body),
  );
};
