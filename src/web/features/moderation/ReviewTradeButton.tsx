import { Button, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconStar } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import type { Trade } from '@shared/reviews';
import { useTrades } from './api';
import { ReviewDialog } from './ReviewDialog';

/**
 * The review action of one completed trade (double-blind, decision 0073): write within the 14
 * days, edit while it waits for the other's, then "published". Before writing mine I learn only
 * that the other's review waits for it, never what it says.
 */
export function ReviewAction({ trade, now = Date.now() }: { trade: Trade; now?: number }) {
  const { t, i18n } = useTranslation();
  const [opened, dialog] = useDisclosure(false);
  const review = trade.myReview;
  const name = trade.other.displayName;
  const date = (iso: string) => formatDate(iso, i18n.language);
  if (!review && !trade.reviewable) {
    // A sale one member recorded alone, a member who has since deleted their account, or the
    // 14 days are over: no new review.
    const why = trade.other.deleted
      ? 'reviews.errors.memberDeleted'
      : new Date(trade.reviewableUntil).getTime() <= now
        ? 'reviews.blind.closed'
        : 'reviews.action.notReviewable';
    return (
      <Text size="xs" c="dimmed">
        {t(why)}
      </Text>
    );
  }
  const published = review !== null && (review.published || review.publishedAt <= iso(now));
  const editable = !review || (!published && new Date(review.editableUntil).getTime() > now);
  return (
    <Stack gap={4} align="flex-end" maw={360}>
      {!review && trade.theirReviewWaiting && (
        <Text size="sm" fw={600} ta="right" data-testid="review-waiting">
          {t('reviews.blind.waiting', { name })}
        </Text>
      )}
      {review && !published && (
        <Text size="xs" c="dimmed" ta="right" data-testid="review-pending">
          {t('reviews.blind.mine', { name, date: date(review.publishedAt) })}
        </Text>
      )}
      {published && (
        <Text size="xs" c="dimmed" ta="right" data-testid="review-published">
          {t('reviews.blind.minePublished')}
        </Text>
      )}
      {editable && (
        <Button
          size="compact-sm"
          variant={review ? 'default' : 'filled'}
          leftSection={<IconStar size={14} aria-hidden />}
          onClick={dialog.open}
        >
          {t(review ? 'reviews.action.edit' : 'reviews.action.leave')}
        </Button>
      )}
      {!review && (
        <Text size="xs" c="dimmed" ta="right">
          {t('reviews.blind.until', { date: date(trade.reviewableUntil) })}
        </Text>
      )}
      {opened && (
        <ReviewDialog
          opened={opened}
          onClose={dialog.close}
          transactionId={trade.transactionId}
          otherName={name}
          review={review}
        />
      )}
    </Stack>
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

/** For a completed offer in a conversation: the review action of the trade of that listing. */
export function ReviewTradeButton({ listingId }: { listingId: string }) {
  const trades = useTrades(1, listingId);
  const trade = trades.data?.items[0];
  return trade ? <ReviewAction trade={trade} /> : null;
}
