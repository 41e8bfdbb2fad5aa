import type { SeedContext } from './types';
import { createNullRealtime } from '../../src/server/platform/realtime';
import {
  createNotifications,
  type NotificationService,
} from '../../src/server/platform/notifications';
import type { Mailer } from '../../src/server/platform/mail';

/** The demo members' ids by username (undefined for a username not in the demo). */
export function memberIds(ctx: SeedContext): (username: string) => string | undefined {
  const byUsername = new Map(ctx.members.map((m) => [m.username, m.id]));
  return (username) => byUsername.get(username);
}

/** The demo addresses are not real: alerts go to the bell only. */
const noMail: Mailer = {
  transport: 'outbox',
  async send() {},
  async list() {
    return [];
  },
  async close() {},
};

/**
 * The notification centre as the app runs it, for a step that sends its feature's alerts as the
 * app would have (wishlists, saved searches, watched listings): no live push, no e-mail, failures
 * in the seed's log. Close it at the end of the step.
 */
export function seedNotificationCentre(ctx: SeedContext): NotificationService {
  return createNotifications({
    database: ctx.database,
    realtime: createNullRealtime(),
    mailer: noMail,
    publicUrl: ctx.config.publicUrl,
    log: { warn: () => {}, error: (obj, msg) => ctx.log(`${msg} ${JSON.stringify(obj)}`) },
  });
}

/** A step's warnings, in the seed's log. */
export const seedLog = (ctx: SeedContext) => ({
  warn: (obj: object, msg: string) => ctx.log(`${msg} ${JSON.stringify(obj)}`),
});
