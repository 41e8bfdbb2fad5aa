import { Alert, Text } from '@mantine/core';
import { IconBeach, IconEye } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import { useSellerHoliday, useWatcherCount, lastDayOf } from './api';

/** The seller's own book page: how many members watch the listing (never who). */
export function WatcherCount({ listingId }: { listingId: string }) {
  const { t } = useTranslation();
  const count = useWatcherCount(listingId, true);
  if (!count.data) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="watcher-count">
      <IconEye size={14} aria-hidden style={{ verticalAlign: 'middle', marginRight: 4 }} />
      {t('watching.count', { count: count.data.count })}
    </Text>
  );
}

/**
 * A seller on holiday: on their listing's page (`kind="listing"`), the last day away; on their
 * profile (`kind="profile"`), the day they are back.
 */
export function SellerAwayNotice({
  sellerId,
  kind,
}: {
  sellerId: string;
  kind: 'listing' | 'profile';
}) {
  const { t, i18n } = useTranslation();
  const holiday = useSellerHoliday(sellerId);
  const backAt = holiday.data?.backAt;
  if (!backAt) return null;
  const text =
    kind === 'listing'
      ? t('holiday.away', { date: formatDate(lastDayOf(backAt), i18n.language) })
      : t('holiday.profile', { date: formatDate(backAt.slice(0, 10), i18n.language) });
  return (
    <Alert color="yellow" icon={<IconBeach size={18} aria-hidden />} data-testid="seller-away">
      {text}
    </Alert>
  );
}
