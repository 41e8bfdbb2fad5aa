import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { Mailer } from '../../platform/mail';
import type { Notifications } from '../../platform/notifications';
import type { Realtime } from '../../platform/realtime';
import type { ListingChanges } from '../../platform/listing-changes';

/** What the moderation service is built from (routes.ts hands it the module's deps). */
export interface ModerationDeps {
  database: Database;
  mailer: Mailer;
  realtime: Realtime;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** The notification centre (deps.notifications): the decision also shows under the bell. */
  notifications?: Notifications;
  /**
   * A listing hidden or restored, a seller suspended or back: published once committed
   * (platform/listing-changes.ts), so that watchers and saved searches hear of a return.
   */
  listingChanges?: ListingChanges;
}
