import type { Database } from '../../db/client';
import type { ListingChange } from '../../platform/listing-changes';
import type { Notifications } from '../../platform/notifications/types';
import { blockedBetween, visibleListing } from '../../platform/moderation';
import type { WatchChange } from '@shared/schemas/watching';
import { watchersToTell } from './queries';

export const WATCH_CHANGED = 'watch.changed';

/** The notification type of this module, defined once at startup. */
export function defineWatchingTypes(notifications: Notifications, database: Database): void {
  notifications.defineType({
    type: WATCH_CHANGED,
    defaults: { inApp: true, email: true },
    link: ({ subjectId }) => `/library/book/${subjectId}`,
    // Still watched and still visible to the watcher (not hidden, no block, seller active).
    async visible(recipientId, subjectIds) {
      const rows = await database.query<{ id: string }>(
        `select l.id::text as id from book_listings l
         join listing_watches w on w.listing_id = l.id and w.user_id = $1
         where l.id = any($2::uuid[]) and ${visibleListing('l')}
           and not ${blockedBetween('$1', 'l.user_id')}`,
        [recipientId, subjectIds],
      );
      return new Set(rows.map((r) => r.id));
    },
  });
}

/**
 * What a change means to the listing's watchers: a lower price while it is available, reserved,
 * sold (or traded), available again (by its seller, an offer undone, its seller back from holiday
 * or from a suspension, a moderator restoring it). Anything else tells them nothing: created,
 * deleted, leaving their sight (hidden, its seller suspended, deleted or gone on holiday: the
 * watch must not say why), a higher price, an edit of its words.
 */
export function watchChangeOf(change: ListingChange): WatchChange | null {
  const { before, after } = change;
  if (!before || !after || after.hidden) return null;
  if (before.status !== after.status) {
    if (after.status === 'reserved') return 'reserved';
    if (after.status === 'sold' || after.status === 'traded') return 'sold';
    if (after.status === 'available') return 'available';
    return null;
  }
  if (after.status !== 'available' || after.away) return null;
  if (before.hidden || before.away) return 'available';
  if (before.price !== null && after.price !== null && after.price < before.price)
    return 'priceDrop';
  return null;
}

/** The listing-changes subscriber: one notification per watcher (live, and by e-mail as set). */
export function createWatchAlerts(deps: { database: Database; notifications: Notifications }) {
  return async (change: ListingChange): Promise<void> => {
    const what = watchChangeOf(change);
    if (!what || !change.after) return;
    const { watchers, currency } = await watchersToTell(deps.database, change.listingId);
    if (watchers.length === 0) return;
    await deps.notifications.notify(
      watchers.map((recipientId) => ({
        recipientId,
        type: WATCH_CHANGED,
        actorId: change.sellerId,
        subject: { type: 'listing', id: change.listingId },
        data: {
          title: change.after!.title,
          context: what,
          ...(what === 'priceDrop' ? { amount: change.after!.price, currency } : {}),
        },
      })),
    );
  };
}
