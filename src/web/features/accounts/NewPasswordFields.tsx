import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from '@web/lib/reactI18n';
import { dataText, type LocaleKey } from '@web/lib/translator';

/** A new password and its confirmation (sign-up and reset), with the form's translated errors. */
export function NewPasswordFields<T extends { password: string; confirmPassword: string }>({
  form,
  labelKey,
  confirmLabelKey,
}: {
  form: UseFormReturnType<T>;
  labelKey: LocaleKey;
  confirmLabelKey: LocaleKey;
}) {
  const { t } = useTranslation();
  const message = (key: unknown) => (key ? dataText(t, String(key)) : undefined);
  return (
    <>
      <PasswordInput
        label={t(labelKey)}
        description={t('auth.signup.passwordHint')}
        autoComplete="new-password"
        withAsterisk
        {...form.getInputProps('password')}
        error={message(form.errors.password)}
      />
      <PasswordInput
        label={t(confirmLabelKey)}
        autoComplete="new-password"
        withAsterisk
        {...form.getInputProps('confirmPassword')}
        error={message(form.errors.confirmPassword)}
      />
    </>
  );
}
