import { Button, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Deal } from '@shared/schemas/deals';
import { formatMoney } from '@shared/money';
import { useTranslation } from '@web/lib/reactI18n';
import { MoneyInput, type MoneyValue } from '../../components/MoneyInput';
import { paymentKeys, useDealPayment } from './api';

export type CaseOutcomeBody = { outcome: 'completed' | 'cancelled'; refundCents?: number };
type Choice = 'release' | 'partial' | 'full';

/**
 * Whether a deal's money is held in the app (paid, not yet released or refunded): then an admin
 * closes its case with `CaseRefund` instead of the plain outcome buttons.
 */
export function useHeldPayment(deal: Deal) {
  const answer = useDealPayment(deal.id, deal.kind === 'sale' && deal.role === 'admin');
  const payment = answer.data?.payment;
  return payment?.status === 'paid' ? payment : null;
}

/**
 * The admin's refund control on a problem's case (issue 36): what was paid, and how the case
 * closes — everything to the seller, a part the admin enters back to the buyer (more than 0, at
 * most the seller's share; the rest to the seller), or the deal cancelled and everything
 * refunded. The server checks the amount again; its error is shown as it answers.
 */
export function CaseRefund({
  deal,
  onClose,
  pending,
}: {
  deal: Deal;
  onClose: (body: CaseOutcomeBody) => Promise<unknown>;
  pending: boolean;
}) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const payment = useHeldPayment(deal);
  const [choice, setChoice] = useState<Choice>('release');
  const [amount, setAmount] = useState<MoneyValue>('');
  const [error, setError] = useState<string | null>(null);
  if (!payment) return null;
  const money = (cents: number) => formatMoney(cents / 100, payment.currency, i18n.language);
  const share = payment.totalCents - payment.feeCents - payment.refundedCents;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    let body: CaseOutcomeBody = { outcome: 'completed' };
    if (choice === 'full') body = { outcome: 'cancelled' };
    if (choice === 'partial') {
      const cents = typeof amount === 'number' ? Math.round(amount * 100) : Number.NaN;
      if (!Number.isFinite(cents) || cents <= 0) {
        setError(t('payments.case.errorPositive'));
        return;
      }
      if (cents > share) {
        setError(t('payments.case.errorMax', { max: money(share) }));
        return;
      }
      body = { outcome: 'completed', refundCents: cents };
    }
    setError(null);
    void onClose(body)
      .then(() => client.invalidateQueries({ queryKey: paymentKeys.deal(deal.id) }))
      .catch(() => {});
  };

  return (
    <Paper withBorder p="xs" radius="sm" data-testid="case-refund">
      <form onSubmit={submit} noValidate aria-label={t('payments.case.title')}>
        <Stack gap="xs">
          <Text size="xs" fw={700}>
            {t('payments.case.title')}
          </Text>
          <Text size="xs">
            {t('payments.case.paid', {
              total: money(payment.totalCents),
              share: money(share),
              fee: money(payment.feeCents),
            })}
          </Text>
          <Radio.Group
            label={t('payments.case.choose')}
            value={choice}
            onChange={(v) => {
              setChoice(v as Choice);
              setError(null);
            }}
            size="xs"
          >
            <Stack gap={6} mt={4}>
              <Radio value="release" label={t('payments.case.release', { share: money(share) })} />
              <Radio value="partial" label={t('payments.case.partial')} />
              <Radio
                value="full"
                label={t('payments.case.full', { total: money(payment.totalCents) })}
              />
            </Stack>
          </Radio.Group>
          {choice === 'partial' && (
            <MoneyInput
              label={t('payments.case.amount', { currency: payment.currency })}
              description={t('payments.case.amountHelp', { max: money(share) })}
              value={amount}
              onChange={(v) => {
                setAmount(v);
                setError(null);
              }}
              error={error}
              size="xs"
              required
            />
          )}
          {error && choice !== 'partial' && (
            <Text size="xs" c="red.9" role="alert">
              {error}
            </Text>
          )}
          <Group>
            <Button
              type="submit"
              size="compact-sm"
              color={choice === 'release' ? undefined : 'red'}
              loading={pending}
            >
              {t('payments.case.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
