import { Container, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { LinkButton } from '../../components/LinkButton';

export function NotFoundPage() {
  const { t } = useTranslation();
  const session = useSession();
  useDocumentTitle(t('notFound.title'));
  return (
    <Container size="sm" py={80}>
      <Stack align="center" ta="center">
        <Text fz={64} fw={800} c="brown.8" aria-hidden>
          404
        </Text>
        <Title order={1}>{t('notFound.title')}</Title>
        <Text c="dimmed">{t('notFound.text')}</Text>
        <Group justify="center">
          <LinkButton to="/">{t('notFound.home')}</LinkButton>
          {session.status === 'signed-in' ? (
            <LinkButton to={`/profile/${session.user.id}/dashboard`} variant="default">
              {t('notFound.dashboard')}
            </LinkButton>
          ) : (
            <LinkButton to="/login" variant="default">
              {t('notFound.login')}
            </LinkButton>
          )}
        </Group>
      </Stack>
    </Container>
  );
}
