import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

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
          <Button component={Link} to="/">
            {t('notFound.home')}
          </Button>
          {session.status === 'signed-in' ? (
            <Button component={Link} to={`/profile/${session.user.id}/dashboard`} variant="default">
              {t('notFound.dashboard')}
            </Button>
          ) : (
            <Button component={Link} to="/login" variant="default">
              {t('notFound.login')}
            </Button>
          )}
        </Group>
      </Stack>
    </Container>
  );
}
