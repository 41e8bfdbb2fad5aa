import { Button, Card, Group, Stack, Text } from '@mantine/core';
import {
  IconChartBar,
  IconEdit,
  IconPlayerPause,
  IconPlayerPlay,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { intlLocale } from '@shared/intlLocale';
import { Link } from '@web/lib/router';
import { BookCover } from '../../components/BookCover';
import { AdStatusBadge } from './badges';
import type { StatusAction } from './api';
import type { Ad } from './model';
import { adImageSrc } from './model';
import type { LocaleKey } from '../../lib/translator';

/** One of the author's ads, with its actions; each button names its ad for screen readers. */
export function AdRow({
  ad,
  analyticsTo,
  busy,
  onEdit,
  onDelete,
  onStatus,
}: {
  ad: Ad;
  analyticsTo: string;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onStatus: (action: StatusAction) => void;
}) {
  const { t, i18n } = useTranslation();
  const status = ad.status;
  const date = (d: string | null) =>
    d ? new Date(d).toLocaleDateString(intlLocale(i18n.language), { timeZone: 'UTC' }) : null;
  const named = (key: LocaleKey) => ({ 'aria-label': t(key, { title: ad.title }) });
  return (
    <Card withBorder padding="md" component="article" aria-label={ad.title} data-testid="ad-row">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <BookCover url={adImageSrc(ad.coverImageUrl)} title={ad.title} height={96} />
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
              {ad.title}
            </Text>
            <AdStatusBadge status={status} />
          </Group>
          {ad.subtitle && (
            <Text size="sm" c="dimmed" lineClamp={1}>
              {ad.subtitle}
            </Text>
          )}
          {status === 'rejected' && (
            <Text size="sm" c="var(--mantine-color-error)" data-testid="ad-rejection">
              {ad.rejectionReason
                ? `${t('ads.list.rejectedReason', { reason: ad.rejectionReason })} `
                : ''}
              {t('ads.list.rejectedHelp')}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {t('ads.list.figures', {
              views: ad.viewCount,
              clicks: ad.clickCount,
              conversions: ad.conversionCount,
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t(`ads.types.${ad.adType}`)} · {t(`genres.${ad.genre}`)}
            {ad.startDate || ad.endDate
              ? ` · ${t('ads.list.dates', { start: date(ad.startDate) ?? '—', end: date(ad.endDate) ?? '—' })}`
              : ''}
          </Text>
          <Group gap="xs" mt={4}>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconEdit size={14} aria-hidden />}
              onClick={onEdit}
              {...named('ads.list.editNamed')}
            >
              {t('ads.list.edit')}
            </Button>
            {(status === 'draft' || status === 'paused') && (
              <Button
                size="xs"
                variant="light"
                color="green"
                c="#1e6b30"
                loading={busy}
                leftSection={<IconPlayerPlay size={14} aria-hidden />}
                onClick={() => onStatus(status === 'draft' ? 'activate' : 'resume')}
                {...named(status === 'draft' ? 'ads.list.activateNamed' : 'ads.list.resumeNamed')}
              >
                {status === 'draft' ? t('ads.list.activate') : t('ads.list.resume')}
              </Button>
            )}
            {status === 'active' && (
              <Button
                size="xs"
                variant="light"
                color="yellow"
                c="#8a5a00"
                loading={busy}
                leftSection={<IconPlayerPause size={14} aria-hidden />}
                onClick={() => onStatus('pause')}
                {...named('ads.list.pauseNamed')}
              >
                {t('ads.list.pause')}
              </Button>
            )}
            <Button
              size="xs"
              variant="default"
              component={Link}
              to={analyticsTo}
              leftSection={<IconChartBar size={14} aria-hidden />}
              {...named('ads.list.analyticsNamed')}
            >
              {t('ads.list.analytics')}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              c="var(--mantine-color-error)"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={onDelete}
              {...named('ads.list.deleteNamed')}
            >
              {t('ads.list.delete')}
            </Button>
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
