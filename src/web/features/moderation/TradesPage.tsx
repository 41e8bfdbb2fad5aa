import {
  Anchor,
  Badge,
  Center,
  Group,
  Loader,
  Paper,
  Rating,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import type { Trade } from '@shared/reviews';
import type { TFunction } from '@web/lib/translator';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useLiveTrades, useTrades } from './api';
import { ReviewAction } from './ReviewTradeButton';
import { PageNumbers } from '../../components/PageNumbers';
import { PendingTrades } from './PendingTrades';

/** Titles quoted the language's way, as a list («A», «B» e «C»). */
function titles(list: string[], t: TFunction, language: string) {
  return new Intl.ListFormat(language, { type: 'conjunction' }).format(
    list.map((title) => t('reviews.trades.quoted', { title })),
  );
}

/**
 * What changed hands: a sale bought or sold; a trade as one exchange (issue 33 item 8), the books
 * I gave for those I received.
 */
function tradeLine(trade: Trade, t: TFunction, language: string) {
  const name = trade.other.deleted ? t('members.deleted') : trade.other.displayName;
  const untitled = t('reviews.trades.untitled');
  if (!trade.books)
    return t(trade.role === 'buyer' ? 'reviews.trades.bought' : 'reviews.trades.sold', {
      title: trade.listingTitle ?? untitled,
      name,
    });
  const { given, received } = trade.books;
  const gave = given.length ? titles(given, t, language) : untitled;
  const got = received.length ? titles(received, t, language) : untitled;
  if (given.length && received.length)
    return t('reviews.trades.traded', { given: gave, received: got, name });
  return given.length
    ? t('reviews.trades.tradedAway', { given: gave, name })
    : t('reviews.trades.tradedIn', { received: got, name });
}

/** /profile/:userId/transactions — my completed sales and trades, each with its review action. */
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
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Badge
                      size="sm"
                      variant="light"
                      color={trade.books ? 'grape' : 'gray'}
                      c="dark.7"
                    >
                      {t(trade.books ? 'reviews.trades.kind.trade' : 'reviews.trades.kind.sale')}
                    </Badge>
                    <Text fw={600} data-testid="trade-what">
                      {tradeLine(trade, t, i18n.language)}
                    </Text>
                  </Group>
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
                    aria-label={t('reviews.stars', { count: trade.theirReview.rating })}
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
