import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from './session';

/**
 * The account corner of the top bar. Signed out: log in and sign up. The accounts feature fills
 * the signed-in branch (welcome, avatar menu) through this one component.
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
  if (session.status === 'signed-in') return null;
  return (
    <Group gap="xs" wrap="nowrap" grow={stacked} w={stacked ? '100%' : undefined}>
      <Button component={Link} to="/login" variant="default" size="sm" onClick={onNavigate}>
        {t('nav.login')}
      </Button>
      <Button component={Link} to="/signup" size="sm" onClick={onNavigate}>
        {t('nav.signup')}
      </Button>
    </Group>
  );
}
