import { Container, Group, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { NotFoundPage } from '../features/not-found';
import { LinkButton, PlainButton } from '../components/LinkButton';

/** Error boundary of the router: refresh-page and go-to-login actions; a 404 shows not-found. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <Container size="sm" py={80}>
      <Stack align="center" ta="center">
        <Title order={1}>{t('errors.general')}</Title>
        <Text c="dimmed">{t('errors.boundary')}</Text>
        <Group>
          <PlainButton onClick={() => window.location.reload()}>
            {t('errors.refreshPage')}
          </PlainButton>
          <LinkButton to="/login" variant="default" reloadDocument>
            {t('errors.goToLogin')}
          </LinkButton>
        </Group>
      </Stack>
    </Container>
  );
}
