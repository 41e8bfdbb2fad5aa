import { Alert, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { CATALOGUE_DEBOUNCE_MS, CATALOGUE_MIN_QUERY } from '@shared/marketplaceConstants';
import type { CatalogueBook } from '@shared/marketplace';
import { CatalogueResultList } from './CatalogueResultList';
import { useCatalogueSearch } from './useCatalogueSearch';
import classes from './CatalogueSearch.module.css';

/** The select-book field clears this long after a choice. */
export const SELECTION_CLEAR_MS = 1000;

/**
 * Book search box of the quick-add forms: searches the catalogue once the trimmed text is longer
 * than 2 characters and the typing has paused for 500 ms; shows up to 8 results to choose from.
 */
export function CatalogueSearch({
  onSelect,
  label,
  description,
  autoFocus,
}: {
  onSelect: (book: CatalogueBook) => void;
  label?: string;
  description?: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text, CATALOGUE_DEBOUNCE_MS);
  const [chosen, setChosen] = useState(false);
  const search = useCatalogueSearch(chosen ? '' : debounced);
  const clearTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const listId = useId();
  useEffect(() => () => clearTimeout(clearTimer.current), []);

  const active = !chosen && debounced.trim().length >= CATALOGUE_MIN_QUERY;
  const items = active ? (search.data?.items ?? []) : [];

  const choose = (book: CatalogueBook) => {
    onSelect(book);
    setChosen(true);
    setText(book.title);
    clearTimeout(clearTimer.current);
    clearTimer.current = setTimeout(() => {
      setText('');
      setChosen(false);
    }, SELECTION_CLEAR_MS);
  };

  return (
    <Stack gap="xs">
      <TextInput
        label={label ?? t('sell.catalogue.label')}
        description={description ?? t('sell.catalogue.hint')}
        placeholder={t('sell.catalogue.placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={active && search.isFetching ? <Loader size="xs" aria-hidden /> : null}
        value={text}
        autoFocus={autoFocus}
        type="search"
        autoComplete="off"
        // Only while the list exists: a reference to a missing id is invalid ARIA (axe).
        aria-controls={items.length > 0 ? listId : undefined}
        onChange={(e) => {
          setChosen(false);
          setText(e.currentTarget.value);
        }}
      />
      <div aria-live="polite" className={classes.status}>
        {active && search.isError && (
          <Alert color="red" variant="light" role="alert">
            {t('sell.catalogue.failed')}
          </Alert>
        )}
        {active && search.isSuccess && !search.isPlaceholderData && items.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('sell.catalogue.noResults')}
          </Text>
        )}
        {items.length > 0 && (
          <Text size="sm" c="dimmed" className={classes.srOnly}>
            {t('sell.catalogue.resultCount', { count: items.length })}
          </Text>
        )}
      </div>
      {items.length > 0 && (
        <CatalogueResultList
          id={listId}
          label={t('sell.catalogue.results')}
          items={items}
          onChoose={choose}
        />
      )}
    </Stack>
  );
}
