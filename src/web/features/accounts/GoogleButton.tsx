import { Button, Divider } from '@mantine/core';
import { IconBrandGoogle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { fetchProviders, startGoogleSignIn } from './api';

/** 'Continue with Google', shown only when the server has Google sign-in configured. */
export function GoogleButton({
  redirectTo,
  onError,
}: {
  redirectTo: string | null;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation();
  const providers = useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: fetchProviders,
    staleTime: 5 * 60_000,
  });
  const [starting, setStarting] = useState(false);
  if (!providers.data?.google) return null;
  return (
    <>
      <Button
        variant="default"
        size="md"
        fullWidth
        leftSection={<IconBrandGoogle size={18} aria-hidden />}
        loading={starting}
        onClick={async () => {
          setStarting(true);
          try {
            await startGoogleSignIn(redirectTo);
          } catch (err) {
            setStarting(false);
            onError((err as Error).message);
          }
        }}
      >
        {t('auth.google')}
      </Button>
      <Divider label={t('auth.or')} labelPosition="center" />
    </>
  );
}
