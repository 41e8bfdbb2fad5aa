import type { Database } from '../db/client';
import type { Mailer } from '../platform/mail';
import { createNotifications, type NotificationService } from '../platform/notifications';
import { createNullRealtime, type Realtime, type RealtimeEvent } from '../platform/realtime';

/** Keeps the test output clean of the service's warnings. */
export const quietLog = { warn() {}, error() {} };

/** A mailer that sends and keeps nothing, for tests that do not read e-mails. */
export const nullMailer: Mailer = {
  transport: 'outbox',
  send: async () => {},
  list: async () => [],
  close: async () => {},
};

/**
 * The notification centre as the tests build it: links to http://localhost:3000, no log output,
 * the given realtime (a null one unless told), mailer (none unless told) and clock.
 */
export function createTestNotifications(opts: {
  database: Database;
  realtime?: Realtime;
  mailer?: Mailer;
  now?: () => Date;
}): NotificationService {
  return createNotifications({
    database: opts.database,
    realtime: opts.realtime ?? createNullRealtime(),
    mailer: opts.mailer ?? nullMailer,
    publicUrl: 'http://localhost:3000',
    now: opts.now,
    log: quietLog,
  });
}

/** A realtime that records what is pushed to members (those events that `keep` accepts). */
export function recordUserPushes(keep: (event: RealtimeEvent) => boolean = () => true) {
  const pushed: Array<{ userIds: readonly string[]; event: RealtimeEvent }> = [];
  const realtime: Realtime = {
    ...createNullRealtime(),
    async toUsers(userIds, event) {
      if (keep(event)) pushed.push({ userIds, event });
    },
  };
  return { realtime, pushed };
}
