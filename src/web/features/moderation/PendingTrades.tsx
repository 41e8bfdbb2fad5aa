import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import type { PendingTransaction } from '@shared/transactions';
import { notifyError, notifySuccess } from '../listings';
import { useAnswerTransaction, usePendingTransactions } from './pendingApi';
import type { LocaleKey } from '../../lib/translator';

/**
 * Sales a seller recorded with me, to confirm or decline, and those I recorded, waiting for the
 * other member: an exchange counts, and can be reviewed, only once both agree.
 */
export function PendingTrades() {
  const { t } = useTranslation();
  const pending = usePendingTransactions();
  const items = pending.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="pending-trades-title">
      <Title order={2} fz="lg" id="pending-trades-title">
        {t('reviews.pending.title')}
      </Title>
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {items.map((item) => (
          <PendingItem key={item.transactionId} item={item} />
        ))}
      </Stack>
    </Stack>
  );
}

function PendingItem({ item }: { item: PendingTransaction }) {
  const { t } = useTranslation();
  const answer = useAnswerTransaction();
  const vars = {
    name: item.other.displayName,
    title: item.listingTitle ?? t('reviews.trades.untitled'),
  };
  const send = async (action: 'confirm' | 'decline', done: LocaleKey) => {
    try {
      await answer.mutateAsync({ id: item.transactionId, action });
      notifySuccess(t(done));
    } catch (err) {
      notifyError(err, 'complete', t);
    }
  };
  const asked = item.role === 'buyer';
  return (
    <Paper component="li" withBorder p="md" data-testid="pending-trade">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text fw={600}>
          {asked
            ? t(
                item.kind === 'sale' ? 'reviews.pending.askedSale' : 'reviews.pending.askedTrade',
                vars,
              )
            : t('reviews.pending.waiting', vars)}
        </Text>
        <Group gap="xs">
          {asked && (
            <Button
              size="compact-sm"
              loading={answer.isPending}
              onClick={() => void send('confirm', 'reviews.pending.confirmed')}
            >
              {t('reviews.pending.confirm')}
            </Button>
          )}
          <Button
            size="compact-sm"
            variant="default"
            disabled={answer.isPending}
            onClick={() =>
              void send('decline', asked ? 'reviews.pending.declined' : 'reviews.pending.withdrawn')
            }
          >
            {t(asked ? 'reviews.pending.decline' : 'reviews.pending.withdraw')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
