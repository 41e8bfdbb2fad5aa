import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import type { SessionUser } from '../../lib/session';
import { sendVerificationEmail } from './api';

/**
 * Tells a member whose address is not confirmed yet why it matters, with the link sent again on
 * request. It shows until the session says the address is confirmed.
 */
export function UnconfirmedBanner({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | { error: string }>('idle');
  if (user.emailVerified) return null;
  const resend = async () => {
    setState('sending');
    try {
      await sendVerificationEmail(user.email);
      setState('sent');
    } catch (err) {
      setState({ error: err instanceof Error ? err.message : t('errors.general') });
    }
  };
  return (
    <Alert
      color="yellow"
      variant="light"
      mb="md"
      icon={<IconMailExclamation aria-hidden />}
      title={t('auth.unconfirmed.title')}
      // The text's own colour: yellow on light yellow does not read (WCAG AA).
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      data-testid="unconfirmed-banner"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('auth.unconfirmed.text', { email: user.email })}
        </Text>
        <Button
          size="compact-sm"
          variant="default"
          loading={state === 'sending'}
          onClick={() => void resend()}
        >
          {t('auth.unconfirmed.resend')}
        </Button>
        <div role="status">
          {state === 'sent' && <Text size="sm">{t('auth.signup.resent')}</Text>}
          {typeof state === 'object' && (
            <Text size="sm" c="red.9">
              {state.error}
            </Text>
          )}
        </div>
      </Stack>
    </Alert>
  );
}
