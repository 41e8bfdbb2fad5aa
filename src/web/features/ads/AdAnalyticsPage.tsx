import {
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconChartBar, IconDownload } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { intlLocale } from '@shared/intlLocale';
import { Link, useParams, useSearchParams } from '@web/lib/router';
import { AD_TIMEFRAMES, type AdTimeframe } from '@shared/schemas/ads';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { formatMoney } from '@shared/money';
import { NotFoundPage } from '../not-found';
import { analyticsCsvUrl, useAd, useAnalytics } from './api';
import { DailyChart } from './DailyChart';
import { adErrorMessage } from './errors';
import { formatPercent } from './lists';
import { LoadState } from './LoadState';

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz={24}>
        {value}
      </Text>
    </Paper>
  );
}

/** /profile/{id}/ads/{adId}/analytics: the author's figures for one ad, by timeframe. */
export default function AdAnalyticsPage() {
  const { t, i18n } = useTranslation();
  const { userId, adId } = useParams();
  const [params, setParams] = useSearchParams();
  const raw = params.get('timeframe');
  const timeframe: AdTimeframe = (AD_TIMEFRAMES as readonly string[]).includes(raw ?? '')
    ? (raw as AdTimeframe)
    : '30d';
  const ad = useAd(adId);
  const analytics = useAnalytics(adId, timeframe);
  useDocumentTitle(t('ads.analytics.pageTitle'), ad.data?.title);
  const lang = i18n.language;
  const num = (n: number) => n.toLocaleString(intlLocale(lang));

  // Another member's ad (or none): the server answers 404 to its analytics, and so do we.
  const missing = (err: unknown) => (err as { status?: number } | null)?.status === 404;
  if (missing(ad.error) || missing(analytics.error)) return <NotFoundPage />;
  const data = analytics.data;
  const empty =
    data && data.totals.impressions + data.totals.clicks + data.totals.conversions === 0;

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={`/profile/${userId}/ads`} size="sm">
        <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
        {t('ads.analytics.back')}
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {t('ads.analytics.title')}
          </Title>
          {ad.data && <Text c="dimmed">{ad.data.title}</Text>}
        </div>
        <Group gap="sm">
          <SegmentedControl
            aria-label={t('ads.analytics.timeframe')}
            value={timeframe}
            onChange={(v) => {
              const next = new URLSearchParams(params);
              next.set('timeframe', v);
              setParams(next, { replace: true });
            }}
            data={AD_TIMEFRAMES.map((f) => ({
              value: f,
              label: t(`ads.analytics.timeframes.${f}`),
            }))}
          />
          {adId && (
            <Button
              component="a"
              href={analyticsCsvUrl(adId, timeframe)}
              download
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              {t('ads.analytics.csv')}
            </Button>
          )}
        </Group>
      </Group>
      <LoadState
        query={analytics}
        errorMessage={() => adErrorMessage(analytics.error, 'analytics', t)}
      />
      {data && (
        <Stack gap="lg" aria-busy={analytics.isFetching}>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
            <Stat
              testId="stat-impressions"
              label={t('ads.analytics.impressions')}
              value={num(data.totals.impressions)}
            />
            <Stat
              testId="stat-clicks"
              label={t('ads.analytics.clicks')}
              value={num(data.totals.clicks)}
            />
            <Stat
              testId="stat-click-rate"
              label={t('ads.analytics.clickRate')}
              value={formatPercent(data.totals.clickRate, lang)}
            />
            <Stat
              testId="stat-conversions"
              label={t('ads.analytics.conversions')}
              value={num(data.totals.conversions)}
            />
            <Stat
              testId="stat-conversion-rate"
              label={t('ads.analytics.conversionRate')}
              value={formatPercent(data.totals.conversionRate, lang)}
            />
            <Stat
              testId="stat-cost"
              label={t('ads.analytics.cost')}
              value={formatMoney(data.totals.cost, data.currency, lang)}
            />
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            {t('ads.analytics.costNote', {
              cpc: formatMoney(data.costPerClick, data.currency, lang),
            })}{' '}
            {data.budget.state !== 'ok' && (
              <Text span c="var(--mantine-color-error)" fw={600}>
                {t(`ads.analytics.budget.${data.budget.state}`)}
              </Text>
            )}
          </Text>
          {empty ? (
            <Stack align="center" ta="center" py="xl" gap="xs">
              <IconChartBar size={48} stroke={1.2} aria-hidden />
              <Title order={2} fz="lg">
                {t('ads.analytics.empty.title')}
              </Title>
              <Text c="dimmed">{t('ads.analytics.empty.text')}</Text>
            </Stack>
          ) : (
            <>
              <Paper withBorder p="md">
                <Title order={2} fz="lg" mb="sm">
                  {t('ads.analytics.perDay')}
                </Title>
                <DailyChart days={data.series} />
              </Paper>
              <Paper withBorder p="md">
                <Title order={2} fz="lg" mb="sm">
                  {t('ads.analytics.recent')}
                </Title>
                <Table.ScrollContainer minWidth={420}>
                  <Table striped data-testid="recent-events">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('ads.analytics.when')}</Table.Th>
                        <Table.Th>{t('ads.analytics.event')}</Table.Th>
                        <Table.Th>{t('ads.analytics.placement')}</Table.Th>
                        <Table.Th>{t('ads.analytics.device')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.recent.map((e, i) => (
                        <Table.Tr key={`${e.at}-${i}`}>
                          <Table.Td>{new Date(e.at).toLocaleString(intlLocale(lang))}</Table.Td>
                          <Table.Td>{t(`ads.analytics.kinds.${e.kind}`)}</Table.Td>
                          <Table.Td>
                            {e.placement ? t(`ads.analytics.placements.${e.placement}`) : '—'}
                          </Table.Td>
                          <Table.Td>
                            {e.device ? t(`ads.analytics.devices.${e.device}`) : '—'}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Paper>
            </>
          )}
        </Stack>
      )}
    </Stack>
  );
}
