import { Alert, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '@web/lib/reactI18n';
import { dataText } from '@web/lib/translator';
import { ApiError } from '../../lib/api';
import { notify } from '../../lib/notify';
import { changePassword } from './api';
import { NewPasswordFields } from './NewPasswordFields';
import { confirmPasswordKey, newPasswordKey, requiredKey } from './validation';

/**
 * Current password, new password and its confirmation. On success this browser stays signed in
 * and every other session of the member ends (the server closes their live connections too).
 */
export function PasswordForm() {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { currentPassword: '', password: '', confirmPassword: '' },
    validate: {
      currentPassword: requiredKey,
      password: newPasswordKey,
      confirmPassword: (value, values) => confirmPasswordKey(value, values.password),
    },
  });
  const change = useMutation({
    mutationFn: (v: { currentPassword: string; newPassword: string }) => changePassword(v),
    onSuccess: ({ endedSessions }) => {
      form.reset();
      notify('green', t('settings.password.changed', { count: endedSessions }));
    },
    onError: (err) => {
      const fields = err instanceof ApiError ? err.fields : undefined;
      if (fields?.currentPassword) form.setFieldError('currentPassword', fields.currentPassword);
      if (fields?.newPassword) form.setFieldError('password', fields.newPassword);
    },
  });
  const failure =
    change.error && !(change.error instanceof ApiError && change.error.fields)
      ? change.error.message
      : null;
  // Errors from the form's own rules are locale keys; the server's are already worded.
  const message = (value: unknown) => (value ? dataText(t, String(value)) : undefined);

  return (
    <form
      noValidate
      aria-labelledby="settings-password-title"
      onSubmit={form.onSubmit(({ currentPassword, password }) =>
        change.mutate({ currentPassword, newPassword: password }),
      )}
    >
      <Stack gap="md" maw={420}>
        <Text size="sm" c="dimmed">
          {t('settings.password.hint')}
        </Text>
        {failure && (
          <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
            {failure}
          </Alert>
        )}
        <PasswordInput
          label={t('settings.password.current')}
          autoComplete="current-password"
          withAsterisk
          {...form.getInputProps('currentPassword')}
          error={message(form.errors.currentPassword)}
        />
        <NewPasswordFields
          form={form}
          labelKey="settings.password.new"
          confirmLabelKey="settings.password.confirm"
        />
        <Group>
          <Button type="submit" loading={change.isPending}>
            {t('settings.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
