import { isUuid } from '@shared/schemas/common';
import type { Database } from '../../db/client';
import type { Notifications, NotifyInput } from '../../platform/notifications/types';
import { visibleListing } from '../../platform/moderation/members';
import type { Realtime } from '../../platform/realtime';
import type { ListingChanges } from '../../platform/listing-changes';
import type { Changes } from '../../platform/changes';
import { tradePartnersAmong, wishersOfAnyListing, wishersOfListing } from './queries';

export const WISHLIST_LISTED = 'wishlist.listed';
export const TRADE_MATCH = 'trade.match';

/** Listings a recipient may still see: available, not hidden by a moderator, seller active. */
export async function availableListings(
  database: Pick<Database, 'query'>,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await database.query<{ id: string }>(
    `select l.id::text as id from book_listings l
     where l.id = any($1::uuid[]) and l.status = 'available' and ${visibleListing('l')}`,
    [ids.filter(isUuid)],
  );
  return new Set(rows.map((r) => r.id));
}

/** The notification types of this module, defined once at startup. */
export function defineWishlistTypes(notifications: Notifications, database: Database): void {
  const visible = (_recipientId: string, subjectIds: string[]) =>
    availableListings(database, subjectIds);
  notifications.defineType({
    type: WISHLIST_LISTED,
    defaults: { inApp: true, email: true },
    link: ({ subjectId }) => `/library/book/${subjectId}`,
    visible,
  });
  notifications.defineType({
    type: TRADE_MATCH,
    defaults: { inApp: true, email: true },
    // The recipient's own trade-matches page (its id is kept in the data: the path needs it).
    link: ({ subjectId, data }) =>
      typeof data.home === 'string' ? `/profile/${data.home}/trades` : `/library/book/${subjectId}`,
    visible,
  });
}

/** Alerts still running after their listing's answer (tests and shutdown wait for them). */
const inFlight = new Set<Promise<void>>();

/** Resolves when every alert started so far has been stored (or has failed and been logged). */
export async function wishlistAlertsSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

export interface WishlistAlertsDeps {
  database: Database;
  /** Absent only where the notification service is not built (then nothing is sent). */
  notifications?: Notifications;
  /** Live "available now" on the wishers' wishlist pages (nothing live when absent). */
  realtime?: Realtime;
  log: { warn: (obj: object, msg: string) => void };
}

/** Tells `wishers` that a listing of a book they wish changed availability (they refetch). */
async function tellWishersOf(
  database: Pick<Database, 'query'>,
  realtime: Realtime,
  wishers: string[],
  listingId: string,
): Promise<void> {
  if (wishers.length === 0) return;
  const available = (await availableListings(database, [listingId])).has(listingId);
  await realtime.toUsers(wishers, { type: 'wishlist.availability', listingId, available });
}

/**
 * A listing's availability changed outside the listings module (a moderator hid or restored it):
 * its book's wishers see "available now" change live, as after any other change.
 */
export async function announceAvailability(
  database: Pick<Database, 'query'>,
  realtime: Realtime,
  listingId: string,
): Promise<void> {
  await tellWishersOf(
    database,
    realtime,
    await wishersOfAnyListing(database, listingId),
    listingId,
  );
}

/**
 * What a listing that becomes available tells the members who wish its book: one
 * 'wishlist.listed' per wisher and listing, ever (onceKey: editing or relisting repeats nothing),
 * never to the seller; and, for a trade listing, a 'trade.match' to both members when it makes a
 * two-way trade that did not exist before it, naming both books.
 */
