import { Stack, Text } from '@mantine/core';
import { buyerFeeCents } from '@shared/schemas/payments';
import { formatMoney } from '@shared/money';
import { useTranslation } from '@web/lib/reactI18n';
import { usePaymentsFee } from './api';
import { feeRate } from './feeRate';

/**
 * The buyer-protection fee in the offer dialog, before an offer is made (issue 36): with
 * payments on, the fee on the books and shipping and the total to pay in the app (books +
 * shipping + fee), and what the fee buys. Nothing when payments are off. The server computes the
 * same amounts (`buyerFeeCents`) when the offer is accepted.
 */
export function OfferFee({
  subtotal,
  currency,
  method,
}: {
  /** Books and shipping, in the currency's units; null while the amount is not valid. */
  subtotal: number | null;
  currency: string;
  method: 'post' | 'hand';
}) {
  const { t, i18n } = useTranslation();
  const answer = usePaymentsFee();
  const fee = answer.data?.fee;
  if (!answer.data?.enabled || !fee) return null;
  const money = (cents: number) => formatMoney(cents / 100, currency, i18n.language);
  const cents = subtotal === null ? null : Math.round(subtotal * 100);
  const feeCents = cents === null ? null : buyerFeeCents(cents, fee.percent, fee.fixedCents);
  return (
    <Stack gap={2} data-testid="offer-fee">
      <Text size="sm">
        {t('payments.offer.fee', { amount: feeCents === null ? '—' : money(feeCents) })}
      </Text>
      <Text size="sm" fw={700}>
        {t(method === 'post' ? 'payments.offer.total' : 'payments.offer.totalHand', {
          total: cents === null || feeCents === null ? '—' : money(cents + feeCents),
        })}
      </Text>
      <Text size="xs" c="dimmed">
        {t(
          method === 'post' ? 'payments.offer.help' : 'payments.offer.helpHand',
          feeRate(fee, currency, i18n.language),
        )}
      </Text>
    </Stack>
  );
}
