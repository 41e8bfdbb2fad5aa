import { Button, Group, type ButtonProps } from '@mantine/core';
import { IconCheck, IconMessage, IconUserMinus, IconUserPlus, IconX } from '@tabler/icons-react';
import { createContext, useContext, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useNavigate } from '@web/lib/router';
import type { ConnectionState } from '@shared/connections';
import type { LocaleKey } from '../../lib/translator';
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

const failureKey: Record<ConnectionAction, LocaleKey> = {
  send: 'connections.errors.send',
  accept: 'connections.errors.accept',
  decline: 'connections.errors.decline',
  cancel: 'connections.errors.cancel',
  remove: 'connections.errors.remove',
};

/**
 * What a member can do with another, by state: add friend; a disabled 'request sent' with cancel;
 * accept and decline; send message and remove (after confirmation). Errors show under the buttons.
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
    <RowContext.Provider value={{ size, busy }}>
      <div>
        <Group gap="xs" wrap="wrap">
          {state === 'none' && (
            <ActionButton Icon={IconUserPlus} loading={send.isPending} onClick={() => run('send')}>
              {t('connections.control.addFriend')}
            </ActionButton>
          )}
          {state === 'pending-outgoing' && (
            <>
              <Button size={size} variant="light" disabled>
                {t('connections.control.requestSent')}
              </Button>
              <ActionButton
                variant="default"
                loading={cancel.isPending}
                onClick={() => run('cancel')}
              >
                {t('connections.control.cancelRequest')}
              </ActionButton>
            </>
          )}
          {state === 'pending-incoming' && (
            <>
              <ActionButton
                Icon={IconCheck}
                loading={accept.isPending}
                onClick={() => run('accept')}
              >
                {long ? t('connections.control.accept') : t('connections.requests.accept')}
              </ActionButton>
              <ActionButton
                variant="default"
                Icon={IconX}
                loading={decline.isPending}
                onClick={() => run('decline')}
              >
                {t('connections.control.decline')}
              </ActionButton>
            </>
          )}
          {state === 'accepted' && (
            <>
              <ActionButton Icon={IconMessage} loading={chat.isPending} onClick={startChat}>
                {t('connections.control.sendMessage')}
              </ActionButton>
              <ActionButton
                variant="default"
                color="red"
                Icon={IconUserMinus}
                onClick={() => {
                  setError(null);
                  setConfirming(true);
                }}
              >
                {long ? t('connections.control.remove') : t('connections.friends.remove')}
              </ActionButton>
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
    </RowContext.Provider>
  );
}

const RowContext = createContext<{ size: ButtonProps['size']; busy: boolean }>({
  size: 'sm',
  busy: false,
});

/** A button of the row: `size`, disabled while any action of the row runs. */
function ActionButton({
  Icon,
  ...props
}: ButtonProps & {
  Icon?: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  onClick: () => void;
  children: ReactNode;
}) {
  const { size, busy } = useContext(RowContext);
  return (
    <Button
      size={size}
      disabled={busy}
      leftSection={Icon ? <Icon size={16} aria-hidden /> : undefined}
      {...props}
    />
  );
}
