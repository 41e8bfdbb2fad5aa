import {
  Alert,
  Avatar,
  Box,
  Button,
  Group,
  Loader,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useNavigate } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import type { NotificationView } from '@shared/notifications';
import { initialsOf } from '@shared/identicon';
import { useMarkRead, useNotificationPages } from './api';
import { notificationText, whenText } from './text';
import classes from './Notifications.module.css';

/**
 * The member's notifications, newest first, a page at a time ("Load more"). Choosing one marks
 * it read and opens what it is about.
 */
export function NotificationList({
  pageSize,
  onOpen,
}: {
  pageSize: number;
  /** Called when a notification is opened (the popover closes). */
  onOpen?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const pages = useNotificationPages(pageSize);
  const { one } = useMarkRead();

  if (pages.isPending)
    return (
      <Group justify="center" p="md">
        <Loader size="sm" role="status" aria-label={t('notifications.loading')} />
      </Group>
    );
  if (pages.isError)
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{pages.error.message}</Text>
          <Button size="xs" variant="default" onClick={() => void pages.refetch()}>
            {t('notifications.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  const items = pages.data.pages.flatMap((p) => p.items);
  if (items.length === 0)
    return (
      <Text c="dimmed" size="sm" p="md" ta="center" data-testid="notifications-empty">
        {t('notifications.empty')}
      </Text>
    );

  const open = (n: NotificationView) => {
    if (!n.read) one.mutate(n.id);
    onOpen?.();
    navigate(n.link);
  };

  return (
    <Stack gap="xs">
      <ul className={classes.list} aria-label={t('notifications.listLabel')}>
        {items.map((n) => {
          const text = notificationText(t, n, i18n.language);
          return (
            <li key={n.id}>
              <UnstyledButton
                className={classes.item}
                data-unread={n.read ? undefined : true}
                onClick={() => open(n)}
              >
                {/* A notice from nobody in particular (moderation, reminders) shows the site's mark. */}
                <Avatar
                  src={n.actor ? (n.actor.avatarUrl ?? null) : '/icon.svg'}
                  alt=""
                  radius="xl"
                  color="brown"
                  size="md"
                  data-testid={n.actor ? undefined : 'notification-site-mark'}
                >
                  {n.actor ? initialsOf(n.actor.displayName) : null}
                </Avatar>
                <Box miw={0} style={{ flex: 1 }}>
                  <Text size="sm" fw={n.read ? 400 : 600} className={classes.text}>
                    {text}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {whenText(t, n.updatedAt, i18n.language)}
                  </Text>
                </Box>
                {!n.read && (
                  <>
                    <span className={classes.dot} aria-hidden />
                    <VisuallyHidden>{t('notifications.unreadItem')}</VisuallyHidden>
                  </>
                )}
              </UnstyledButton>
            </li>
          );
        })}
      </ul>
      {pages.hasNextPage && (
        <Button
          variant="subtle"
          size="sm"
          onClick={() => void pages.fetchNextPage()}
          loading={pages.isFetchingNextPage}
        >
          {t('notifications.loadMore')}
        </Button>
      )}
    </Stack>
  );
}
