import {
  Avatar,
  Badge,
  Box,
  Button,
  Group,
  Indicator,
  Loader,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link } from '@web/lib/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useRooms } from './api';
import { formatRelative, othersIn, roomName } from './format';
import { messagePreview } from './notices';
import { presenceOf, useNow, type Presence } from './live';
import { UserAvatar } from '../../components/UserAvatar';
import type { Room } from './types';
import classes from './ChatsPage.module.css';

/** The member's rooms, most recent activity first, each a link that opens it. */
export function RoomList({
  meId,
  selectedId,
  presence,
}: {
  meId: string;
  selectedId: string | null;
  presence: Record<string, Presence>;
}) {
  const { t } = useTranslation();
  const rooms = useRooms();
  const now = useNow(30_000);

  let body: React.ReactNode;
  if (rooms.isPending)
    body = (
      <Group justify="center" p="lg">
        <Loader size="sm" role="status" aria-label={t('chats.loadingChats')} />
      </Group>
    );
  else if (rooms.isError)
    body = (
      <Box p="md">
        <ErrorAlert title={t('chats.errors.loadChats')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{rooms.error.message}</Text>
            <Button size="xs" variant="default" onClick={() => void rooms.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Stack>
        </ErrorAlert>
      </Box>
    );
  else {
    const items = rooms.data.pages.flatMap((p) => p.items);
    body = items.length ? (
      <>
        <ul className={classes.roomList}>
          {items.map((room) => (
            <li key={room.id}>
              <RoomLink
                room={room}
                meId={meId}
                selected={room.id === selectedId}
                presence={presence}
                now={now}
              />
            </li>
          ))}
        </ul>
        {rooms.hasNextPage && (
          <Button
            variant="subtle"
            m="xs"
            loading={rooms.isFetchingNextPage}
            onClick={() => void rooms.fetchNextPage()}
          >
            {t('chats.moreChats')}
          </Button>
        )}
      </>
    ) : (
      <Stack p="lg" gap="xs" align="center">
        <Text fw={600}>{t('chats.empty.title')}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {t('chats.empty.text')}
        </Text>
      </Stack>
    );
  }
  return (
    <Box component="nav" aria-label={t('chats.listLabel')} className={classes.pane}>
      {body}
    </Box>
  );
}

function RoomLink({
  room,
  meId,
  selected,
  presence,
  now,
}: {
  room: Room;
  meId: string;
  selected: boolean;
  presence: Record<string, Presence>;
  now: number;
}) {
  const { t, i18n } = useTranslation();
  const name = roomName(room, meId, t);
  const other = room.isGroup ? undefined : othersIn(room, meId)[0];
  const online = other ? presenceOf(other, presence).online : false;
  const last = room.lastMessage;
  const when = last?.createdAt ?? room.updatedAt;
  return (
    <Link
      to={`?room=${encodeURIComponent(room.id)}`}
      className={classes.room}
      aria-current={selected ? 'page' : undefined}
      data-testid="chat-room"
    >
      <Indicator
        color="green"
        size={10}
        offset={4}
        position="bottom-end"
        withBorder
        disabled={!online}
      >
        {other ? (
          <UserAvatar
            name={other.displayName}
            avatarUrl={other.avatarUrl}
            avatarSeed={other.avatarSeed}
            size="md"
            decorative
          />
        ) : (
          <Avatar radius="xl" color="brown" alt="">
            <IconUsersGroup size={20} aria-hidden />
          </Avatar>
        )}
      </Indicator>
      <Box miw={0} style={{ flex: 1 }}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fw={room.unreadCount ? 700 : 600} truncate="end">
            {name}
          </Text>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {formatRelative(when, t, i18n.language, now)}
          </Text>
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed" truncate="end">
            {last ? messagePreview(last, meId, t, i18n.language) : t('chats.noMessages')}
          </Text>
          {room.unreadCount > 0 && (
            <>
              <Badge color="red.9" size="sm" circle={room.unreadCount < 10} aria-hidden>
                {room.unreadCount > 99 ? '99+' : room.unreadCount}
              </Badge>
              <VisuallyHidden>
                {t('privateArea.unreadMessages', { count: room.unreadCount })}
              </VisuallyHidden>
            </>
          )}
        </Group>
        {online && <VisuallyHidden>{t('chats.presence.online')}</VisuallyHidden>}
      </Box>
    </Link>
  );
}
