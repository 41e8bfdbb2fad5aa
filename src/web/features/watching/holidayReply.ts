import type { TFunction } from '../../lib/translator';
import { formatDate } from '@shared/format';

/**
 * The text of a holiday's automatic reply in a chat (a system message whose content is
 * `holiday|<last day>|<the seller's words or empty>`, profiles/holiday.ts on the server): the
 * seller's words, or the default words in the reader's language. null for any other content.
 */
export function holidayReplyText(
  content: string,
  name: string,
  t: TFunction,
  language: string,
): string | null {
  const match = /^holiday\|(\d{4}-\d{2}-\d{2})\|([\s\S]*)$/.exec(content);
  if (!match) return null;
  const [, day, text] = match;
  return text
    ? t('holiday.replyCustom', { name, text })
    : t('holiday.replyDefault', { name, date: formatDate(day, language) });
}
