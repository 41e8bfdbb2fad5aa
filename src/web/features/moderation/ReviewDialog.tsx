import { Button, Group, Input, Modal, Rating, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import { REVIEW_TEXT_MAX, type Review } from '@shared/reviews';
import { ApiError } from '../../lib/api';
import { useSaveReview } from './api';

/**
 * Writes (or, while it waits for the other's, edits) my review of the other party of a trade.
 * Double-blind: it is published when the other party writes theirs, or at the end of 14 days.
 */
export function ReviewDialog({
  opened,
  onClose,
  transactionId,
  otherName,
  review,
}: {
  opened: boolean;
  onClose: () => void;
  transactionId: string;
  otherName: string;
  review: Review | null;
}) {
  const { t, i18n } = useTranslation();
  const [rating, setRating] = useState(review?.rating ?? 0);
  const [text, setText] = useState(review?.text ?? '');
  const save = useSaveReview();
  const error = save.error instanceof ApiError ? save.error : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { reviewId: review?.id, transactionId, rating, text },
      {
        onSuccess: (saved) => {
          notifications.show({
            color: 'green',
            message: review
              ? t('reviews.dialog.saved')
              : saved.published
                ? t('reviews.dialog.published')
                : t('reviews.dialog.sent', {
                    name: otherName,
                    date: formatDate(saved.publishedAt, i18n.language),
                  }),
            closeButtonProps: { 'aria-label': t('common.close') },
          });
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('reviews.dialog.title', { name: otherName })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Input.Wrapper
            label={t('reviews.dialog.ratingLabel')}
            withAsterisk
            error={error?.fields?.rating}
            labelElement="div"
            id="review-rating"
          >
            <Rating
              value={rating}
              onChange={setRating}
              size="lg"
              mt={4}
              aria-labelledby="review-rating-label"
              getSymbolLabel={(value) => t('reviews.stars', { count: value })}
            />
          </Input.Wrapper>
          <Textarea
            label={t('reviews.dialog.textLabel')}
            description={t('reviews.dialog.textHelp')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            maxLength={REVIEW_TEXT_MAX}
            autosize
            minRows={3}
            error={error?.fields?.text}
          />
          {review && (
            <Text size="xs" c="dimmed">
              {t('reviews.dialog.pendingNote', {
                name: otherName,
                date: formatDate(review.publishedAt, i18n.language),
              })}
            </Text>
          )}
          {error && !error.fields && (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {error.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('reviews.dialog.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t(review ? 'reviews.dialog.save' : 'reviews.dialog.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
