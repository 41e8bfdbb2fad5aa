import { Switch, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ME_QUERY_KEY } from '../../lib/session';
import { api } from '../../lib/api';

/**
 * Settings: whether messages that arrive while the member has no open tab are e-mailed to them
 * (at most one e-mail per room an hour); the profile's `email_notifications`, on by default.
 */
export function MissedMessagesSwitch({ me }: { me: { id: string; emailNotifications?: boolean } }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const saved = me.emailNotifications ?? true;
  const [checked, setChecked] = useState(saved);
  const save = useMutation({
    mutationFn: (emailNotifications: boolean) =>
      api<Record<string, unknown>>('/api/me', { method: 'PATCH', body: { emailNotifications } }),
    onSuccess: (updated) => client.setQueryData(ME_QUERY_KEY, updated),
    onError: () => setChecked(saved),
  });
  return (
    <div>
      <Switch
        label={t('settings.missedMessages.label')}
        description={t('settings.missedMessages.hint')}
        checked={checked}
        disabled={save.isPending}
        onChange={(e) => {
          const next = e.currentTarget.checked;
          setChecked(next);
          save.mutate(next);
        }}
      />
      {save.isError && (
        <Text size="sm" c="red.9" role="alert" mt={4}>
          {save.error.message}
        </Text>
      )}
    </div>
  );
}
