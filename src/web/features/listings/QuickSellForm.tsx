import { Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from '@web/lib/reactI18n';
import { bookLanguageName } from '@shared/bookLanguage';
import { QUICK_SELL_DEFAULT_PRICE, quickSellSchema } from '@shared/marketplace';
import { MoneyInput } from '../../components/formFields';
import { CatalogueSearch } from '../catalogue';
import { translatedResolver, useServerSubmit } from './useZodForm';
import { TitleAuthorFields } from './TitleAuthorFields';
import { FormActions } from '../../components/FormActions';

/**
 * Quick sell: title, author and a price greater than 0 (a catalogue result can fill the first two
 * and the language, by name as the full form stores it).
 */
export function QuickSellForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (values: {
    title: string;
    author: string;
    language?: string;
    price: number;
  }) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      title: '',
      author: '',
      language: '',
      price: QUICK_SELL_DEFAULT_PRICE as number | string,
    },
    validate: translatedResolver(quickSellSchema, t) as never,
  });
  const { submitting, submitParsed } = useServerSubmit(form, onSubmit);
  const submit = form.onSubmit(async (values) => {
    const parsed = quickSellSchema.safeParse(values);
    if (!parsed.success) return;
    await submitParsed(parsed.data);
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <CatalogueSearch
          description={t('sell.catalogue.fillHint')}
          onSelect={(book) =>
            form.setValues({
              title: book.title,
              author: book.author,
              language: bookLanguageName(book.language) ?? '',
            })
          }
        />
        <TitleAuthorFields form={form} />
        <MoneyInput
          label={t('sell.fields.priceEur')}
          withAsterisk
          allowNegative={false}
          {...form.getInputProps('price')}
        />
        <FormActions
          cancelLabel={t('sell.chooser.back')}
          submitLabel={t('sell.quickSell.submit')}
          onCancel={onCancel}
          loading={submitting}
        />
      </Stack>
    </form>
  );
}
