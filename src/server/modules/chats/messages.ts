import { CHAT_CATCH_UP_LIMIT, CHAT_PAGE_SIZE, type ChatMessage } from '@shared/schemas/chats';
import { badRequest, forbidden, notFound } from '../../platform/errors';
import type { ChatContext } from './context';
import { findMessage, isUuid, pageMessages } from './queries';

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
