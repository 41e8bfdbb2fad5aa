import { greetingName } from '../../platform/mail';
import type { FastifyBaseLogger } from 'fastify';
import { isLanguage, type Language } from '@shared/constants';
import { formatMoney } from '@shared/money';
import type { ChatMessage } from '@shared/schemas/chats';
import { layoutEmail, type Mailer, type MailMessage } from '../../platform/mail';
import { t } from '../../platform/i18n';
import type { Realtime } from '../../platform/realtime';
import type { Query } from '../../db/tx';

/** At most one "new messages" e-mail per member and room in this window. */
export const EMAIL_NOTICE_WINDOW_HOURS = 1;
const EXCERPT_MAX = 300;

interface Recipient {
  id: string;
  email: string;
  display_name: string;
  preferred_language: string;
}

function excerptOf(lang: Language, message: ChatMessage): string {
  if (message.type === 'offer' && message.offer?.kind === 'trade')
    return t(lang, 'chatApi.email.trade', { title: message.listing?.title ?? '' });
  if (message.type === 'offer' && message.offer) {
    return t(lang, 'chatApi.email.offer', {
      amount: formatMoney(message.offer.amount, message.offer.currency, lang),
      title: message.listing?.title ?? '',
    });
  }
  if (message.type === 'listing' && message.listing)
    return t(lang, 'chatApi.email.listing', { title: message.listing.title });
  const text = message.content;
  return text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX)}…` : text;
}

export function missedMessageEmail(
  lang: Language,
  recipient: { email: string; name: string },
  sender: string,
  room: { name: string | null; isGroup: boolean },
  message: ChatMessage,
  link: string,
): MailMessage {
  const greeting = t(lang, 'auth.email.greeting', {
    name: greetingName(recipient.name, recipient.email),
  });
  const intro =
    room.isGroup && room.name
      ? t(lang, 'chatApi.email.introGroup', { name: sender, room: room.name })
      : t(lang, 'chatApi.email.intro', { name: sender });
  const excerpt = excerptOf(lang, message);
  const action = t(lang, 'chatApi.email.action');
  const note = t(lang, 'chatApi.email.note');
  const signature = t(lang, 'auth.email.signature');
  return layoutEmail({
    lang,
    to: recipient.email,
    subject: t(lang, 'chatApi.email.subject', { name: sender }),
    greeting,
    intro,
    quote: excerpt,
    action: { label: action, link },
    note,
    signature,
  });
}

/**
 * E-mails the participants who have no live socket when a message arrives, in their language,
 * at most once an hour per room, unless they turned e-mail notifications off. Runs after the
 * message is committed; the hourly claim is one upsert, so two messages at once send one e-mail.
 */
export function createMissedMessageNotifier(deps: {
  query: Query;
  realtime: Realtime;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
  log: FastifyBaseLogger;
}) {
  const { query, realtime, mailer, publicUrl, now, log } = deps;

  /**
   * The messages' recipients who want e-mails and have no live socket: one query and one
   * presence look-up for a whole batch of messages (the socket's sends, docs/decisions/0077).
   */
  async function awayOf(messages: readonly ChatMessage[]): Promise<Recipient[][]> {
    const rows = await query<Recipient & { n: number | string }>(
      `select m.n, u.id, u.email::text as email, u.display_name, u.preferred_language
       from unnest($1::uuid[], $2::text[]) with ordinality as m(room_id, sender_id, n)
       join chat_participants p on p.room_id = m.room_id and p.user_id <> m.sender_id
       join users u on u.id = p.user_id and u.email_notifications`,
      [messages.map((m) => m.roomId), messages.map((m) => m.senderId)],
    );
    const away: Recipient[][] = messages.map(() => []);
    if (rows.length === 0) return away;
    const online = await realtime.onlineAmong([...new Set(rows.map((r) => r.id))]);
    for (const { n, ...recipient } of rows)
      if (!online.has(recipient.id)) away[Number(n) - 1].push(recipient);
    return away;
  }

  async function notifyMany(messages: readonly ChatMessage[]): Promise<void> {
    const sent = messages.filter((m) => m.senderId);
    if (sent.length === 0) return;
    const away = await awayOf(sent);
    for (let i = 0; i < sent.length; i++)
      if (away[i].length) await mail(sent[i].roomId, sent[i], away[i]);
  }

  async function mail(roomId: string, message: ChatMessage, away: Recipient[]): Promise<void> {
    const senderId = message.senderId!;
    const [room] = await query<{ name: string | null; is_group: boolean }>(
      'select name, is_group from chat_rooms where id = $1',
      [roomId],
    );
    if (!room) return;
    const at = now();
    for (const recipient of away) {
      const claimed = await query(
        `insert into chat_email_notices (room_id, user_id, sent_at) values ($1, $2, $3)
         on conflict (room_id, user_id) do update set sent_at = excluded.sent_at
         where chat_email_notices.sent_at <= excluded.sent_at - interval '${EMAIL_NOTICE_WINDOW_HOURS} hour'
         returning user_id`,
        [roomId, recipient.id, at.toISOString()],
      );
      if (claimed.length === 0) continue;
      const lang: Language = isLanguage(recipient.preferred_language)
        ? recipient.preferred_language
        : 'it';
      const link = `${publicUrl}/profile/${encodeURIComponent(recipient.id)}/chats?room=${roomId}`;
      try {
        await mailer.send({
          ...missedMessageEmail(
            lang,
            { email: recipient.email, name: recipient.display_name },
            message.sender?.displayName || message.sender?.username || '',
            { name: room.name, isGroup: room.is_group },
            message,
            link,
          ),
          about: [senderId],
        });
      } catch (err) {
        log.error({ err, roomId }, 'missed-message e-mail not sent');
        // Not sent: the next message may try again.
        await query(
          'delete from chat_email_notices where room_id = $1 and user_id = $2 and sent_at = $3',
          [roomId, recipient.id, at.toISOString()],
        ).catch(() => {});
      }
    }
  }

  /** One message (an HTTP send, an offer's card), or a batch of them. */
  const notify = (roomId: string, message: ChatMessage) => notifyMany([{ ...message, roomId }]);
  return Object.assign(notify, { many: notifyMany });
}
