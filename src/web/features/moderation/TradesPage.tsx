import { Anchor, Center, Group, Loader, Paper, Rating, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useLiveTrades, useTrades } from './api';
import { ReviewAction } from './ReviewTradeButton';
import { PageNumbers } from '../../components/PageNumbers';
import { PendingTrades } from './PendingTrades';

/** /profile/:userId/transactions — my completed trades, each with its review action. */
export default function TradesPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('reviews.trades.pageTitle'));
  const [page, setPage] = useState(1);
  const trades = useTrades(page);
  useLiveTrades();
  const data = trades.data;
  return (
    <Stack>
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        {t('reviews.trades.pageTitle')}
      </Title>
      <Text c="dimmed">{t('reviews.trades.intro')}</Text>
      <PendingTrades />
      {trades.isPending && (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      )}
      {trades.isError && (
        <Text c="var(--mantine-color-error)" role="alert">
          {trades.error.message}
        </Text>
      )}
      {data && data.total === 0 && <Text>{t('reviews.trades.empty')}</Text>}
      {data && data.items.length > 0 && (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.items.map((trade) => (
            <Paper component="li" key={trade.transactionId} withBorder p="md" data-testid="trade">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <div>
                  <Text fw={600}>
                    {t(trade.role === 'buyer' ? 'reviews.trades.bought' : 'reviews.trades.sold', {
                      title: trade.listingTitle ?? t('reviews.trades.untitled'),
                      name: trade.other.deleted ? t('members.deleted') : trade.other.displayName,
                    })}
                  </Text>
                  <Text size="xs" c="dimmed">
                    <time dateTime={trade.completedAt}>
                      {formatDate(trade.completedAt, i18n.language)}
                    </time>
                    {' · '}
                    {trade.other.deleted ? (
                      t('members.deleted')
                    ) : (
                      <Anchor component={Link} to={`/user/${trade.other.id}`} size="xs">
                        {trade.other.displayName}
                      </Anchor>
                    )}
                  </Text>
                </div>
                {!trade.other.deleted && <ReviewAction trade={trade} />}
              </Group>
              {trade.theirReview && (
                <Stack gap={2} mt="sm" data-testid="their-review">
                  <Text size="sm" fw={600}>
                    {t('reviews.blind.theirs', {
                      name: trade.other.deleted ? t('members.deleted') : trade.other.displayName,
                    })}
                  </Text>
                  <Group
                    gap="xs"
                    role="img"
                    aria-label={t('reviews.stars', { rating: trade.theirReview.rating })}
                  >
                    <Rating value={trade.theirReview.rating} readOnly size="sm" aria-hidden />
                  </Group>
                  {trade.theirReview.text && (
                    <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                      {trade.theirReview.text}
                    </Text>
                  )}
                </Stack>
              )}
            </Paper>
          ))}
        </Stack>
      )}
      {data && (
        <PageNumbers pages={Math.ceil(data.total / data.pageSize)} page={page} onChange={setPage} />
      )}
    </Stack>
  );
}
