import { ActionIcon, Anchor, Avatar, Box, Group, Menu, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowLeft, IconDots, IconDoorExit, IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link } from '@web/lib/router';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { UserAvatar } from '../../components/UserAvatar';
import { useLeaveRoom } from './api';
import { useBlockMenu } from '../blocks';
import { othersIn, presenceText, roomName } from './format';
import { presenceOf, useNow, type Presence } from './live';
import type { Room } from './types';
import classes from './ChatsPage.module.css';

/** Who the room is with, whether they are here (or typing), and the room's actions. */
export function ConversationHeader({
  room,
  meId,
  presence,
  typists,
  onBack,
  onLeft,
}: {
  room: Room;
  meId: string;
  presence: Record<string, Presence>;
  typists: string[];
  onBack?: () => void;
  onLeft: () => void;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow(30_000);
  const [confirming, confirm] = useDisclosure(false);
  const leave = useLeaveRoom();
  const name = roomName(room, meId, t);
  const other = room.isGroup ? undefined : othersIn(room, meId)[0];
  const blockMenu = useBlockMenu(other?.id, other?.displayName ?? name);

  const status = typists.length
    ? typists.length === 1
      ? t('chats.typing.one', { name: typists[0] })
      : t('chats.typing.many', { names: typists.join(', ') })
    : other?.deleted
      ? t('chats.deletedNoReply')
      : other
        ? presenceText(presenceOf(other, presence), t, i18n.language, now)
        : t('chats.members', { count: room.participants.length });

  return (
    <Group className={classes.header} gap="sm" wrap="nowrap">
      {onBack && (
        <ActionIcon variant="subtle" size="lg" onClick={onBack} aria-label={t('chats.back')}>
          <IconArrowLeft size={20} aria-hidden />
        </ActionIcon>
      )}
      {other ? (
        <UserAvatar
          name={other.displayName}
          avatarUrl={other.avatarUrl}
          avatarSeed={other.avatarSeed}
          size="md"
          decorative
        />
      ) : (
        <Avatar radius="xl" color="brown" aria-hidden>
          <IconUsersGroup size={20} aria-hidden />
        </Avatar>
      )}
      <Box miw={0} style={{ flex: 1 }}>
        <Title order={2} fz="md" id="conversation-title" lineClamp={1}>
          {other && !other.deleted ? (
            <Anchor component={Link} to={`/user/${other.id}`} inherit c="inherit">
              {name}
            </Anchor>
          ) : (
            name
          )}
        </Title>
        <Text
          size="xs"
          c={typists.length ? 'brown.8' : 'dimmed'}
          fs={typists.length ? 'italic' : undefined}
          aria-live="polite"
          data-testid="conversation-status"
          truncate="end"
        >
          {status}
        </Text>
      </Box>
      <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <ActionIcon variant="subtle" size="lg" aria-label={t('chats.options')}>
            <IconDots size={20} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {blockMenu.item}
          <Menu.Item
            color="red.9"
            leftSection={<IconDoorExit size={16} aria-hidden />}
            onClick={confirm.open}
          >
            {t('chats.leave.action')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {blockMenu.dialog}
      <ConfirmDialog
        opened={confirming}
        onClose={confirm.close}
        title={t('chats.leave.title')}
        confirmLabel={t('chats.leave.confirm')}
        color="red.9"
        loading={leave.isPending}
        error={leave.isError ? leave.error.message : null}
        onConfirm={() =>
          leave.mutate(room.id, {
            onSuccess: () => {
              confirm.close();
              onLeft();
            },
          })
        }
      >
        {t('chats.leave.text')}
      </ConfirmDialog>
    </Group>
  );
}
