import { Alert, Button, Center, Container, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import type { LocaleKey } from '@web/lib/translator';
import { Link, useNavigate, useSearchParams } from '@web/lib/router';
import { useSession } from '../../lib/session';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { dashboardPath, safeRedirectPath } from './safeRedirect';

/** Waits of 100 ms before reading the session and before redirecting; one retry after 1 s. */
const SETTLE_MS = 100;
const RETRY_MS = 1000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Failure = { key: LocaleKey; description?: string };

/** Where the identity provider sends the browser back: finish sign-in, then go on. */
export default function AuthCallbackPage() {
  const { t } = useTranslation();
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [phase, setPhase] = useState<'completing' | 'redirecting'>('completing');
  const [failure, setFailure] = useState<Failure | null>(null);
  useDocumentTitle(t('auth.callback.pageTitle'));

  const providerError = params.get('error');
  const providerDescription = params.get('error_description');
  const redirectTo = safeRedirectPath(params.get('redirect_to'));

  useEffect(() => {
    let cancelled = false;
    (async () => {
      if (providerError) {
        setFailure({
          key: 'auth.callback.providerError',
          description: providerDescription || providerError,
        });
        // The start-up session check is skipped here: settle the header's state anyway.
        await refresh().catch(() => null);
        return;
      }
      try {
        await wait(SETTLE_MS);
        if (cancelled) return;
        let user = await refresh();
        if (!user) {
          await wait(RETRY_MS);
          if (cancelled) return;
          user = await refresh();
        }
        if (cancelled) return;
        if (!user) return setFailure({ key: 'auth.callback.noSession' });
        setPhase('redirecting');
        await wait(SETTLE_MS);
        if (!cancelled) navigate(redirectTo ?? dashboardPath(user.id), { replace: true });
      } catch (err) {
        if (!cancelled)
          setFailure({
            key: err instanceof ApiError ? 'auth.callback.failed' : 'auth.callback.unexpected',
          });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [providerError, providerDescription, redirectTo, refresh, navigate]);

  if (failure) {
    return (
      <Container size={460} py={64}>
        <Stack>
          <Alert
            color="red"
            title={t('auth.callback.errorTitle')}
            icon={<IconAlertCircle aria-hidden />}
          >
            {t(failure.key, { description: failure.description ?? '' })}
          </Alert>
          <Button component={Link} to="/login">
            {t('auth.callback.tryAgain')}
          </Button>
        </Stack>
      </Container>
    );
  }

  return (
    <Center py={96}>
      <Stack align="center" gap="md" role="status" aria-live="polite">
        <Loader aria-hidden />
        <Text fw={500}>
          {phase === 'completing' ? t('auth.callback.completing') : t('auth.callback.redirecting')}
        </Text>
      </Stack>
    </Center>
  );
}
