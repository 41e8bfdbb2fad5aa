import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ApiError } from '../../lib/api';
import { CatalogueResultList, useCatalogueSearch } from '../catalogue';
import { BookCover } from '../../components/BookCover';
import { BOOK_SEARCH_DEBOUNCE_MS, BOOK_SEARCH_LIMIT, BOOK_SEARCH_MIN_QUERY } from './contract';
import classes from './community.module.css';

/** The book a post is about, as the dialog holds it. */
export interface PickedBook {
  id: string;
  title: string;
  author: string;
  coverUrl: string | null;
}

/**
 * The book of a post, chosen through the catalogue search: at least 2 characters, a 300 ms
 * pause, 10 results. Once chosen the book is shown with a way to change it.
 */
export function BookPicker({
  value,
  onChange,
  error,
}: {
  value: PickedBook | null;
  onChange: (book: PickedBook | null) => void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text, BOOK_SEARCH_DEBOUNCE_MS);
  const search = useCatalogueSearch(
    value ? '' : debounced,
    BOOK_SEARCH_LIMIT,
    BOOK_SEARCH_MIN_QUERY,
  );
  const listId = useId();
  const active = !value && debounced.trim().length >= BOOK_SEARCH_MIN_QUERY;
  const items = active ? (search.data?.items ?? []) : [];

  if (value)
    return (
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('community.form.book')}
        </Text>
        <Paper withBorder p="xs">
          <Group gap="sm" wrap="nowrap" justify="space-between">
            <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
              <BookCover
                url={value.coverUrl}
                title={value.title}
                author={value.author}
                height={60}
              />
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm" lineClamp={2} data-testid="picked-book">
                  {value.title}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {value.author}
                </Text>
              </div>
            </Group>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                onChange(null);
                setText('');
              }}
            >
              {t('community.form.changeBook')}
            </Button>
          </Group>
        </Paper>
      </Stack>
    );

  return (
    <Stack gap="xs">
      <TextInput
        label={t('community.form.book')}
        description={t('community.form.bookHint')}
        placeholder={t('community.form.bookPlaceholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={active && search.isFetching ? <Loader size="xs" aria-hidden /> : null}
        value={text}
        type="search"
        autoComplete="off"
        withAsterisk
        aria-controls={listId}
        error={error}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <div aria-live="polite" className={classes.status}>
        {active &&
        search.isError &&
        search.error instanceof ApiError &&
        search.error.status === 400 ? (
          // The catalogue refusing the text (too short, too long) is advice, not a failure.
          <Text size="sm" c="dimmed">
            {search.error.fields?.q ?? search.error.message}
          </Text>
        ) : (
          active &&
          search.isError && (
            <Alert color="red" variant="light" role="alert">
              {t('community.form.bookSearchFailed')}
            </Alert>
          )
        )}
        {active && search.isSuccess && !search.isPlaceholderData && items.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('community.form.noBooks')}
          </Text>
        )}
      </div>
      {items.length > 0 && (
        <CatalogueResultList
          id={listId}
          label={t('community.form.bookResults')}
          items={items}
          maxHeight={280}
          onChoose={(book) =>
            onChange({
              id: book.id,
              title: book.title,
              author: book.author,
              coverUrl: book.coverUrl,
            })
          }
        />
      )}
    </Stack>
  );
}
