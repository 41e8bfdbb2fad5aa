import { Badge, Group, Rating, Text } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDecimal } from '@shared/format';
import type { MemberRating as MemberRatingValue } from '@shared/rating';

/**
 * A member's rating as the rating rule (src/shared/rating.ts) gives it: stars, the mean and how
 * many reviews it is of; or, while nobody has reviewed them, "New member" and no stars at all.
 * The public profile and the private area's sidebar both show this, so they always agree.
 */
export function MemberRating({
  rating,
  size = 'md',
  testId = 'member-rating',
}: {
  rating: MemberRatingValue;
  size?: 'sm' | 'md';
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  if (rating.average === null) {
    return (
      <Badge
        variant="filled"
        color="teal.9"
        size={size === 'sm' ? 'sm' : 'md'}
        leftSection={<IconSparkles size={12} aria-hidden />}
        title={t('rating.newMemberHint')}
        data-testid={testId}
      >
        {t('rating.newMember')}
      </Badge>
    );
  }
  const figure = formatDecimal(rating.average, i18n.language);
  const label = t('rating.summary', { average: figure, count: rating.reviewCount });
  return (
    <Group gap={6} wrap="nowrap" role="img" aria-label={label}>
      <Rating
        value={rating.average}
        fractions={10}
        readOnly
        size={size === 'sm' ? 'xs' : 'sm'}
        aria-hidden
      />
      <Text span size={size === 'sm' ? 'sm' : 'md'} fw={600} aria-hidden data-testid={testId}>
        {figure}
      </Text>
      <Text span size="sm" c="dimmed" aria-hidden>
        ({rating.reviewCount})
      </Text>
    </Group>
  );
}
