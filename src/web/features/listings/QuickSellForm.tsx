import { Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { bookLanguageName } from '@shared/bookLanguage';
import { quickSellSchema, type CatalogueBook, type QuickSellInput } from '@shared/marketplace';
import { MoneyInput } from '../../components/formFields';
import { CatalogueSearch } from '../catalogue';
import { translatedResolver, useServerSubmit } from './useZodForm';
import { TitleAuthorFields } from './TitleAuthorFields';
import { usePriceCheck } from './usePriceCheck';
import { FormActions } from '../../components/FormActions';

/**
 * Quick sell: title, author and a price greater than 0 (a catalogue result can fill the first two
 * and the language, by name as the full form stores it). A chosen result is sent by its ids, so
 * the listing is that book, with the genre the catalogue gives it.
 */
export function QuickSellForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (values: QuickSellInput) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<CatalogueBook | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      title: '',
      author: '',
      language: '',
      // Never pre-filled: a box that starts at 10 turned a typed 5 into 105 (issue 33).
      price: '' as number | string,
    },
    validate: translatedResolver(quickSellSchema, t) as never,
  });
  const { submitting, submitParsed } = useServerSubmit(form, onSubmit);
  const priceCheck = usePriceCheck();
  const submit = form.onSubmit((values) => {
    // Edited title or author: it is no longer that catalogue book.
    const same =
      picked && values.title.trim() === picked.title && values.author.trim() === picked.author;
    const parsed = quickSellSchema.safeParse(
      same
        ? {
            ...values,
            bookId: picked.id,
            googleBooksId: picked.googleBooksId ?? undefined,
            isbn: picked.isbn ?? undefined,
          }
        : values,
    );
    if (!parsed.success) return;
    priceCheck.check(parsed.data.price, 'EUR', () => submitParsed(parsed.data));
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <CatalogueSearch
          description={t('sell.catalogue.fillHint')}
          onSelect={(book) => {
            setPicked(book);
            form.setValues({
              title: book.title,
              author: book.author,
              language: bookLanguageName(book.language) ?? '',
            });
          }}
        />
        <TitleAuthorFields form={form} />
        <MoneyInput
          label={t('sell.fields.priceEur')}
          withAsterisk
          {...form.getInputProps('price')}
        />
        {priceCheck.dialog}
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
