import { blockedBetween } from '../../platform/moderation';
import { roomWithDeletedMember } from '../../platform/moderation/members';
import type { Query } from '../../db/tx';

/**
 * SQL: room $1 is a direct conversation whose other member and sender $2 are kept apart by a
 * block (either way). Group conversations are not affected (decision 0036).
 */
const BLOCKED_DIRECT_ROOM = `exists (select 1 from chat_rooms br
  join chat_participants bp on bp.room_id = br.id and bp.user_id <> $2
  where br.id = $1 and not br.is_group and ${blockedBetween('$2', 'bp.user_id')})`;

/**
 * Inserts a message from a participant and moves the room up the list; null if not a participant
 * or if a block stands between the two members of a direct conversation.
 */
export async function insertMessage(
  q: Query,
  m: {
    roomId: string;
    senderId: string;
    type?: 'text' | 'listing' | 'offer' | 'system' | 'deal';
    content?: string;
    listingId?: string | null;
    offerId?: string | null;
    /** A step of a deal (type 'deal'). */
    dealId?: string | null;
  },
): Promise<string | null> {
  const [row] = await q<{ id: string }>(
    `with ins as (
       insert into chat_messages (room_id, sender_id, type, content, listing_id, offer_id,
         deal_id)
       select $1, $2, $3, $4, $5, $6, $7
       where exists (select 1 from chat_participants where room_id = $1 and user_id = $2)
         -- Nobody reads a direct conversation whose other member deleted their account.
         and not (exists (select 1 from chat_rooms dr where dr.id = $1 and not dr.is_group)
           and ${roomWithDeletedMember('$1')})
         and not ${BLOCKED_DIRECT_ROOM}
       returning id, created_at),
     bump as (
       update chat_rooms r set updated_at = greatest(r.updated_at, ins.created_at)
       from ins where r.id = $1 returning r.id)
     select ins.id from ins`,
    [
      m.roomId,
      m.senderId,
      m.type ?? 'text',
      m.content ?? '',
      m.listingId ?? null,
      m.offerId ?? null,
      m.dealId ?? null,
    ],
  );
  return row?.id ?? null;
}
