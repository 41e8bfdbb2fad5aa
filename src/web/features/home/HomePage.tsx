import {
  Card,
  Center,
  Container,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconBooks, IconShieldCheck, IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { lazy, Suspense } from 'react';
import { formatCounter } from '@shared/format';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { FeatureCard } from '../../components/FeatureCard';
import { LinkButton } from '../../components/LinkButton';
// The shell's own spinner: Mantine's Loader would add its variants to the first download.
import { Spinner } from '../../components/PageLoader';
import { useSiteStats } from './useSiteStats';
import { withLocaleGroups } from '../../lib/i18n';

// The shelves (cards, covers, their texts) are their own chunk with the page texts they show:
// the hero and the counters need only the core catalogue.
const HomeShelves = lazy(() => withLocaleGroups(['pages'], () => import('./HomeShelves')));

const FEATURES = [
  { key: 'library', Icon: IconBooks },
  { key: 'trust', Icon: IconShieldCheck },
  { key: 'community', Icon: IconUsersGroup },
] as const;

export default function HomePage() {
  const { t } = useTranslation();
  const session = useSession();
  const stats = useSiteStats();
  useDocumentTitle(t('home.pageTitle'));

  // Loading shows an ellipsis; a failure shows 0 (the error is only logged).
  const counter = (value: number | undefined) =>
    stats.isPending ? t('common.ellipsis') : formatCounter(value ?? 0);
  const counters = [
    { key: 'booksAvailable', value: stats.data?.booksAvailable },
    { key: 'activeUsers', value: stats.data?.activeUsers },
    { key: 'totalTransactions', value: stats.data?.totalTransactions },
  ] as const;

  return (
    <>
      <Container size="md" pt={40} pb="xl">
        <Stack align="center" ta="center" gap="md">
          <Image src="/icon.svg" alt="" w={56} h={56} />
          <Title order={1} fz={{ base: 32, sm: 44 }}>
            {t('home.title')}
          </Title>
          <Text fz="lg" c="dimmed" maw={620}>
            {t('home.subtitle')}
          </Text>
          <Group justify="center">
            {session.status === 'signed-in' ? (
              <>
                <LinkButton size="md" to={`/profile/${session.user.id}/dashboard`}>
                  {t('home.myLibrary')}
                </LinkButton>
                <LinkButton size="md" variant="default" to="/buy">
                  {t('home.browseBooks')}
                </LinkButton>
              </>
            ) : (
              <>
                <LinkButton size="md" to="/signup">
                  {t('home.startTrading')}
                </LinkButton>
                <LinkButton size="md" variant="default" to="/login">
                  {t('home.signIn')}
                </LinkButton>
              </>
            )}
          </Group>
        </Stack>
      </Container>
      <Container size="xl" pb="xl" component="section" aria-label={t('home.shelves.label')}>
        <Suspense
          fallback={
            <Center mih={320}>
              <Spinner label={t('common.loading')} />
            </Center>
          }
        >
          <HomeShelves />
        </Suspense>
      </Container>
      <Container size="md" pb="xl">
        <SimpleGrid
          cols={3}
          spacing={{ base: 'xs', sm: 'lg' }}
          w="100%"
          component="dl"
          aria-label={t('home.statsLabel')}
        >
          {counters.map((c) => (
            <Card key={c.key} withBorder padding="sm" ta="center">
              <Text
                component="dd"
                m={0}
                fz={{ base: 24, sm: 32 }}
                fw={800}
                c="brown.8"
                data-testid={`stat-${c.key}`}
                aria-live="polite"
              >
                {counter(c.value)}
              </Text>
              <Text component="dt" c="dimmed" fz="sm">
                {t(`home.stats.${c.key}`)}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>
      <Container size="lg" pb={64}>
        <Title order={2} ta="center" mb="xl">
          {t('home.featuresTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          {FEATURES.map(({ key, Icon }) => (
            <FeatureCard
              key={key}
              Icon={Icon}
              title={t(`home.features.${key}.title`)}
              text={t(`home.features.${key}.text`)}
            />
          ))}
        </SimpleGrid>
      </Container>
    </>
  );
}
