import { Button, NativeSelect, Stack } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { LISTING_TYPES, MARKET_GENRES, STATUS_FILTERS } from '@shared/marketplaceConstants';
import { PriceRangeFilter } from './PriceRangeFilter';
import type { FilterKey, FilterPatch } from './useLibraryFilters';
import { DebouncedTextFilter } from './DebouncedTextFilter';

export { DebouncedTextFilter, TEXT_DEBOUNCE_MS } from './DebouncedTextFilter';

export function LibraryFilters({
  get,
  update,
  clear,
  bounds,
  withQuery = true,
}: {
  /** False on a phone, which shows the search box above the results instead. */
  withQuery?: boolean;
  get: (key: FilterKey) => string;
  update: (patch: FilterPatch, opts?: { replace?: boolean }) => void;
  clear: () => void;
  bounds: [number, number];
}) {
  const { t } = useTranslation();
  const num = (key: FilterKey) => {
    const v = get(key);
    return v !== '' && Number.isFinite(Number(v)) ? Number(v) : null;
  };
  const type = get('type');
  return (
    <Stack
      gap="md"
      component="form"
      role="search"
      aria-label={t('library.filters.title')}
      onSubmit={(e) => e.preventDefault()}
    >
      {withQuery && (
        <DebouncedTextFilter
          icon
          label={t('library.filters.q')}
          placeholder={t('library.filters.qPlaceholder')}
          value={get('q')}
          onCommit={(q) => update({ q }, { replace: true })}
        />
      )}
      <DebouncedTextFilter
        label={t('library.filters.author')}
        value={get('author')}
        onCommit={(author) => update({ author }, { replace: true })}
      />
      <NativeSelect
        label={t('library.filters.genre')}
        value={get('genre')}
        onChange={(e) => update({ genre: e.currentTarget.value })}
        data={[
          { value: '', label: t('library.filters.allGenres') },
          ...MARKET_GENRES.map((g) => ({ value: g, label: t(`genres.${g}`) })),
        ]}
      />
      <NativeSelect
        label={t('library.filters.type')}
        value={type === 'all' ? '' : type}
        onChange={(e) => update({ type: e.currentTarget.value })}
        data={[
          { value: '', label: t('library.filters.allTypes') },
          ...LISTING_TYPES.map((v) => ({ value: v, label: t(`listingTypes.${v}`) })),
        ]}
      />
      <NativeSelect
        label={t('library.filters.status')}
        value={get('status') || 'available'}
        onChange={(e) => update({ status: e.currentTarget.value })}
        data={STATUS_FILTERS.map((s) => ({
          value: s,
          label: s === 'all' ? t('library.filters.allStatuses') : t(`statuses.${s}`),
        }))}
      />
      <PriceRangeFilter
        bounds={bounds}
        minPrice={num('minPrice')}
        maxPrice={num('maxPrice')}
        currency="EUR"
        onCommit={(range) =>
          update(
            range
              ? { minPrice: String(range[0]), maxPrice: String(range[1]) }
              : { minPrice: null, maxPrice: null },
          )
        }
      />
      <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={clear}>
        {t('library.filters.clear')}
      </Button>
    </Stack>
  );
}
