import type { FastifyBaseLogger } from 'fastify';
import { isLanguage, type Language } from '@shared/constants';
import { sendMessageSchema } from '@shared/schemas/chats';
import { UUID_PATTERN } from '@shared/schemas/common';
import type { Query } from '../../db/tx';
import { AppError, badRequest, validationFailed } from '../../platform/errors';
import { hasKey, t } from '../../platform/i18n';
import { rateLimited, TokenBuckets } from '../../platform/rate-limits';
import type { Realtime } from '../../platform/realtime';
import { findUnstorableText, invalidCharacters } from '../../platform/text-input';
import type { sendActions } from './send';
import { CHAT_SENDS_PER_MINUTE, SOCKET_SEND_BURST, type SendResult } from './send-outcome';

type Sender = ReturnType<typeof sendActions>;

/**
 * The socket's `chat.send` frame: the same checks, statement and answers as the HTTP route, with
 * no session lookup (the socket knows its member). The sender's socket gets chat.ack with the
 * stored message, or chat.nack with the status, code and text the route would answer; the room
 * gets chat.message once, after the ack. A nack's text is the failing field's message when there
 * is one (a frame has no fields), in the member's language of their settings.
 */
export function registerSendFrame(opts: {
  realtime: Realtime;
  chats: Sender;
  query: Query;
  log: FastifyBaseLogger;
  now: () => Date;
}) {
  const { realtime, chats, query, log, now } = opts;
  // A member's socket sends, all their sockets on this process together (full buckets are
  // forgotten when the map reaches its cap).
  const budget = new TokenBuckets({
    perSecond: CHAT_SENDS_PER_MINUTE / 60,
    burst: SOCKET_SEND_BURST,
  });

  async function languageOf(userId: string): Promise<Language> {
    const [row] = await query<{ preferred_language: string }>(
      'select preferred_language from users where id = $1',
      [userId],
    );
    return row && isLanguage(row.preferred_language) ? row.preferred_language : 'it';
  }

  /** The refusal as the route's error handler words it; the field's message first. */
  async function refusal(userId: string, clientId: string, error: AppError) {
    const key = error.fields ? Object.values(error.fields)[0] : error.message;
    const lang = await languageOf(userId);
    return {
      type: 'chat.nack' as const,
      clientId,
      status: error.statusCode,
      code: error.code,
      message: hasKey(key) ? t(lang, key, error.varsIn(lang)) : key,
    };
  }

  /** The frame's checks, in the route's order: its id, storable text, the content's rules. */
  function check(data: Record<string, unknown>): { content: string } {
    if (typeof data.clientId !== 'string' || !UUID_PATTERN.test(data.clientId))
      throw validationFailed({ clientId: 'chatApi.validation.clientIdInvalid' });
    const unstorable = findUnstorableText(data);
    if (unstorable === 'too-deep') throw badRequest('errors.nestedTooDeep');
    if (unstorable !== null) throw invalidCharacters(unstorable);
    const parsed = sendMessageSchema.safeParse({ content: data.content });
    if (!parsed.success)
      throw validationFailed({ content: parsed.error.issues[0]?.message ?? 'validation.invalid' });
    return parsed.data;
  }

  realtime.onFrame('chat.send', async (frame) => {
    const { data, userId } = frame;
    // Echoed as sent (a UUID once checked), so the tab can match the answer to its message.
    const clientId = typeof data.clientId === 'string' ? data.clientId.slice(0, 64) : '';
    let result: SendResult;
    try {
      const { content } = check(data);
      const roomId = typeof data.roomId === 'string' ? data.roomId : '';
      const wait = budget.take(userId, now().getTime());
      // Over the budget, a retry of a message already stored is still acknowledged.
      result =
        wait > 0
          ? await chats.resend(userId, roomId, clientId, rateLimited(wait))
          : await chats.sendBatched(userId, roomId, content, clientId);
    } catch (err) {
      if (!(err instanceof AppError)) log.error({ err }, 'chatApi.errors.sendFailed');
      const error =
        err instanceof AppError ? err : new AppError(500, 'internal', 'chatApi.errors.sendFailed');
      frame.reply(await refusal(userId, clientId, error));
      return;
    }
    frame.reply({ type: 'chat.ack', clientId, message: result.message });
    await chats.publishSent(result);
  });
}
