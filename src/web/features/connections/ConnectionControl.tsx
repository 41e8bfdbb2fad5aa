import { Button, Stack, Text } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link } from '@web/lib/router';
import { useSession } from '../../lib/session';
import { useConnectionStatus, useConnectionsLive } from './api';
import { ConnectionActions } from './ConnectionActions';
import { useBlockState } from '../blocks';

/**
 * The public profile's friend control. Hidden on one's own profile and while the session or the
 * connection state loads; a visitor is sent to sign in and comes back to this profile.
 */
export function ConnectionControl({
  userId,
  displayName,
}: {
  userId: string;
  displayName: string;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const me = session.status === 'signed-in' ? session.user.id : null;
  const status = useConnectionStatus(userId, !!me && me !== userId);
  useConnectionsLive();
  // A member I blocked cannot be asked to be friends: the profile shows the block instead.
  const block = useBlockState(userId, !!me && me !== userId);

  if (session.status === 'loading' || me === userId) return null;
  if (!me)
    return (
      <Button
        component={Link}
        to={`/login?redirect_to=${encodeURIComponent(`/user/${userId}`)}`}
        leftSection={<IconUserPlus size={16} aria-hidden />}
      >
        {t('connections.control.addFriend')}
      </Button>
    );
  if (!status.data || !block.data || block.data.blocked) return null;
  return (
    <Stack gap={6} role="group" aria-label={t('connections.control.label')}>
      {status.data.state === 'pending-incoming' && (
        <Text size="sm">{t('connections.control.incoming', { name: displayName })}</Text>
      )}
      <ConnectionActions
        me={me}
        member={{ id: userId, displayName }}
        state={status.data.state}
        connectionId={status.data.connectionId}
        long
      />
    </Stack>
  );
}
