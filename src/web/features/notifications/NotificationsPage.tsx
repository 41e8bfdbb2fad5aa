import { Button, Card, Group, Stack, Title } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { NOTIFICATIONS_PAGE_SIZE } from '@shared/notifications';
import { useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useLiveNotifications, useMarkRead, useUnreadNotifications } from './api';
import { NotificationList } from './NotificationList';

/** /profile/{id}/notifications: every notification, a page at a time, and "mark all as read". */
export default function NotificationsPage() {
  const { t } = useTranslation();
  const session = useSession();
  useDocumentTitle(t('notifications.title'));
  const unread = useUnreadNotifications(session.status === 'signed-in').data?.unread ?? 0;
  const { all } = useMarkRead();
  useLiveNotifications();
  return (
    <Stack gap="lg" maw={720}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {t('notifications.title')}
        </Title>
        <Button
          variant="default"
          leftSection={<IconChecks size={18} aria-hidden />}
          disabled={unread === 0}
          onClick={() => all.mutate()}
        >
          {t('notifications.markAllRead')}
        </Button>
      </Group>
      <Card withBorder padding="xs">
        <NotificationList pageSize={NOTIFICATIONS_PAGE_SIZE} />
      </Card>
    </Stack>
  );
}
