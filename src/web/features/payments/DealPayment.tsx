import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { Link } from '@web/lib/router';
import type { Deal } from '@shared/schemas/deals';
import type { DealPayment as Payment } from '@shared/schemas/payments';
import { formatMoney } from '@shared/money';
import { intlLocale } from '@shared/intlLocale';
import { useTranslation } from '@web/lib/reactI18n';
import { useDealPayment, usePayDeal } from './api';

const STATUS_COLORS: Record<Payment['status'], string> = {
  due: 'orange',
  paid: 'blue',
  released: 'teal',
  refunded: 'gray',
  void: 'gray',
};

const PAID: Payment['status'][] = ['paid', 'released', 'refunded'];

/**
 * A sale's payment inside the deal's card (issue 36): what the buyer pays (books, shipping, the
 * buyer-protection fee), Pay / Paid / Released / Refunded, and with payments off (or a deal paid
 * outside the app) how to pay safely. The server computes every amount; this only shows them.
 */
export function DealPayment({ deal }: { deal: Deal }) {
  const { t, i18n } = useTranslation();
  // A trade has no amount. An admin reading a case sees what was paid (issue 36).
  const shown = deal.kind === 'sale';
  const answer = useDealPayment(deal.id, shown);
  if (!shown || !answer.data) return null;
  const { payment, enabled } = answer.data;
  if (!payment)
    return (
      <Stack gap={2} data-testid="deal-payment">
        <Text size="xs" fw={600}>
          {t('payments.deal.safeTitle')}
        </Text>
        <Text size="xs">{t(enabled ? 'payments.deal.outside' : 'payments.deal.off')}</Text>
        <Text size="xs" c="dimmed">
          {t('payments.deal.safe')}
        </Text>
      </Stack>
    );
  const money = (cents: number) => formatMoney(cents / 100, payment.currency, i18n.language);
  return (
    <Stack gap={4} data-testid="deal-payment">
      <Group gap="xs">
        <Text size="xs" fw={600}>
          {t('payments.deal.title')}
        </Text>
        <Badge size="xs" variant="light" color={STATUS_COLORS[payment.status]} c="dark.7">
          {t(`payments.status.${payment.status}`)}
        </Badge>
      </Group>
      <Text size="xs" data-testid="payment-lines">
        {[
          t('payments.deal.books', { amount: money(payment.booksCents) }),
          ...(payment.shippingCents > 0
            ? [t('payments.deal.shipping', { amount: money(payment.shippingCents) })]
            : []),
          t('payments.deal.fee', { amount: money(payment.feeCents) }),
        ].join(' · ')}
      </Text>
      <Text size="xs" fw={600}>
        {/* Once the buyer paid, the total is what they paid, not what is left to pay. */}
        {t(PAID.includes(payment.status) ? 'payments.deal.totalPaid' : 'payments.deal.total', {
          amount: money(payment.totalCents),
        })}
      </Text>
      <PaymentState deal={deal} payment={payment} money={money} />
    </Stack>
  );
}

function PaymentState({
  deal,
  payment,
  money,
}: {
  deal: Deal;
  payment: Payment;
  money: (cents: number) => string;
}) {
  const { t, i18n } = useTranslation();
  const pay = usePayDeal(deal.id);
  const helpId = useId();
  const buyer = deal.role === 'buyer';
  const share = payment.totalCents - payment.feeCents;
  switch (payment.status) {
    case 'paid':
      return (
        <Text size="xs" data-testid="payment-state">
          {buyer
            ? t('payments.deal.paidBuyer', { amount: money(payment.totalCents) })
            : deal.role === 'admin'
              ? t('payments.deal.paidAdmin', {
                  amount: money(payment.totalCents),
                  share: money(share - payment.refundedCents),
                })
              : t('payments.deal.paidSeller', { amount: money(share - payment.refundedCents) })}
        </Text>
      );
    case 'released':
      return (
        <Text size="xs" data-testid="payment-state">
          {t('payments.deal.released', { amount: money(payment.releasedCents) })}
          {payment.refundedCents > 0 &&
            ` ${t('payments.deal.releasedRefund', { amount: money(payment.refundedCents) })}`}
        </Text>
      );
    case 'refunded':
      return (
        <Text size="xs" data-testid="payment-state">
          {t('payments.deal.refunded', { amount: money(payment.refundedCents) })}
        </Text>
      );
    case 'void':
      return (
        <Text size="xs" c="dimmed" data-testid="payment-state">
          {t('payments.deal.void')}
        </Text>
      );
  }
  if (deal.status !== 'open') return null;
  const dueBy = payment.dueBy
    ? new Date(payment.dueBy).toLocaleString(intlLocale(i18n.language), {
        dateStyle: 'medium',
        timeStyle: 'short',
      })
    : null;
  if (!buyer)
    return payment.sellerReady || deal.role === 'admin' ? (
      <Text size="xs" data-testid="payment-state">
        {t('payments.deal.waiting', { amount: money(payment.totalCents) })}
      </Text>
    ) : (
      <Text size="xs" data-testid="payment-state">
        {t('payments.deal.setupNeeded')}{' '}
        <Anchor component={Link} to={`/profile/${encodeURIComponent(deal.seller.id)}/payments`}>
          {t('payments.page.setup')}
        </Anchor>
      </Text>
    );
  if (!payment.sellerReady)
    return (
      <Text size="xs" data-testid="payment-state">
        {t('payments.deal.sellerNotReady')}
      </Text>
    );
  return (
    <Stack gap={4}>
      {dueBy && <Text size="xs">{t('payments.deal.dueBy', { time: dueBy })}</Text>}
      {deal.method === 'hand' && <Text size="xs">{t('payments.deal.handOptional')}</Text>}
      <Text size="xs" c="dimmed">
        {t('payments.deal.feeHelp')}
      </Text>
      <Group>
        <Button
          size="compact-sm"
          aria-describedby={helpId}
          loading={pay.isPending || pay.isSuccess}
          onClick={() => pay.mutate()}
        >
          {t('payments.deal.pay', { amount: money(payment.totalCents) })}
        </Button>
      </Group>
      <Text id={helpId} size="xs" c="dimmed">
        {t('payments.deal.payHelp')}
      </Text>
      {pay.error && (
        <Text size="xs" c="red.9" role="alert">
          {pay.error.message}
        </Text>
      )}
    </Stack>
  );
}
