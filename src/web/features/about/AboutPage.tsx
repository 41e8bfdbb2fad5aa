import { Container, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconLeaf,
  IconMail,
  IconScale,
  IconShieldCheck,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { FeatureCard } from '../../components/FeatureCard';
import { HeroHeader } from '../../components/PageHeader';
import { ButtonLink } from '../../components/ButtonLink';

const VALUES = [
  { key: 'trust', Icon: IconShieldCheck },
  { key: 'community', Icon: IconUsersGroup },
  { key: 'sustainability', Icon: IconLeaf },
  { key: 'fairPricing', Icon: IconScale },
] as const;

export default function AboutPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('about.pageTitle'));

  return (
    <Container size="lg" py={{ base: 40, sm: 64 }}>
      <HeroHeader title={t('about.title')} subtitle={t('about.subtitle')} mb={56} />

      <Paper
        component="section"
        aria-labelledby="about-mission"
        withBorder
        p={{ base: 'lg', sm: 'xl' }}
        mb={56}
        bg="brown.0"
      >
        <Title order={2} id="about-mission" mb="md">
          {t('about.mission.title')}
        </Title>
        <Stack gap="sm" maw={820}>
          <Text fz="md">{t('about.mission.text1')}</Text>
          <Text fz="md">{t('about.mission.text2')}</Text>
        </Stack>
      </Paper>

      <section aria-labelledby="about-values">
        <Title order={2} id="about-values" ta="center" mb="xl">
          {t('about.values.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg" mb={56}>
          {VALUES.map(({ key, Icon }) => (
            <FeatureCard
              key={key}
              Icon={Icon}
              title={t(`about.values.${key}.title`)}
              text={t(`about.values.${key}.text`)}
            />
          ))}
        </SimpleGrid>
      </section>

      <Stack component="section" aria-labelledby="about-team" align="center" ta="center" gap="md">
        <Title order={2} id="about-team">
          {t('about.team.title')}
        </Title>
        <Text maw={720}>{t('about.team.text')}</Text>
        <Text component="p" fz="xl" fs="italic" ff="Georgia, serif" c="brown.8" m={0}>
          {t('about.team.tagline')}
        </Text>
        <ButtonLink to="/contact" variant="light" icon={IconMail}>
          {t('about.team.contactCta')}
        </ButtonLink>
      </Stack>
    </Container>
  );
}