export function createWishlistAlerts({
  database,
  notifications,
  realtime,
  log,
}: WishlistAlertsDeps) {
  const tellWishers = (wishers: string[], listingId: string) =>
    realtime ? tellWishersOf(database, realtime, wishers, listingId) : Promise.resolve();
  const track = (task: Promise<void>) => {
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  };

  return {
    /**
     * A listing's availability may have changed (sold, reserved, available again, edited): its
     * book's wishers see "available now" change live. Runs after the answer, as `announce`.
     */
    availabilityChanged(listingId: string): void {
      track(
        wishersOfAnyListing(database, listingId)
          .then((wishers) => tellWishers(wishers, listingId))
          .catch((err: unknown) => log.warn({ err, listingId }, 'wishlist live update failed')),
      );
    },

    /**
     * For a listing about to be edited or deleted (which may change whose wished book it is):
     * its wishers, read while it is as it was; the returned function, called once the change is
     * committed, tells them and the wishers of the listing as it is now.
     */
    async beforeChange(listingId: string): Promise<() => void> {
      const before = await wishersOfAnyListing(database, listingId).catch(() => []);
      return () =>
        track(
          wishersOfAnyListing(database, listingId)
            .then((after) => tellWishers([...new Set([...before, ...after])], listingId))
            .catch((err: unknown) => log.warn({ err, listingId }, 'wishlist live update failed')),
        );
    },

    /**
     * What the listings module calls once a listing is created or available again: the alerts
     * run after the answer, so telling many wishers never slows listing a book down.
     */
    announce(listingId: string): void {
      track(this.listingAvailable(listingId));
      this.availabilityChanged(listingId);
    },

    /**
     * Call after the listing's insert (or its change back to available) is committed.
     * `tradeMatches: false` sends only the wished-book alerts (the demo seed, which lists both
     * sides of a pair at once, announces the match from one side).
     */
    async listingAvailable(
      listingId: string,
      { tradeMatches = true }: { tradeMatches?: boolean } = {},
    ): Promise<void> {
      if (!notifications) return;
      try {
        const found = await wishersOfListing(database, listingId);
        if (!found || found.wishers.length === 0) return;
        const { sellerId, title, wishers } = found;
        const inputs: NotifyInput[] = wishers.map((recipientId) => ({
          recipientId,
          type: WISHLIST_LISTED,
          actorId: sellerId,
          subject: { type: 'listing', id: listingId },
          onceKey: listingId,
          data: { title },
        }));
        if (tradeMatches && found.listingType !== 'sell') {
          const partners = await tradePartnersAmong(database, sellerId, wishers);
          for (const [partnerId, pair] of partners) {
            // The seller had no other trade listing this member wishes: the match is new.
            if (pair.myCount !== 1 || !pair.myIds.includes(listingId)) continue;
            const onceKey = `${[sellerId, partnerId].sort().join(':')}:${listingId}`;
            // Both books, each from its reader's side: `wanted` is the actor's book the recipient
            // wishes, `offered` the recipient's own book the actor wishes.
            const sides = [
              {
                recipientId: partnerId,
                actorId: sellerId,
                wanted: title,
                offered: pair.theirTitle,
              },
              {
                recipientId: sellerId,
                actorId: partnerId,
                wanted: pair.theirTitle,
                offered: title,
              },
            ];
            for (const { recipientId, actorId, wanted, offered } of sides) {
              inputs.push({
                recipientId,
                type: TRADE_MATCH,
                actorId,
                subject: { type: 'listing', id: listingId },
                onceKey,
                data:
                  wanted && offered
                    ? { title, wanted, offered, home: recipientId, context: 'books' }
                    : { title, home: recipientId },
              });
            }
          }
        }
        await notifications.notify(inputs);
      } catch (err) {
        log.warn({ err, listingId }, 'wishlist alerts failed');
      }
    },
  };
}

export type WishlistAlerts = ReturnType<typeof createWishlistAlerts>;

/**
 * A seller back from holiday (by hand or by the holiday job): each listing of theirs that comes
 * back to the library is announced to its wishers as if just listed. One alert per wisher and
 * listing ever (onceKey): a listing they were told of before the holiday repeats nothing, one
 * listed while away (which told nobody: the wishers query leaves away sellers out) is told now,
 * with the trade match it makes. The saved searches match it on the same hook.
 */
export function subscribeWishlistReturns(
  listingChanges: Pick<ListingChanges, 'onListingChanged'>,
  alerts: Pick<WishlistAlerts, 'announce'>,
): () => void {
  return listingChanges.onListingChanged(({ listingId, before, after }) => {
    if (before?.away && after && !after.away && !after.hidden && after.status === 'available')
      alerts.announce(listingId);
  });
}

/**
 * Listings an offer or a deal changed (platform/changes.ts): their books' wishers see "available
 * now" change live, and a book a cancelled deal puts back on sale is announced as if just listed.
 */
export function subscribeWishlistStatus(
  changes: Pick<Changes, 'on'>,
  database: Pick<Database, 'query'>,
  alerts: Pick<WishlistAlerts, 'announce' | 'availabilityChanged'>,
): () => void {
  return changes.on('listings.status', async ({ listingIds }) => {
    const back = await database.query<{ id: string }>(
      `select id::text from book_listings where id = any($1::uuid[]) and status = 'available'`,
      [listingIds],
    );
    const available = new Set(back.map((r) => r.id));
    for (const l of listingIds)
      if (available.has(l)) alerts.announce(l);
      else alerts.availabilityChanged(l);
  });
}
