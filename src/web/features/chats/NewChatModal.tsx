import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link } from '@web/lib/router';
import { GROUP_NAME_MAX_LENGTH } from '@shared/chatLimits';
import { ErrorAlert } from '../../components/ErrorAlert';
import { UserAvatar } from '../../components/UserAvatar';
import { useCreateDirect, useCreateGroup } from './api';
import { useFriends } from './friends';

/**
 * Starts a conversation with friends: one ticked opens the direct room of the pair (made if
 * new), several and a name make a group.
 */
export function NewChatModal({
  opened,
  onClose,
  onOpened,
  meId,
}: {
  opened: boolean;
  onClose: () => void;
  onOpened: (roomId: string) => void;
  meId: string;
}) {
  const { t } = useTranslation();
  const friends = useFriends(opened);
  const [chosen, setChosen] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const direct = useCreateDirect();
  const group = useCreateGroup();
  // A mutation's reset is bound once to its observer, so these are stable across renders.
  const { reset: resetDirect } = direct;
  const { reset: resetGroup } = group;
  const pending = direct.isPending || group.isPending;
  const error = direct.error ?? group.error;
  const isGroup = chosen.length > 1;

  useEffect(() => {
    if (opened) return;
    setChosen([]);
    setName('');
    setNameError(null);
    resetDirect();
    resetGroup();
  }, [opened, resetDirect, resetGroup]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen.length || pending) return;
    if (!isGroup) return direct.mutate(chosen[0], { onSuccess: ({ room }) => onOpened(room.id) });
    if (!name.trim()) return setNameError(t('chats.newChat.nameRequired'));
    setNameError(null);
    group.mutate(
      { name: name.trim(), participantIds: chosen },
      { onSuccess: ({ room }) => onOpened(room.id) },
    );
  };

  let body: React.ReactNode;
  if (friends.isPending)
    body = (
      <Group justify="center" p="md">
        <Loader size="sm" role="status" aria-label={t('chats.newChat.loading')} />
      </Group>
    );
  else if (friends.isError)
    body = (
      <ErrorAlert title={t('chats.newChat.loadFailed')}>
        <Button size="xs" variant="default" onClick={() => void friends.refetch()}>
          {t('common.tryAgain')}
        </Button>
      </ErrorAlert>
    );
  else if (!friends.data.friends.length)
    body = (
      <Stack gap="xs">
        <Text>{t('chats.newChat.noFriends')}</Text>
        <Anchor component={Link} to={`/profile/${meId}/friends`} onClick={onClose}>
          {t('chats.newChat.findFriends')}
        </Anchor>
      </Stack>
    );
  else
    body = (
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Checkbox.Group
            label={t('chats.newChat.choose')}
            description={t('chats.newChat.chooseHint')}
            value={chosen}
            onChange={setChosen}
          >
            <ScrollArea.Autosize mah={280} mt="xs" type="auto">
              <Stack gap="xs">
                {friends.data.friends.map((f) => (
                  <Checkbox
                    key={f.id}
                    value={f.id}
                    label={
                      <Group gap="xs" wrap="nowrap">
                        <UserAvatar
                          name={f.displayName}
                          avatarUrl={f.avatarUrl}
                          avatarSeed={f.avatarSeed}
                          size="sm"
                          decorative
                        />
                        <span>
                          {f.displayName}
                          {f.username ? (
                            <Text span c="dimmed" size="xs">
                              {' '}
                              @{f.username}
                            </Text>
                          ) : null}
                        </span>
                      </Group>
                    }
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          </Checkbox.Group>
          {friends.hasNextPage && (
            <Button
              variant="subtle"
              size="xs"
              loading={friends.isFetchingNextPage}
              onClick={() => void friends.fetchNextPage()}
            >
              {t('chats.newChat.moreFriends')}
            </Button>
          )}
          {isGroup && (
            <TextInput
              label={t('chats.newChat.groupName')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={nameError}
              maxLength={GROUP_NAME_MAX_LENGTH}
              required
            />
          )}
          {error && (
            <Text size="sm" c="red.9" role="alert">
              {error.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending} disabled={!chosen.length}>
              {isGroup ? t('chats.newChat.createGroup') : t('chats.newChat.start')}
            </Button>
          </Group>
        </Stack>
      </form>
    );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('chats.newChat.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {body}
    </Modal>
  );
}
