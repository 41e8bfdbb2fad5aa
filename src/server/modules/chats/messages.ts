import { CHAT_CATCH_UP_LIMIT, CHAT_PAGE_SIZE, type ChatMessage } from '@shared/schemas/chats';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import { blockedBetween } from '../../platform/moderation';
import { roomWithDeletedMember } from '../../platform/moderation/members';
import type { Query } from '../../db/tx';
import type { ChatContext } from './context';
import { findMessage, isUuid, pageMessages } from './queries';

/**
 * SQL: room $1 is a direct conversation whose other member and sender $2 are kept apart by a
 * block (either way). Group conversations are not affected (docs/decisions.md).
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

/** A room's messages: reading them, editing and deleting one's own (sending: ./send.ts). */
export function messageActions(ctx: ChatContext) {
  const { query, requireParticipant, publishUpdated } = ctx;
  return {
    async messages(
      userId: string,
      roomId: string,
      opts: { before?: string; after?: string; limit?: number },
    ) {
      await requireParticipant(roomId, userId);
      if (opts.after !== undefined)
        return pageMessages(query, roomId, { after: opts.after, limit: CHAT_CATCH_UP_LIMIT });
      return pageMessages(query, roomId, {
        before: opts.before,
        limit: opts.limit ?? CHAT_PAGE_SIZE,
      });
    },

    async edit(
      userId: string,
      roomId: string,
      messageId: string,
      content: string,
    ): Promise<ChatMessage> {
      await requireParticipant(roomId, userId);
      const updated = isUuid(messageId)
        ? await query(
            `update chat_messages set content = $4, edited_at = clock_timestamp()
             where id = $3 and room_id = $1 and sender_id = $2 and type = 'text'
               and deleted_at is null returning id`,
            [roomId, userId, messageId, content],
          )
        : [];
      if (updated.length === 0) await explainUnchanged(roomId, userId, messageId);
      await publishUpdated(roomId, messageId);
      return (await findMessage(query, messageId))!;
    },

    async remove(userId: string, roomId: string, messageId: string): Promise<void> {
      await requireParticipant(roomId, userId);
      const deleted = isUuid(messageId)
        ? await query(
            `update chat_messages set content = '', deleted_at = clock_timestamp()
             where id = $3 and room_id = $1 and sender_id = $2 and type in ('text', 'listing')
               and deleted_at is null returning id`,
            [roomId, userId, messageId],
          )
        : [];
      if (deleted.length === 0) await explainUnchanged(roomId, userId, messageId);
      await publishUpdated(roomId, messageId);
    },
  };

  /** Why an edit or delete changed nothing: no such message here (404) or not the sender's. */
  async function explainUnchanged(roomId: string, userId: string, messageId: string) {
    const [row] = isUuid(messageId)
      ? await query<{ sender_id: string | null; type: string; deleted_at: unknown }>(
          'select sender_id, type, deleted_at from chat_messages where id = $1 and room_id = $2',
          [messageId, roomId],
        )
      : [];
    if (!row || row.deleted_at !== null) throw notFound('chatApi.errors.messageNotFound');
    if (row.sender_id !== userId) throw forbidden('chatApi.errors.notYourMessage');
    throw badRequest('chatApi.errors.notEditable');
  }
}
