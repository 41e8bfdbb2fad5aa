import { libraryQueryOf } from '@shared/schemas/savedSearches';
import type { Database } from '../../db/client';
import type { Notifications, NotificationData } from '../../platform/notifications/types';
import { MAX_DATA_BYTES } from '../../platform/notifications';
import { availableListings } from '../wishlist';
import { filtersOf, listingKeys, storeMatches } from './queries';
import type { ListingChange, ListingChanges } from '../../platform/listing-changes';

export const SAVED_SEARCH_MATCH = 'savedSearch.match';

/**
 * The notification type of this module. In the app at once; by e-mail only in this module's daily
 * digest (`ownEmail`: the hourly digest leaves it out), which asks the same e-mail switches.
 * It opens the library with the saved search's filters (or the book, when they did not fit).
 */
export function defineSavedSearchTypes(notifications: Notifications, database: Database): void {
  notifications.defineType({
    type: SAVED_SEARCH_MATCH,
    defaults: { inApp: true, email: true },
    ownEmail: true,
    link: ({ subjectId, data }) =>
      typeof data.query === 'string' && data.query
        ? `/library?${data.query}`
        : `/library/book/${subjectId}`,
    visible: (_recipientId, ids) => availableListings(database, ids),
  });
}

/** Matching still running after its listing's answer (tests and shutdown wait for it). */
const inFlight = new Set<Promise<void>>();
/** The listing-changed hooks that start matching: their own work is waited for first. */
const hooks = new Set<ListingChanges>();

export async function savedSearchAlertsSettled(): Promise<void> {
  do {
    await Promise.all([...hooks].map((h) => h.settled()));
    await Promise.all([...inFlight]);
  } while (inFlight.size > 0);
}

/**
 * A listing that came into the library available now: created so, or back from another state
 * (reserved, hidden by a moderator, its seller suspended or on holiday).
 */
const becameAvailable = ({ before, after }: ListingChange) =>
  !!after &&
  after.status === 'available' &&
  !after.hidden &&
  !after.away &&
  (!before || before.status !== 'available' || before.hidden || before.away);

/**
 * Matches saved searches whenever the listing-changed hook says a listing became available,
 * whatever path changed it (its owner, an offer withdrawn, a confirmation declined, a moderator's
 * restore, its seller's return).
 */
export function subscribeSavedSearchAlerts(
  listingChanges: ListingChanges,
  alerts: SavedSearchAlerts,
): () => void {
  hooks.add(listingChanges);
  const off = listingChanges.onListingChanged((change) => {
    if (becameAvailable(change)) alerts.announce(change.listingId);
  });
  return () => {
    off();
    hooks.delete(listingChanges);
  };
}

/** The notification's short facts; the library query only when everything fits in 1 KB. */
function dataOf(m: { title: string; search_name: string }, query: string): NotificationData {
  const data: NotificationData = { title: m.title.slice(0, 120), search: m.search_name, query };
  if (Buffer.byteLength(JSON.stringify(data)) > MAX_DATA_BYTES) delete data.query;
  return data;
}

export interface SavedSearchAlertsDeps {
  database: Database;
  notifications?: Notifications;
  now: () => Date;
  log: { warn: (obj: object, msg: string) => void };
}

/**
 * What the listings module calls once a listing is created or is available again (after the
 * change is committed): the matching runs after the answer, so saved searches never slow listing
 * a book down. Each member whose saved search matches gets one 'savedSearch.match', live.
 */
export function createSavedSearchAlerts({
  database,
  notifications,
  now,
  log,
}: SavedSearchAlertsDeps) {
  return {
    announce(listingId: string): void {
      const task = this.listingAvailable(listingId);
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
    },

    async listingAvailable(listingId: string): Promise<void> {
      try {
        const keys = await listingKeys(database, listingId);
        if (!keys) return;
        const found = await storeMatches(database, listingId, keys, now().toISOString());
        if (found.length === 0 || !notifications) return;
        await notifications.notify(
          found.map((m) => ({
            recipientId: m.user_id,
            type: SAVED_SEARCH_MATCH,
            actorId: m.seller_id,
            subject: { type: 'listing', id: listingId },
            onceKey: listingId,
            data: dataOf(m, libraryQueryOf(filtersOf(m))),
          })),
        );
      } catch (err) {
        log.warn({ err, listingId }, 'saved search alerts failed');
      }
    },
  };
}

export type SavedSearchAlerts = ReturnType<typeof createSavedSearchAlerts>;
