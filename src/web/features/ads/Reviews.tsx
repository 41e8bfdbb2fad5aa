import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Rating,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { intlLocale } from '@shared/intlLocale';
import { Link, useLocation } from '@web/lib/router';
import { AD_REVIEW_MAX, adReviewSchema, type Advertisement } from '@shared/schemas/ads';
import { useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { useAddReview, useReviews } from './api';
import { adErrorMessage } from './errors';
import { Pager } from '../../components/Pager';
import { dataText } from '../../lib/translator';

/** Reviews of the advertised book, 10 a page, newest first; a signed-in reader adds one, once. */
export function Reviews({ ad }: { ad: Advertisement }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const [page, setPage] = useState(1);
  const reviews = useReviews(ad.id, page);
  const data = reviews.data;
  const me = session.status === 'signed-in' ? session.user.id : null;
  const [done, setDone] = useState(false);
  const mineShown = !!me && !!data?.items.some((r) => r.reviewer.id === me);
  const average = data?.averageRating ?? ad.averageRating;
  const total = data?.total ?? ad.reviewCount;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="ad-reviews">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg" id="ad-reviews">
            {t('ads.reviews.title')}
          </Title>
          {total > 0 && (
            <Group gap={6}>
              <Rating value={average} fractions={10} readOnly aria-hidden />
              <Text size="sm">
                {t('ads.reviews.summary', {
                  average: average.toLocaleString(intlLocale(i18n.language), {
                    maximumFractionDigits: 1,
                  }),
                  count: total,
                })}
              </Text>
            </Group>
          )}
        </Group>
        {session.status === 'signed-out' && (
          <Text size="sm">
            <Anchor
              component={Link}
              to={`/login?redirect_to=${encodeURIComponent(location.pathname)}`}
            >
              {t('ads.reviews.signIn')}
            </Anchor>
          </Text>
        )}
        {me && me !== ad.authorId && !mineShown && !done && (
          <ReviewForm adId={ad.id} onDone={() => setDone(true)} />
        )}
        {done && (
          <Text size="sm" c="#1e6b30" role="status">
            {t('ads.reviews.thanks')}
          </Text>
        )}
        {reviews.isError && (
          <Alert color="red" role="alert">
            {adErrorMessage(reviews.error, 'reviews', t)}
          </Alert>
        )}
        {data && data.total === 0 && <Text c="dimmed">{t('ads.reviews.empty')}</Text>}
        {data && data.items.length > 0 && (
          <Stack component="ul" gap="sm" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {data.items.map((r) => (
              <li key={r.id}>
                <Paper withBorder p="sm" component="article" aria-label={r.reviewer.displayName}>
                  <Group justify="space-between" gap="xs">
                    <Text fw={600}>{r.reviewer.displayName || r.reviewer.username}</Text>
                    <Text size="xs" c="dimmed">
                      {new Date(r.createdAt).toLocaleDateString(intlLocale(i18n.language))}
                    </Text>
                  </Group>
                  <Group gap={6} my={4}>
                    <Rating value={r.rating} readOnly size="sm" aria-hidden />
                    <Text size="sm">{t('ads.reviews.stars', { count: r.rating })}</Text>
                  </Group>
                  <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                    {r.text}
                  </Text>
                </Paper>
              </li>
            ))}
          </Stack>
        )}
        {data && (
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onChange={setPage} />
        )}
      </Stack>
    </Paper>
  );
}

function ReviewForm({ adId, onDone }: { adId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const add = useAddReview(adId);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { rating: 0, text: '' },
    validate: (values) => {
      const parsed = adReviewSchema.safeParse(values);
      if (parsed.success) return {};
      const out: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '');
        if (key && !out[key]) out[key] = dataText(t, issue.message);
      }
      return out;
    },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await add.mutateAsync(values);
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.fields) form.setErrors(err.fields);
      else setFailure(adErrorMessage(err, 'review', t));
    }
  });
  const ratingError = form.errors.rating;
  return (
    <form onSubmit={submit} noValidate aria-label={t('ads.reviews.formLabel')}>
      <Stack gap="sm">
        <div role="group" aria-labelledby="ad-review-rating">
          <Text size="sm" fw={500} id="ad-review-rating">
            {t('ads.reviews.rating')}{' '}
            <Text span c="var(--mantine-color-error)" aria-hidden>
              *
            </Text>
          </Text>
          <Rating
            value={form.values.rating}
            onChange={(v) => form.setFieldValue('rating', v)}
            getSymbolLabel={(i) => t('ads.reviews.stars', { count: i })}
            size="lg"
          />
          {ratingError && (
            <Text size="sm" c="var(--mantine-color-error)">
              {ratingError}
            </Text>
          )}
        </div>
        <Textarea
          label={t('ads.reviews.text')}
          withAsterisk
          autosize
          minRows={3}
          maxLength={AD_REVIEW_MAX}
          {...form.getInputProps('text')}
        />
        {failure && (
          <Alert
            color="red"
            role="alert"
            styles={{ message: { color: 'var(--mantine-color-error)' } }}
          >
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={add.isPending}>
            {t('ads.reviews.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
