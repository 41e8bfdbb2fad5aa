import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  CONDITIONS,
  LISTING_TYPES,
  MARKET_GENRES,
  STATUS_FILTERS,
} from '@shared/marketplaceConstants';
import type { Facets } from '@shared/marketplaceAnswers';
import { formatMoney } from '@shared/money';
import { PriceRangeFilter } from './PriceRangeFilter';
import { priceParams } from './priceRange';
import type { FilterKey, FilterPatch } from './useLibraryFilters';
import { DebouncedTextFilter } from './DebouncedTextFilter';
import { SearchBox } from './SearchBox';
import { bandRange, isCapped } from './facets';

export { DebouncedTextFilter, TEXT_DEBOUNCE_MS } from './DebouncedTextFilter';

export function LibraryFilters({
  get,
  update,
  clear,
  bounds,
  facets,
  withQuery = true,
}: {
  /** False on a phone, which shows the search box above the results instead. */
  withQuery?: boolean;
  get: (key: FilterKey) => string;
  update: (patch: FilterPatch, opts?: { replace?: boolean }) => void;
  clear: () => void;
  bounds: [number, number];
  /** The counts of the current answer (facets=1); without them the options show no count. */
  facets?: Facets;
}) {
  const { t, i18n } = useTranslation();
  const num = (key: FilterKey) => {
    const v = get(key);
    return v !== '' && Number.isFinite(Number(v)) ? Number(v) : null;
  };
  /** "Fantasy (12)", or "(more than 1000)" when the count stopped at the cap. */
  const counted = (
    label: string,
    list: { value: string; count: number }[] | undefined,
    value: string,
  ) => {
    if (!facets || !list) return label;
    const count = list.find((f) => f.value === value)?.count ?? 0;
    return isCapped(count, facets.capped)
      ? t('library.filters.facetCapped', { label, count })
      : t('library.filters.facet', { label, count });
  };
  const type = get('type');
  const money = (amount: number) => formatMoney(amount, 'EUR', i18n.language, { whole: true });
  const minPrice = num('minPrice');
  const maxPrice = num('maxPrice');
  return (
    <Stack
      gap="md"
      component="form"
      role="search"
      aria-label={t('library.filters.title')}
      onSubmit={(e) => e.preventDefault()}
    >
      {withQuery && (
        <SearchBox value={get('q')} onCommit={(q) => update({ q }, { replace: true })} />
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
          ...MARKET_GENRES.map((g) => ({
            value: g,
            label: counted(t(`genres.${g}`), facets?.genres, g),
          })),
        ]}
      />
      <NativeSelect
        label={t('library.filters.type')}
        value={type === 'all' ? '' : type}
        onChange={(e) => update({ type: e.currentTarget.value })}
        data={[
          { value: '', label: t('library.filters.allTypes') },
          ...LISTING_TYPES.map((v) => ({
            value: v,
            label: counted(t(`listingTypes.${v}`), facets?.types, v),
          })),
        ]}
      />
      <NativeSelect
        label={t('library.filters.condition')}
        value={get('condition')}
        onChange={(e) => update({ condition: e.currentTarget.value })}
        data={[
          { value: '', label: t('library.filters.allConditions') },
          ...CONDITIONS.map((c) => ({
            value: c,
            label: counted(t(`conditions.${c}`), facets?.conditions, c),
          })),
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
      {facets && facets.priceBands.length > 0 && (
        <div role="group" aria-labelledby="library-price-bands">
          <Text size="sm" fw={500} id="library-price-bands" mb={4}>
            {t('library.filters.priceBands')}
          </Text>
          <Group gap={6}>
            {facets.priceBands.map((band) => {
              const [low, high] = bandRange(band);
              const on = minPrice === low && maxPrice === high;
              const label =
                band.max === null
                  ? t('library.filters.priceBandFrom', { min: money(band.min) })
                  : t('library.filters.priceBand', { min: money(band.min), max: money(band.max) });
              return (
                <Button
                  key={band.min}
                  size="compact-sm"
                  variant={on ? 'filled' : 'default'}
                  aria-pressed={on}
                  disabled={band.count === 0 && !on}
                  onClick={() =>
                    update(
                      on
                        ? { minPrice: null, maxPrice: null }
                        : { minPrice: String(low), maxPrice: high === null ? null : String(high) },
                    )
                  }
                >
                  {counted(label, [{ value: 'band', count: band.count }], 'band')}
                </Button>
              );
            })}
          </Group>
        </div>
      )}
      <PriceRangeFilter
        bounds={bounds}
        minPrice={minPrice}
        maxPrice={maxPrice}
        currency="EUR"
        onCommit={(range) => update(priceParams(range))}
      />
      <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={clear}>
        {t('library.filters.clear')}
      </Button>
    </Stack>
  );
}
