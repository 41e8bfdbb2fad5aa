import { Button, Group } from '@mantine/core';
import { IconCheck, IconMessage, IconUserMinus, IconUserPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useNavigate } from '@web/lib/router';
import type { ConnectionState } from '@shared/connections';
import { useConnectionAction, useStartChat, type ConnectionAction } from './api';
import { ActionError } from './ActionError';
import { actionErrorMessage, chatErrorMessage } from './errors';
import { RemoveFriendModal } from './RemoveFriendModal';

export interface ConnectionActionsProps {
  /** The signed-in member. */
  me: string;
  member: { id: string; displayName: string };
  state: ConnectionState;
  connectionId: string | null;
  size?: 'xs' | 'sm';
  /** Labels of the profile control ('Accept request', 'Remove friend') instead of the lists' short ones. */
  long?: boolean;
}

const failureKey: Record<ConnectionAction, string> = {
  send: 'connections.errors.send',
  accept: 'connections.errors.accept',
  decline: 'connections.errors.decline',
  cancel: 'connections.errors.cancel',
  remove: 'connections.errors.remove',
};

/**
 * What a member can do with another, by state (spec 2 section 4): add friend; a disabled
 * 'request sent' with cancel; accept and decline; send message and remove (after confirmation).
 * Errors show under the buttons.
 */
export function ConnectionActions({
  me,
  member,
  state,
  connectionId,
  size = 'sm',
  long = false,
}: ConnectionActionsProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const send = useConnectionAction('send');
  const accept = useConnectionAction('accept');
  const decline = useConnectionAction('decline');
  const cancel = useConnectionAction('cancel');
  const remove = useConnectionAction('remove');
  const chat = useStartChat();
  const mutations = { send, accept, decline, cancel, remove };
  const busy = Object.values(mutations).some((m) => m.isPending) || chat.isPending;

  const run = (action: ConnectionAction, after?: () => void) => {
    setError(null);
    mutations[action].mutate(
      { userId: member.id, connectionId },
      {
        onSuccess: () => after?.(),
        onError: (err) => setError(actionErrorMessage(err, failureKey[action], t)),
      },
    );
  };
  const startChat = () => {
    setError(null);
    chat.mutate(member.id, {
      onSuccess: ({ room }) => navigate(`/profile/${me}/chats?room=${encodeURIComponent(room.id)}`),
      onError: (err) => setError(chatErrorMessage(err, t)),
    });
  };

  return (
    <div>
      <Group gap="xs" wrap="wrap">
        {state === 'none' && (
          <Button
            size={size}
            leftSection={<IconUserPlus size={16} aria-hidden />}
            loading={send.isPending}
            disabled={busy}
            onClick={() => run('send')}
          >
            {t('connections.control.addFriend')}
          </Button>
        )}
        {state === 'pending-outgoing' && (
          <>
            <Button size={size} variant="light" disabled>
              {t('connections.control.requestSent')}
            </Button>
            <Button
              size={size}
              variant="default"
              loading={cancel.isPending}
              disabled={busy}
              onClick={() => run('cancel')}
            >
              {t('connections.control.cancelRequest')}
            </Button>
          </>
        )}
        {state === 'pending-incoming' && (
          <>
            <Button
              size={size}
              leftSection={<IconCheck size={16} aria-hidden />}
              loading={accept.isPending}
              disabled={busy}
              onClick={() => run('accept')}
            >
              {long ? t('connections.control.accept') : t('connections.requests.accept')}
            </Button>
            <Button
              size={size}
              variant="default"
              leftSection={<IconX size={16} aria-hidden />}
              loading={decline.isPending}
              disabled={busy}
              onClick={() => run('decline')}
            >
              {t('connections.control.decline')}
            </Button>
          </>
        )}
        {state === 'accepted' && (
          <>
            <Button
              size={size}
              leftSection={<IconMessage size={16} aria-hidden />}
              loading={chat.isPending}
              disabled={busy}
              onClick={startChat}
            >
              {t('connections.control.sendMessage')}
            </Button>
            <Button
              size={size}
              variant="default"
              color="red"
              leftSection={<IconUserMinus size={16} aria-hidden />}
              disabled={busy}
              onClick={() => {
                setError(null);
                setConfirming(true);
              }}
            >
              {long ? t('connections.control.remove') : t('connections.friends.remove')}
            </Button>
          </>
        )}
      </Group>
      {!confirming && <ActionError message={error} />}
      <RemoveFriendModal
        name={member.displayName}
        opened={confirming}
        pending={remove.isPending}
        error={confirming ? error : null}
        onClose={() => {
          setConfirming(false);
          setError(null);
        }}
        onConfirm={() => run('remove', () => setConfirming(false))}
      />
    </div>
  );
}
