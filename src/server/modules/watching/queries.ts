import type { ListingCard } from '@shared/marketplace';
import { isUuid } from '@shared/schemas/common';
import type { Database } from '../../db/client';
import { CARD_COLUMNS, CARD_JOINS, toCard, type CardRow } from '../listings';
import { notBlocked, visibleListing } from '../../platform/moderation';
import { mayHearSql } from '../../platform/notifications/audience';

type Q = Pick<Database, 'query'>;

/**
 * A listing `viewer` may watch, with its seller: visible to readers (not hidden, seller active)
 * and no block between them. null when there is none such (missing, hidden, blocked: one 404).
 */
export async function watchableListing(
  database: Q,
  viewer: string,
  listingId: string,
): Promise<{ sellerId: string } | null> {
  if (!isUuid(listingId)) return null;
  const [row] = await database.query<{ seller_id: string }>(
    `select l.user_id as seller_id from book_listings l
     where l.id = $1 and ${visibleListing('l')} and ${notBlocked('$2', 'l.user_id')}`,
    [listingId, viewer],
  );
  return row ? { sellerId: row.seller_id } : null;
}

/** A page of the listings `userId` watches, newest watch first, as readers see them. */
export async function listWatches(
  database: Q,
  userId: string,
  page: number,
  pageSize: number,
): Promise<{ items: Array<{ listing: ListingCard; watchedAt: string }>; total: number }> {
  const shown = `w.user_id = $1 and ${visibleListing('l')} and ${notBlocked('$1', 'l.user_id')}`;
  const [rows, [count]] = await Promise.all([
    database.query<CardRow & { watched_at: Date }>(
      `select ${CARD_COLUMNS}, w.created_at as watched_at
       from listing_watches w join book_listings l on l.id = w.listing_id ${CARD_JOINS}
       where ${shown}
       order by w.created_at desc, w.listing_id desc limit $2 offset $3`,
      [userId, pageSize, (page - 1) * pageSize],
    ),
    database.query<{ n: number }>(
      `select count(*)::int as n from listing_watches w join book_listings l on l.id = w.listing_id
       where ${shown}`,
      [userId],
    ),
  ]);
  return {
    items: rows.map((r) => ({
      listing: toCard(r),
      watchedAt: new Date(r.watched_at).toISOString(),
    })),
    total: count.n,
  };
}

/**
 * Every listing id `userId` watches (the cards' pressed state, in one call): only those readers
 * still see, as the list, so a hidden listing's id does not say that it still exists.
 */
export async function watchedListingIds(database: Q, userId: string): Promise<string[]> {
  const rows = await database.query<{ id: string }>(
    `select w.listing_id::text as id from listing_watches w
     join book_listings l on l.id = w.listing_id
     where w.user_id = $1 and ${visibleListing('l')} and ${notBlocked('$1', 'l.user_id')}`,
    [userId],
  );
  return rows.map((r) => r.id);
}

/**
 * Who to tell about a listing's change: its watchers, not its seller, those who may hear of the
 * seller (audience.ts: both active, no block either way), the listing still visible to readers;
 * with the listing's currency.
 */
export async function watchersToTell(
  database: Q,
  listingId: string,
): Promise<{ watchers: string[]; currency: string }> {
  const rows = await database.query<{ user_id: string; currency: string }>(
    `select w.user_id, l.currency from listing_watches w join book_listings l on l.id = w.listing_id
     where w.listing_id = $1 and w.user_id <> l.user_id and ${visibleListing('l')}
       and ${mayHearSql('w.user_id', 'l.user_id')}`,
    [listingId],
  );
  return { watchers: rows.map((r) => r.user_id), currency: rows[0]?.currency ?? 'EUR' };
}
