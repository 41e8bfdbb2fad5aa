import { storedMoney } from './money';
import type { DataTFunction } from './translator';

/** What the words of a notification need: the web's NotificationView or the digest's row. */
export interface NotificationWords {
  type: string;
  /** The latest actor: the server passes a name, the web app the actor (null when gone). */
  actorName?: string | null;
  actor?: { displayName: string } | null;
  /** How many members folded into it ("Anna and 3 others"). */
  actorCount: number;
  data: Record<string, string | number | null>;
}

/**
 * The words of a notification, the same in the bell and in the e-mail digest:
 * `notifications.types.<type>` with the latest actor's name (or "someone"), `others` and `count`
 * (the same number, for the plural forms: "Anna and 3 others"), every entry of its data (null
 * reads as nothing), and data's `context` as the translator's context (offer.answered_accepted),
 * refined by data's `variant` where the catalogue has words for both (deal.step_deal_completed_trade
 * before deal.step_deal_completed, for a trade's deal).
 * Money is data (`amount` and its `currency`), written in the reader's `language` ("7,50 €",
 * "€7.50"); an amount stored already written ("15.00 EUR") is written again the same way.
 */
export function notificationText(t: DataTFunction, n: NotificationWords, language: string): string {
  const others = Math.max(0, n.actorCount - 1);
  const { context, variant, ...data } = n.data;
  const values: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(data)) values[k] = v ?? '';
  if ('amount' in data) values.amount = storedMoney(data.amount, data.currency, language);
  return t(`notifications.types.${n.type}`, {
    ...values,
    actor: (n.actorName ?? n.actor?.displayName) || t('notifications.someone'),
    others,
    count: others,
    ...(typeof context === 'string'
      ? { context: typeof variant === 'string' ? [`${context}_${variant}`, context] : context }
      : {}),
  });
}
