import type { TFunction } from '@web/lib/translator';
import { formatMoney } from '@shared/money';
import { dealStepText } from '../deals';
import { holidayReplyText } from '../watching';
import { memberName } from './format';
import type { Message } from './types';

/**
 * The words of a line nobody typed: a room notice (type 'system': 'left', a holiday's automatic
 * reply) or a deal's step (type 'deal'), in the reader's language. The conversation and the chat
 * list's preview both read it from here. null for a member's own message (text, book, offer).
 */
export function noticeText(message: Message, t: TFunction, language: string): string | null {
  if (message.type === 'deal')
    return dealStepText(
      message.content,
      message.sender ? memberName(message.sender, t) : t('deals.someone'),
      message.deal?.kind === 'trade',
      t,
    );
  if (message.type !== 'system') return null;
  const name = message.sender ? memberName(message.sender, t) : '';
  if (message.content === 'left') return t('chats.system.left', { name });
  return holidayReplyText(message.content, name, t, language) ?? t('chats.system.other');
}

/**
 * One line for the room list: the text, or what kind of message it was, in the reader's language.
 * A notice or a deal's step reads as in the conversation, never after "You:" (nobody typed it).
 */
export function messagePreview(message: Message, meId: string, t: TFunction, language: string) {
  if (message.deleted) return mine(message, meId, t, t('chats.message.deleted'));
  const notice = noticeText(message, t, language);
  if (notice !== null) return notice;
  let text: string;
  if (message.type === 'offer' && message.offer?.kind === 'trade') text = t('chats.preview.trade');
  else if (message.type === 'offer' && message.offer)
    text = t('chats.preview.offer', {
      amount: formatMoney(message.offer.amount, message.offer.currency, language),
    });
  else if (message.type === 'listing' && message.listing)
    text = t('chats.preview.listing', { title: message.listing.title });
  else text = message.content;
  return mine(message, meId, t, text);
}

const mine = (message: Message, meId: string, t: TFunction, text: string) =>
  message.senderId === meId ? t('chats.preview.mine', { text }) : text;
