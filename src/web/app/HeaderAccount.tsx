import { Box, Group, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../lib/session';
import { LinkButton } from '../components/LinkButton';

// The signed-in corner (menu, avatar) is its own chunk: visitors of the home page never load it.
const AccountMenu = lazy(() => import('../features/accounts/AccountMenu'));

/**
 * The account corner of the top bar. Signed out: log in and sign up (and the session-expired
 * note). Signed in: the welcome line and the avatar menu with the e-mail, the dashboard, the
 * public profile and logout; `stacked` lays the same out in the mobile drawer.
 */
export function HeaderAccount({
  stacked = false,
  onNavigate,
}: {
  stacked?: boolean;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const session = useSession();

  if (session.status === 'signed-in') {
    return (
      <Suspense fallback={<Box w={stacked ? '100%' : 38} h={38} />}>
        <AccountMenu stacked={stacked} onNavigate={onNavigate} />
      </Suspense>
    );
  }

  // Nothing while the session is restored: no flash of log-in buttons for a signed-in member.
  if (session.status === 'loading') return null;
  const expired = session.status === 'signed-out' && session.expired;
  return (
    <Group gap="xs" wrap="nowrap" grow={stacked} w={stacked ? '100%' : undefined}>
      {expired && !stacked && (
        <Text size="xs" c="orange.9" fw={600} role="status" visibleFrom="md">
          {t('account.sessionExpiredTitle')}
        </Text>
      )}
      <LinkButton to="/login" variant="default" size="sm" onClick={onNavigate}>
        {t('nav.login')}
      </LinkButton>
      <LinkButton to="/signup" size="sm" onClick={onNavigate}>
        {t('nav.signup')}
      </LinkButton>
    </Group>
  );
}
