import { Alert, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { bookLanguageName } from '@shared/bookLanguage';
import { quickTradeSchema, type CatalogueBook } from '@shared/marketplace';
import { CatalogueSearch } from '../catalogue';
import { BookCover } from '../../components/BookCover';
import { translatedResolver, useServerSubmit } from './useZodForm';
import { TitleAuthorFields } from './TitleAuthorFields';
import { FormActions } from '../../components/FormActions';

interface QuickTradeValues {
  title: string;
  author: string;
  bookId: string;
  googleBooksId: string;
  isbn: string;
  language: string;
}

/**
 * Quick trade: a catalogue result supplies title and author (both stay editable), its ids and its
 * language by name, as the full form stores it.
 */
export function QuickTradeForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (values: {
    title: string;
    author: string;
    bookId?: string;
    googleBooksId?: string;
    isbn?: string;
    language?: string;
  }) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<CatalogueBook | null>(null);
  const form = useForm<QuickTradeValues>({
    mode: 'controlled',
    initialValues: {
      title: '',
      author: '',
      bookId: '',
      googleBooksId: '',
      isbn: '',
      language: '',
    },
    validate: translatedResolver(quickTradeSchema, t) as never,
  });
  const choose = (book: CatalogueBook) => {
    setPicked(book);
    form.setValues({
      title: book.title,
      author: book.author,
      bookId: book.id,
      googleBooksId: book.googleBooksId ?? '',
      isbn: book.isbn ?? '',
      language: bookLanguageName(book.language) ?? '',
    });
  };
  const { submitting, submitParsed } = useServerSubmit(form, onSubmit);
  const submit = form.onSubmit(async (values) => {
    // Edited title or author: it is no longer that catalogue book.
    const same =
      picked && values.title.trim() === picked.title && values.author.trim() === picked.author;
    const parsed = quickTradeSchema.safeParse(
      same ? values : { title: values.title, author: values.author },
    );
    if (!parsed.success) return;
    await submitParsed(parsed.data);
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <CatalogueSearch onSelect={choose} autoFocus />
        {picked && (
          <Alert variant="light" color="teal" aria-live="polite">
            <Group wrap="nowrap" gap="sm">
              <BookCover
                url={picked.coverUrl}
                height={72}
                title={picked.title}
                author={picked.author}
              />
              <div>
                <Text size="sm" fw={600}>
                  {t('sell.quickTrade.selected', { title: picked.title })}
                </Text>
                <Text size="xs">{picked.author}</Text>
              </div>
            </Group>
          </Alert>
        )}
        <TitleAuthorFields form={form} />
        <FormActions
          cancelLabel={t('sell.chooser.back')}
          submitLabel={t('sell.quickTrade.submit')}
          onCancel={onCancel}
          loading={submitting}
        />
      </Stack>
    </form>
  );
}
