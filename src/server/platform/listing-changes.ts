/**
 * One "listing changed" hook. The paths that change a listing (its owner's routes, offers,
 * confirmations) publish one event saying what changed, after the change is committed; features
 * subscribe with `onListingChanged` (watched listings today; saved searches next). Handlers run
 * after the answer and their failures are logged: a subscriber never fails or slows the request.
 *
 * The chat cards' and wishlist's announcers (modules/chats/listing-events.ts,
 * modules/wishlist/alerts.ts) still run from their callers: they read who sees a listing before a
 * deletion and answer inside the request, which this after-the-answer hook does not do
 * (docs/watching.md).
 */
import type { ListingStatus } from '@shared/marketplaceConstants';
import { isUuid } from '@shared/schemas/common';
import type { Query } from '../db/tx';

/** What a listing is at one moment, as far as subscribers care. */
export interface ListingState {
  sellerId: string;
  status: ListingStatus;
  price: number | null;
  /** Hidden by a moderator (or kept as a bare record of a deleted account). */
  hidden: boolean;
  title: string;
}

export interface ListingChange {
  listingId: string;
  sellerId: string;
  /** null: the listing was created by this change. */
  before: ListingState | null;
  /** null: the listing was deleted by this change. */
  after: ListingState | null;
  created: boolean;
  deleted: boolean;
}

export type ListingChangeHandler = (change: ListingChange) => Promise<void> | void;

export interface ListingChanges {
  /** Subscribes; returns a function that unsubscribes. */
  onListingChanged(handler: ListingChangeHandler): () => void;
  /** The listing as it is now (null when it does not exist). */
  read(listingId: string): Promise<ListingState | null>;
  /**
   * Call before changing a listing: reads it as it is; the returned function, called once the
   * change is committed, reads it again and publishes the difference (nothing when equal).
   */
  track(listingId: string): Promise<() => void>;
  /** Publishes a change the caller already knows (e.g. a listing just created). */
  publish(change: ListingChange): void;
  /** Resolves when every handler started so far has finished (tests, shutdown). */
  settled(): Promise<void>;
}

const same = (a: ListingState | null, b: ListingState | null) =>
  a === b ||
  (!!a &&
    !!b &&
    a.status === b.status &&
    a.price === b.price &&
    a.hidden === b.hidden &&
    a.sellerId === b.sellerId);

export function createListingChanges(deps: {
  query: Query;
  log: { warn: (obj: object, msg: string) => void };
}): ListingChanges {
  const { query, log } = deps;
  const handlers = new Set<ListingChangeHandler>();
  const inFlight = new Set<Promise<void>>();

  async function read(listingId: string): Promise<ListingState | null> {
    if (!isUuid(listingId)) return null;
    const [row] = await query<ListingState>(
      `select user_id as "sellerId", status, price::float8 as price,
         hidden_at is not null as hidden, title
       from book_listings where id = $1`,
      [listingId],
    );
    return row ?? null;
  }

  function run(work: () => Promise<void>, listingId: string) {
    const task = work().catch((err: unknown) =>
      log.warn({ err, listingId }, 'listing change not published'),
    );
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  }

  function publish(change: ListingChange): void {
    if (handlers.size === 0) return;
    for (const handler of [...handlers])
      run(async () => {
        await handler(change);
      }, change.listingId);
  }

  return {
    onListingChanged(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    read,
    async track(listingId) {
      if (handlers.size === 0) return () => {};
      const before = await read(listingId).catch(() => null);
      return () =>
        run(async () => {
          const after = await read(listingId);
          if (same(before, after) || (!before && !after)) return;
          publish({
            listingId,
            sellerId: (after ?? before)!.sellerId,
            before,
            after,
            created: !before,
            deleted: !after,
          });
        }, listingId);
    },
    publish,
    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
