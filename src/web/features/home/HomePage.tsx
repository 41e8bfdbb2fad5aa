import { Card, Container, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBooks, IconShieldCheck, IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatCounter } from '@shared/format';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { FeatureCard } from '../../components/FeatureCard';
import { LinkButton } from '../../components/LinkButton';
import { useSiteStats } from './useSiteStats';

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
      <Container size="md" py={64}>
        <Stack align="center" ta="center" gap="lg">
          <Image src="/icon.svg" alt="" w={88} h={88} />
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
                <LinkButton size="md" variant="default" to="/about">
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
          <SimpleGrid
            cols={{ base: 1, xs: 3 }}
            spacing="lg"
            w="100%"
            mt="md"
            component="dl"
            aria-label={t('home.statsLabel')}
          >
            {counters.map((c) => (
              <Card key={c.key} withBorder padding="lg">
                <Text
                  component="dd"
                  m={0}
                  fz={32}
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
        </Stack>
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
