import { Button, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconStar } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import type { Trade } from '@shared/reviews';
import { useTrades } from './api';
import { ReviewDialog } from './ReviewDialog';

/** The review action of one completed trade: write, edit within 14 days, or "reviewed". */
export function ReviewAction({ trade, now = Date.now() }: { trade: Trade; now?: number }) {
  const { t } = useTranslation();
  const [opened, dialog] = useDisclosure(false);
  const review = trade.myReview;
  // A sale one member recorded alone, or with a member who has since deleted their account,
  // takes no new review (one written before stays editable).
  if (!review && !trade.reviewable)
    return (
      <Text size="xs" c="dimmed">
        {t(trade.other.deleted ? 'reviews.errors.memberDeleted' : 'reviews.action.notReviewable')}
      </Text>
    );
  const editable = !review || new Date(review.editableUntil).getTime() > now;
  if (!editable)
    return (
      <Text size="xs" c="dimmed">
        {t('reviews.action.reviewed')}
      </Text>
    );
  return (
    <>
      <Button
        size="compact-sm"
        variant={review ? 'default' : 'filled'}
        leftSection={<IconStar size={14} aria-hidden />}
        onClick={dialog.open}
      >
        {t(review ? 'reviews.action.edit' : 'reviews.action.leave')}
      </Button>
      {opened && (
        <ReviewDialog
          opened={opened}
          onClose={dialog.close}
          transactionId={trade.transactionId}
          otherName={trade.other.displayName}
          review={review}
        />
      )}
    </>
  );
}

/** For a completed offer in a conversation: the review action of the trade of that listing. */
export function ReviewTradeButton({ listingId }: { listingId: string }) {
  const trades = useTrades(1, listingId);
  const trade = trades.data?.items[0];
  return trade ? <ReviewAction trade={trade} /> : null;
}
