import { Group, Paper, Rating, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate, formatDecimal } from '@shared/format';
import { useMemberReviews } from './api';
import { PageNumbers } from '../../components/PageNumbers';

/** The public profile's reviews: their average and the reviews themselves, newest first. */
export function ProfileReviews({ userId }: { userId: string }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const reviews = useMemberReviews(userId, page);
  const data = reviews.data;
  return (
    <section aria-labelledby="profile-reviews" data-testid="profile-reviews">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} fz="xl" id="profile-reviews">
          {t('reviews.title')}
        </Title>
        {data && data.total > 0 && data.average !== null && (
          <Text fw={600} data-testid="reviews-summary">
            {t('reviews.summary', {
              average: formatDecimal(data.average, i18n.language),
              count: data.total,
            })}
          </Text>
        )}
      </Group>
      {data && data.total === 0 && <Text c="dimmed">{t('reviews.none')}</Text>}
      {data && data.items.length > 0 && (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.items.map((r) => (
            <Paper component="li" key={r.id} withBorder p="md" data-testid="review">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Group gap="xs" role="img" aria-label={t('reviews.stars', { count: r.rating })}>
                  <Rating value={r.rating} readOnly size="sm" aria-hidden />
                </Group>
                <Text size="xs" c="dimmed">
                  <time dateTime={r.createdAt}>{formatDate(r.createdAt, i18n.language)}</time>
                  {r.updatedAt !== r.createdAt && ` · ${t('reviews.edited')}`}
                </Text>
              </Group>
              <Text fw={600} size="sm" mt={4}>
                {r.author.displayName}
              </Text>
              {r.listingTitle && (
                <Text size="xs" c="dimmed">
                  {t(`reviews.about.${r.kind}`, { title: r.listingTitle })}
                </Text>
              )}
              {r.text && (
                <Text size="sm" mt={4} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {r.text}
                </Text>
              )}
            </Paper>
          ))}
        </Stack>
      )}
      {data && (
        <PageNumbers
          mt="md"
          pages={Math.ceil(data.total / data.pageSize)}
          page={page}
          onChange={setPage}
          label={t('reviews.pagination')}
        />
      )}
    </section>
  );
}
