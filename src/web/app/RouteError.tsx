import { Container, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  createPath,
  isRouteErrorResponse,
  useLocation,
  useNavigate,
  useRouteError,
} from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { NotFoundPage } from '../features/not-found';
import { LinkButton, PlainButton } from '../components/LinkButton';
import { PageLoader } from '../components/PageLoader';
import { PageLoadError, reloadForNewBuild } from './pageLoad';

/**
 * Error boundary of the router: refresh-page and go-to-login actions; a 404 shows not-found; a
 * page whose code could not be fetched says so (offline) with a retry, inside the shell.
 */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (error instanceof PageLoadError) return <PageLoadFailed />;
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

/** Offline: say so, and Retry asks the router for the same page again (its code is re-fetched). */
function PageLoadFailed() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const path = createPath(location);
  const online = typeof navigator === 'undefined' || navigator.onLine;
  // Online yet the chunk is gone: a new deploy. One full load of the page gets the new build.
  const [reloading] = useState(() => online && reloadForNewBuild(path));
  const [retrying, setRetrying] = useState(false);
  useEffect(() => setRetrying(false), [location.key]);
  if (reloading) return <PageLoader />;
  return (
    <Container size="sm" py={60}>
      <Stack align="center" ta="center" role="alert">
        <Title order={1}>{online ? t('errors.pageLoadFailed') : t('errors.offline')}</Title>
        <Text c="dimmed">{online ? t('errors.pageLoadFailedText') : t('errors.offlineText')}</Text>
        <PlainButton
          disabled={retrying}
          onClick={() => {
            setRetrying(true);
            navigate(path, { replace: true, state: location.state });
          }}
        >
          {t('errors.retry')}
        </PlainButton>
      </Stack>
    </Container>
  );
}
