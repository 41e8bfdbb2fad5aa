import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from '@web/lib/reactI18n';

/** The two fields every quick listing asks for. */
export function TitleAuthorFields<T extends { title: string; author: string }>({
  form,
}: {
  form: UseFormReturnType<T>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('sell.fields.title')}
        withAsterisk
        maxLength={300}
        {...form.getInputProps('title')}
      />
      <TextInput
        label={t('sell.fields.author')}
        withAsterisk
        maxLength={300}
        {...form.getInputProps('author')}
      />
    </>
  );
}
