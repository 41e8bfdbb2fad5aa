import { ActionIcon, Anchor, Button, Group, Indicator, Popover, Stack, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { useSession } from '../../lib/session';
import { useLiveNotifications, useMarkRead, useUnreadNotifications } from './api';
import { NotificationList } from './NotificationList';
import classes from './Notifications.module.css';

/** Notifications shown in the bell's popover; the page shows more. */
const POPOVER_PAGE_SIZE = 10;

/**
 * The bell of the top bar (signed-in members): the unread count, live over the realtime socket
 * and refetched after a reconnect; it opens the latest notifications, "mark all as read" and a
 * link to the notifications page. Its name says the count ("Notifications, 3 unread").
 */
export default function NotificationBell() {
  const { t } = useTranslation();
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const [opened, setOpened] = useState(false);
  const unread = useUnreadNotifications(signedIn).data?.unread ?? 0;
  const { all } = useMarkRead();
  useLiveNotifications();
  if (!signedIn) return null;
  const page = `/profile/${encodeURIComponent(session.user.id)}/notifications`;
  const close = () => setOpened(false);

  return (
    <Indicator
      label={unread > 99 ? '99+' : unread}
      disabled={unread === 0}
      size={18}
      color="red.9"
      offset={4}
      data-testid="notification-badge"
    >
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        width="min(380px, calc(100vw - 16px))"
        shadow="md"
        withinPortal
        trapFocus
        returnFocus
      >
        <Popover.Target>
          {/* Popover.Target gives the button aria-haspopup, aria-expanded and aria-controls. */}
          <ActionIcon
            variant="subtle"
            color="dark"
            size="lg"
            aria-label={t('notifications.bell', { count: unread })}
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell size={22} aria-hidden />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p="xs" role="dialog" aria-label={t('notifications.title')}>
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap" px="xs">
              <Text fw={700}>{t('notifications.title')}</Text>
              <Button
                variant="subtle"
                size="compact-sm"
                disabled={unread === 0}
                onClick={() => all.mutate()}
              >
                {t('notifications.markAllRead')}
              </Button>
            </Group>
            <div className={classes.scroll}>
              <NotificationList pageSize={POPOVER_PAGE_SIZE} onOpen={close} />
            </div>
            <Anchor component={Link} to={page} onClick={close} size="sm" ta="center">
              {t('notifications.seeAll')}
            </Anchor>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
