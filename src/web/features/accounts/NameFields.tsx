import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from '@web/lib/reactI18n';
import { dataText } from '@web/lib/translator';

/**
 * The two names a member chooses, asked the same way at sign-up and on the first visit after it
 * (ProfileSetupPage): the display name others read and the unique @username.
 */
export function NameFields<V extends { displayName: string; username: string }>({
  form,
  autoFocus = false,
}: {
  form: UseFormReturnType<V>;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const error = (key: unknown) => (key ? dataText(t, String(key)) : undefined);
  return (
    <>
      <TextInput
        label={t('auth.fields.displayName')}
        description={t('auth.fields.displayNameHint')}
        autoComplete="nickname"
        withAsterisk
        data-autofocus={autoFocus || undefined}
        {...form.getInputProps('displayName')}
        error={error(form.errors.displayName)}
      />
      <TextInput
        label={t('auth.fields.username')}
        description={t('auth.fields.usernameHint')}
        autoComplete="username"
        withAsterisk
        {...form.getInputProps('username')}
        error={error(form.errors.username)}
      />
    </>
  );
}
