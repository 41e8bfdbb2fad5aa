import { isLanguage, type Language } from '@shared/constants';
import { formatMoney } from '@shared/money';
import { t } from '../../platform/i18n';
import { greetingName, layoutEmail, type Mailer } from '../../platform/mail';
import type { Query } from '../../db/tx';
import { insertMessage } from '../chats';

/** What moved: the buyer paid, the seller's share was sent, money went back to the buyer. */
export type Movement = 'paid' | 'released' | 'refunded';

export interface ReceiptDeps {
  query: Query;
  mailer?: Mailer;
  publicUrl: string;
  /** Publishes a message inserted in a conversation to its members, live. */
  publish?: (roomId: string, messageId: string) => Promise<unknown>;
}

interface Party {
  id: string;
  email: string;
  name: string;
  lang: Language;
}

/**
 * Tells both sides of a deal that its money moved (issue 36): a line in the conversation (a deal
 * step `payment.<movement>`, as every step is) and e-mail receipts in each member's language —
 * paid: the buyer's receipt (books, shipping, fee, total) and the seller's notice; released: the
 * seller; refunded: the buyer, with the amount. Called once per movement, after it is recorded.
 */
export function createReceipts(deps: ReceiptDeps) {
  const { query, mailer, publicUrl } = deps;

  async function party(id: string): Promise<Party | null> {
    const [row] = await query<{ email: string; display_name: string; lang: string }>(
      `select email::text as email, display_name, preferred_language as lang from users
       where id = $1 and account_status <> 'deleted'`,
      [id],
    );
    if (!row) return null;
    return {
      id,
      email: row.email,
      name: row.display_name,
      lang: isLanguage(row.lang) ? row.lang : 'it',
    };
  }

  return async function tell(dealId: string, movement: Movement, cents: number): Promise<void> {
    const [deal] = await query<{
      room_id: string;
      buyer_id: string;
      seller_id: string;
      currency: string;
      books_cents: number;
      shipping_cents: number;
      fee_cents: number;
      total_cents: number;
      titles: string[];
    }>(
      `select d.room_id::text, d.buyer_id, d.seller_id, p.currency, p.books_cents,
         p.shipping_cents, p.fee_cents, p.total_cents,
         (select coalesce(array_agg(b.title order by b.position), '{}') from deal_books b
          where b.deal_id = d.id) as titles
       from deals d join deal_payments p on p.deal_id = d.id where d.id = $1`,
      [dealId],
    );
    if (!deal) return;
    // The line in the conversation: the buyer pays; the money's other moves read as the deal's.
    const messageId = await insertMessage(query, {
      roomId: deal.room_id,
      senderId: movement === 'paid' ? deal.buyer_id : deal.seller_id,
      type: 'deal',
      content: `payment.${movement}`,
      dealId,
    });
    if (messageId && deps.publish) await deps.publish(deal.room_id, messageId);
    if (!mailer) return;

    const [buyer, seller] = await Promise.all([party(deal.buyer_id), party(deal.seller_id)]);
    const titles = deal.titles.map((title) => `“${title}”`).join(', ');
    const send = async (to: Party | null, kind: string, other: Party | null, receipt = false) => {
      if (!to) return;
      const money = (c: number) => formatMoney(c / 100, deal.currency, to.lang);
      // The buyer's receipt: what they paid for, line by line.
      const lines = receipt
        ? [
            t(to.lang, 'payments.email.lineBooks', { titles, amount: money(deal.books_cents) }),
            ...(deal.shipping_cents > 0
              ? [t(to.lang, 'payments.email.lineShipping', { amount: money(deal.shipping_cents) })]
              : []),
            t(to.lang, 'payments.email.lineFee', { amount: money(deal.fee_cents) }),
            t(to.lang, 'payments.email.lineTotal', { amount: money(deal.total_cents) }),
          ].join('\n')
        : undefined;
      const vars = {
        amount: money(cents),
        share: money(deal.total_cents - deal.fee_cents),
        titles,
        name: other?.name ?? t(to.lang, 'profile.deleted'),
      };
      const key = `payments.email.${kind}`;
      await mailer.send({
        ...layoutEmail({
          lang: to.lang,
          to: to.email,
          subject: t(to.lang, `${key}.subject`, vars),
          greeting: t(to.lang, 'auth.email.greeting', { name: greetingName(to.name, to.email) }),
          intro: t(to.lang, `${key}.intro`, vars),
          quote: lines,
          action: {
            label: t(to.lang, 'payments.email.action'),
            link: `${publicUrl}/profile/${encodeURIComponent(to.id)}/chats?room=${encodeURIComponent(deal.room_id)}`,
          },
          note: t(to.lang, `${key}.note`, vars),
          signature: t(to.lang, 'auth.email.signature'),
        }),
        about: other ? [other.id] : [],
      });
    };
    if (movement === 'paid') {
      await send(buyer, 'paidBuyer', seller, true);
      await send(seller, 'paidSeller', buyer);
    } else if (movement === 'released') await send(seller, 'released', buyer);
    else await send(buyer, 'refunded', seller);
  };
}
