import type { TFunction } from '@web/lib/translator';
import { Badge, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { StepAction } from './StepAction';
import { dealActions } from './dealActions';
import { ConfirmDialog, useConfirmStep } from '../../components/ConfirmDialog';
import { formatMoney } from '@shared/money';
import type { Deal } from '@shared/schemas/deals';
import { useTranslation } from '@web/lib/reactI18n';
import { useDeal, useDealStep } from './api';
import { PostSteps } from './post/PostSteps';
import { MeetingSteps } from './meetings/MeetingSteps';
import { TradePostSteps } from './post/TradePostSteps';
import { DealPayment } from '../payments';

const STATUS_COLORS: Record<Deal['status'], string> = {
  open: 'blue',
  completed: 'teal',
  cancelled: 'gray',
};

/**
 * The deal an accepted offer opened, inside the conversation: its books, total (with shipping),
 * how it goes (post or hand to hand) and the steps open to this member.
 */
export function DealCard({ dealId }: { dealId: string }) {
  const { t } = useTranslation();
  const deal = useDeal(dealId);
  if (deal.isPending) return <Loader size="xs" aria-label={t('deals.loading')} />;
  if (deal.isError)
    return (
      <Text size="xs" c="red.9" role="alert">
        {deal.error.message}
      </Text>
    );
  return <DealDetails deal={deal.data} />;
}

/**
 * "Trade: “X” for “Y”" (decision 0080), from the reader's side: the books they give for the
 * other's, quoted each language's way («X» in Italian).
 * An admin reads it from the proposer's side.
 */
function tradeSummary(deal: Deal, t: TFunction) {
  const me = deal.role === 'seller' ? deal.seller.id : deal.buyer.id;
  const titles = (mine: boolean) =>
    deal.listings
      .filter((l) => (l.ownerId === me) === mine)
      .map((l) => t('deals.quoted', { title: l.title }))
      .join(', ');
  return t('deals.trade.summary', { give: titles(true), get: titles(false) });
}

export function DealDetails({ deal }: { deal: Deal }) {
  const { t, i18n } = useTranslation();
  const cancel = useDealStep(deal.id, 'cancel');
  const cancelStep = useConfirmStep(cancel);
  const money = (n: number) => formatMoney(n, deal.currency, i18n.language);
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="deal-card" aria-label={t('deals.title')}>
      <Stack gap={6}>
        <Group gap="xs" justify="space-between">
          <Text size="sm" fw={700}>
            {deal.kind === 'trade'
              ? `${t('deals.trade.kind')} · ${t(`deals.method.${deal.method}`)}`
              : t(`deals.method.${deal.method}`)}
          </Text>
          <Badge size="sm" variant="light" color={STATUS_COLORS[deal.status]} c="dark.7">
            {t(`deals.status.${deal.status}`)}
          </Badge>
        </Group>
        {deal.kind === 'trade' ? (
          <Text size="sm" data-testid="deal-trade">
            {tradeSummary(deal, t)}
          </Text>
        ) : (
          // The books as agreed when the offer was accepted (issue 32), one or a bundle's.
          deal.listings.length > 0 && (
            <Text size="xs" data-testid="deal-books">
              {t('deals.books', { count: deal.listings.length })}:{' '}
              {deal.listings.map((l) => l.title).join(', ')}
            </Text>
          )
        )}
        {deal.kind !== 'trade' && (
          <Text size="xs">
            {deal.shippingAmount === null
              ? t('deals.total', { total: money(deal.total) })
              : t('deals.totalWithShipping', {
                  total: money(deal.total),
                  amount: money(deal.amount ?? 0),
                  shipping: money(deal.shippingAmount),
                })}
          </Text>
        )}
        <DealPayment deal={deal} />
        {deal.tradePost ? (
          <TradePostSteps deal={deal} />
        ) : deal.method === 'post' ? (
          <PostSteps deal={deal} />
        ) : (
          <MeetingSteps deal={deal} />
        )}
        {dealActions(deal).cancel && (
          <StepAction
            label={t('deals.cancel')}
            help={t('deals.cancelHelp')}
            variant="default"
            onClick={cancelStep.ask}
          />
        )}
        <ConfirmDialog
          {...cancelStep.dialog}
          title={t('deals.cancelDialog.title')}
          confirmLabel={t('deals.cancelDialog.confirm')}
          cancelLabel={t('deals.cancelDialog.keep')}
          color="red.9"
        >
          {t('deals.cancelDialog.body')}
        </ConfirmDialog>
      </Stack>
    </Paper>
  );
}
