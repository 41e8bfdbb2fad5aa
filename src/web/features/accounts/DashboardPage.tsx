import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBook2,
  IconBooks,
  IconCircleCheck,
  IconCoinEuro,
  IconHistory,
  IconPlus,
  IconSearch,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoney } from '@shared/money';
import { Link, useLocation } from '@web/lib/router';
import { displayNameOf, useSession } from '../../lib/session';
import { currentLanguage } from '../../lib/i18n';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { fetchListingStats } from './api';

export default function DashboardPage() {
  const { t } = useTranslation();
  const session = useSession();
  // Set by the confirmation link's landing and by the first-visit name page: a new member.
  const newMember = (useLocation().state as { newMember?: boolean } | null)?.newMember === true;
  useDocumentTitle(t('dashboard.pageTitle'));
  // The tiles read the member's listings; until that service answers they show 0, never a guess.
  const stats = useQuery({
    queryKey: ['me', 'listings', 'stats'],
    queryFn: fetchListingStats,
    retry: false,
  });
  if (session.status !== 'signed-in') return null;

  const value = (n: number | undefined) =>
    stats.isPending ? t('common.ellipsis') : String(Math.max(0, Math.round(n ?? 0)));
  const tiles = [
    { key: 'total', Icon: IconBooks, text: value(stats.data?.total) },
    { key: 'available', Icon: IconCircleCheck, text: value(stats.data?.available) },
    {
      key: 'totalValue',
      Icon: IconCoinEuro,
      text: stats.isPending
        ? t('common.ellipsis')
        : formatMoney(Math.round(stats.data?.totalValue ?? 0), 'EUR', currentLanguage(), {
            whole: true,
          }),
    },
  ] as const;

  return (
    <Stack gap="xl" maw={1000}>
      <Stack gap={4}>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('dashboard.title')}
        </Title>
        <Text c="dimmed" fz="lg">
          {t(newMember ? 'dashboard.welcomeNew' : 'dashboard.welcome', {
            name: displayNameOf(session.user),
          })}
        </Text>
      </Stack>

      <SimpleGrid
        cols={{ base: 1, xs: 3 }}
        spacing="md"
        component="section"
        aria-label={t('dashboard.statsLabel')}
      >
        {tiles.map(({ key, Icon, text }) => (
          <Card key={key} withBorder padding="lg">
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={4}>
                <Text c="dimmed" fz="sm">
                  {t(`dashboard.stats.${key}`)}
                </Text>
                <Text fz={28} fw={800} c="brown.8" data-testid={`dashboard-${key}`}>
                  {text}
                </Text>
              </Stack>
              <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
                <Icon size={22} />
              </ThemeIcon>
            </Group>
          </Card>
        ))}
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder padding="lg">
          <Title order={2} fz="lg" mb="md">
            {t('dashboard.recentActivity')}
          </Title>
          <Stack align="center" ta="center" gap="xs" py="md">
            <ThemeIcon variant="light" color="gray" size={48} radius="xl" aria-hidden>
              <IconHistory size={26} />
            </ThemeIcon>
            <Text fw={600}>{t('dashboard.noActivity')}</Text>
            <Text c="dimmed" size="sm">
              {t('dashboard.noActivityText')}
            </Text>
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Title order={2} fz="lg" mb="md">
            {t('dashboard.quickActions')}
          </Title>
          <Stack>
            <Button component={Link} to="/sell" leftSection={<IconPlus size={18} aria-hidden />}>
              {t('dashboard.addBook')}
            </Button>
            <Button
              component={Link}
              to="/library"
              variant="default"
              leftSection={<IconSearch size={18} aria-hidden />}
            >
              {t('dashboard.browseBooks')}
            </Button>
            <Text size="sm" c="dimmed">
              <IconBook2 size={14} aria-hidden /> {t('dashboard.quickActionsHint')}
            </Text>
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
