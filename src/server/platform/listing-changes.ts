/**
 * One "listing changed" hook. The paths that change a listing (its owner's routes, offers,
 * confirmations, a moderator hiding or restoring it, its seller's holiday, suspension or deleted
 * account) publish one event saying what changed, after the change is committed; features
 * subscribe with `onListingChanged` (watched listings, saved searches). Handlers run after the
 * answer and their failures are logged: a subscriber never fails or slows the request.
 *
 * The chat cards' and wishlist's announcers (modules/chats/listing-events.ts,
 * modules/wishlist/alerts.ts) answer inside the request, which this after-the-answer hook does
 * not do: after an offer or a deal they follow `listings.status` (./changes.ts); the listings'
 * own routes still call them, reading who sees a listing before a deletion (docs/watching.md).
 */
import type { ListingStatus } from '@shared/marketplaceConstants';
import { isUuid } from '@shared/schemas/common';
import type { Query } from '../db/tx';
import { visibleListing } from './moderation/members';

/** What a listing is at one moment, as far as subscribers care. */
export interface ListingState {
  sellerId: string;
  status: ListingStatus;
  price: number | null;
  /**
   * Out of readers' sight: hidden by a moderator, its seller suspended, or kept as a bare record
   * of a deleted account (`visibleListing`).
   */
  hidden: boolean;
  /** Its seller is on holiday: out of the library and the shelves; its own page still answers. */
  away: boolean;
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
  /**
   * `track` for every listing of these sellers (a holiday, a suspension, a deleted account): call
   * before the change; the returned function publishes each listing's difference.
   */
  trackSellers(sellerIds: string[]): Promise<() => void>;
  /**
   * Publishes, for every listing of these sellers as it is now, the change from `before(now)`: for
   * a change one statement made and answered to exactly one caller (the holiday job's delete,
   * which several processes run), so that it is published once.
   */
  publishSellers(sellerIds: string[], before: (now: ListingState) => ListingState): void;
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
    a.away === b.away &&
    a.sellerId === b.sellerId);

const STATE_COLUMNS = `l.id::text as id, l.user_id as "sellerId", l.status, l.price::float8 as price,
  not (${visibleListing('l')}) as hidden,
  exists (select 1 from member_holidays mh where mh.user_id = l.user_id) as away, l.title`;

const toState = ({ id: _id, ...state }: ListingState & { id: string }): ListingState => state;

export function createListingChanges(deps: {
  query: Query;
  log: { warn: (obj: object, msg: string) => void };
}): ListingChanges {
  const { query, log } = deps;
  const handlers = new Set<ListingChangeHandler>();
  const inFlight = new Set<Promise<void>>();

  async function read(listingId: string): Promise<ListingState | null> {
    if (!isUuid(listingId)) return null;
    const [row] = await query<ListingState & { id: string }>(
      `select ${STATE_COLUMNS} from book_listings l where l.id = $1`,
      [listingId],
    );
    return row ? toState(row) : null;
  }

  async function readSellers(sellerIds: string[]): Promise<Map<string, ListingState>> {
    const rows = await query<ListingState & { id: string }>(
      `select ${STATE_COLUMNS} from book_listings l where l.user_id = any($1::text[])`,
      [sellerIds],
    );
    return new Map(rows.map((r) => [r.id, toState(r)]));
  }

  function publishDifference(
    listingId: string,
    before: ListingState | null,
    after: ListingState | null,
  ) {
    if (same(before, after) || (!before && !after)) return;
    publish({
      listingId,
      sellerId: (after ?? before)!.sellerId,
      before,
      after,
      created: !before,
      deleted: !after,
    });
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
        run(async () => publishDifference(listingId, before, await read(listingId)), listingId);
    },
    async trackSellers(sellerIds) {
      if (handlers.size === 0 || sellerIds.length === 0) return () => {};
      const before = await readSellers(sellerIds).catch(() => new Map<string, ListingState>());
      return () =>
        run(async () => {
          const after = await readSellers(sellerIds);
          for (const id of new Set([...before.keys(), ...after.keys()]))
            publishDifference(id, before.get(id) ?? null, after.get(id) ?? null);
        }, sellerIds.join(','));
    },
    publishSellers(sellerIds, before) {
      if (handlers.size === 0 || sellerIds.length === 0) return;
      run(async () => {
        for (const [id, now] of await readSellers(sellerIds))
          publishDifference(id, before(now), now);
      }, sellerIds.join(','));
    },
    publish,
    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
