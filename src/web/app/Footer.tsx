import { Anchor, Container, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../lib/session';
import { SocialLinks } from '../components/SocialLinks';
import { CookieSettingsButton } from '../features/cookies';

function Column({
  title,
  links,
  children,
}: {
  title: string;
  links: { to: string; label: string }[];
  children?: React.ReactNode;
}) {
  return (
    <Stack gap={6}>
      <Title order={2} fz="sm" tt="uppercase" c="dimmed">
        {title}
      </Title>
      {links.map((l) => (
        <Anchor key={l.to} component={Link} to={l.to} c="dark" fz="sm">
          {l.label}
        </Anchor>
      ))}
      {children}
    </Stack>
  );
}

export function Footer() {
  const { t } = useTranslation();
  const session = useSession();
  const profile = session.status === 'signed-in' ? `/user/${session.user.id}` : '/login';
  return (
    <Container component="footer" size="lg" py="xl" w="100%">
      <Divider mb="xl" />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xl">
        <Stack gap={6}>
          <Text fw={700} ff="Georgia, serif">
            {t('app.name')}
          </Text>
          <Text fz="sm" c="dimmed">
            {t('footer.about')}
          </Text>
        </Stack>
        <Column
          title={t('footer.quickLinks')}
          links={[
            { to: '/', label: t('footer.home') },
            { to: '/buy', label: t('footer.buy') },
            { to: '/trade', label: t('footer.trade') },
            { to: '/promoted', label: t('footer.promoted') },
            { to: '/about', label: t('footer.aboutLink') },
            { to: '/contact', label: t('footer.contact') },
          ]}
        />
        <Column
          title={t('footer.account')}
          links={[
            { to: '/login', label: t('footer.signIn') },
            { to: '/signup', label: t('footer.signUp') },
            { to: profile, label: t('footer.profile') },
          ]}
        />
        <Column
          title={t('footer.legal')}
          links={[
            { to: '/privacy-policy', label: t('footer.privacy') },
            { to: '/terms-of-service', label: t('footer.terms') },
            { to: '/cookie-policy', label: t('footer.cookies') },
          ]}
        >
          <CookieSettingsButton />
        </Column>
      </SimpleGrid>
      <Group justify="space-between" mt="xl" wrap="wrap">
        <Text fz="xs" c="dimmed">
          {t('footer.rights', { year: new Date().getFullYear() })}
        </Text>
        <SocialLinks label={t('footer.social')} />
      </Group>
    </Container>
  );
}
