import { Alert, Loader, Switch, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import type { TypeSettingView } from '@shared/notifications';
import { useNotificationSettings, useUpdateNotificationSettings } from './api';
import { dataText } from '../../lib/translator';

/**
 * Settings: for each notification type, whether it shows in the app and whether it comes in the
 * hourly e-mail digest. A switch sends only itself (PATCH changes only what is sent).
 */
/** The two switches of a type: in the app, by e-mail. */
const CHANNELS = [
  { channel: 'inApp', labelKey: 'notifications.settings.inAppFor' },
  { channel: 'email', labelKey: 'notifications.settings.emailFor' },
] as const;

export function NotificationSettings() {
  const { t } = useTranslation();
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  if (settings.isPending)
    return <Loader size="sm" role="status" aria-label={t('notifications.loading')} />;
  if (settings.isError)
    return (
      <Alert color="red" role="alert">
        {settings.error.message}
      </Alert>
    );
  const { types, emailNotifications } = settings.data;
  // Types are the server's: one it added since reads as its key.
  const name = (s: TypeSettingView) => dataText(t, `notifications.typeNames.${s.type}`);
  const change = (type: string, key: 'inApp' | 'email', value: boolean) =>
    update.mutate({ [type]: { [key]: value } });

  return (
    <div>
      <Text fw={600} mb={4} id="notification-types-title">
        {t('notifications.settings.title')}
      </Text>
      <Text size="sm" c="dimmed" mb="xs">
        {t('notifications.settings.hint')}
      </Text>
      {!emailNotifications && (
        <Text size="sm" c="orange.9" mb="xs">
          {t('notifications.settings.emailOff')}
        </Text>
      )}
      <Table aria-labelledby="notification-types-title" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <VisuallyHidden>{t('notifications.settings.type')}</VisuallyHidden>
            </Table.Th>
            <Table.Th w={90}>{t('notifications.settings.inApp')}</Table.Th>
            <Table.Th w={90}>{t('notifications.settings.email')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {types.map((s) => (
            <Table.Tr key={s.type}>
              <Table.Td>
                <Text size="sm">{name(s)}</Text>
              </Table.Td>
              {CHANNELS.map(({ channel, labelKey }) => (
                <Table.Td key={channel}>
                  <Switch
                    checked={s[channel]}
                    disabled={update.isPending}
                    label={<VisuallyHidden>{t(labelKey, { type: name(s) })}</VisuallyHidden>}
                    onChange={(e) => change(s.type, channel, e.currentTarget.checked)}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {update.isError && (
        <Text size="sm" c="red.9" role="alert" mt={4}>
          {update.error.message}
        </Text>
      )}
    </div>
  );
}
