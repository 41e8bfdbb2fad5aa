import type { FastifyBaseLogger } from 'fastify';
import type { ListingStatus } from '@shared/marketplaceConstants';
import type { Realtime } from '../../platform/realtime';
import { blockedMembersOf } from '../../platform/moderation/blocks';
import type { Query } from '../../db/tx';
import { isUuid } from '@shared/schemas/common';

/**
 * The rooms that show a listing's card (the room is about it, a card or an offer in it names it)
 * and their members; a member a block stands between and the seller hears nothing of it, as the
 * listing is hidden from them both ways. Read before a deletion: afterwards nothing names it.
 */
export async function listingWatchers(query: Query, listingId: string): Promise<string[]> {
  if (!isUuid(listingId)) return [];
  const rows = await query<{ user_id: string }>(
    `with seller as (select user_id from book_listings where id = $1),
     rooms as (
       select id as room_id from chat_rooms where listing_id = $1
       union select room_id from chat_messages where listing_id = $1
       union select room_id from offers where listing_id = $1
     )
     select distinct p.user_id from chat_participants p
     where p.room_id in (select room_id from rooms)
       and (p.user_id = (select user_id from seller)
         or p.user_id <> all(${blockedMembersOf('(select user_id from seller)')}))`,
    [listingId],
  );
  return rows.map((r) => r.user_id);
}

/**
 * Tells the members of the conversations about a listing that its status changed (sold,
 * reserved, available again, hidden by a moderator, deleted), whatever path changed it: the chat's card follows live, as
 * the offer does. Called after the change is committed; publishing never fails the request.
 */
export function createListingAnnouncer(deps: {
  realtime: Realtime;
  query: Query;
  /** Without a log, a failure is the caller's to log (moderation's `changed` hook). */
  log?: FastifyBaseLogger;
}) {
  const { realtime, query, log } = deps;
  return {
    watchers: (listingId: string) => listingWatchers(query, listingId),

    /** `watchers` read before the change when it deletes the listing. */
    async announce(listingId: string, watchers?: string[]): Promise<void> {
      try {
        if (!isUuid(listingId)) return;
        const [row] = await query<{ status: ListingStatus; hidden: boolean }>(
          'select status, hidden_at is not null as hidden from book_listings where id = $1',
          [listingId],
        );
        const to = watchers ?? (await listingWatchers(query, listingId));
        if (to.length === 0) return;
        // Hidden by a moderator, it reads as unavailable, as its card shows it.
        await realtime.toUsers(to, {
          type: 'chat.listing',
          listingId,
          status: !row ? null : row.hidden ? 'unavailable' : row.status,
        });
      } catch (err) {
        if (!log) throw err;
        log.warn({ err, listingId }, 'listing change not published');
      }
    },
  };
}

export type ListingAnnouncer = ReturnType<typeof createListingAnnouncer>;
