import { Button, Container, Grid, Stack, Text, Title } from '@mantine/core';
import { IconBooks } from '@tabler/icons-react';
import { Fragment, useMemo } from 'react';
import { useSearchParams } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { MARKET_GENRES } from '@shared/marketplaceConstants';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useShelves } from './api';
import { DebouncedTextFilter } from './DebouncedTextFilter';
import { PriceRangeFilter } from './PriceRangeFilter';
import { priceParams } from './priceRange';
import { Shelf } from './Shelf';
import { shelfTitle } from './shelfTitle';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ShelvesSkeleton } from '../../components/Skeletons';
import { SponsoredShelf } from '../ads';
import { PageHeader } from '../../components/PageHeader';
import { SearchPanel } from '../../components/SearchPanel';
import { GenreSelect } from '../../components/GenreSelect';

const SHELF_PARAMS = ['q', 'genre', 'minPrice', 'maxPrice'] as const;

/** /buy: the marketplace shelves (best deals, just listed, popular, premium, one per genre). */
export default function BuyPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('shelves.pageTitle'));
  const [params, setParams] = useSearchParams();
  const apiParams = useMemo(() => {
    const out = new URLSearchParams();
    for (const k of SHELF_PARAMS) {
      const v = params.get(k);
      if (v) out.set(k, v);
    }
    return out;
  }, [params]);
  const shelves = useShelves(apiParams);

  const update = (patch: Record<string, string | null>, replace = false) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        return next;
      },
      { replace, preventScrollReset: true },
    );
  const num = (k: string) => {
    const v = params.get(k);
    return v && Number.isFinite(Number(v)) ? Number(v) : null;
  };
  const visible = shelves.data?.shelves.filter((s) => s.items.length > 0) ?? [];
  const filtered = SHELF_PARAMS.some((k) => params.get(k));

  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <PageHeader title={t('shelves.title')} subtitle={t('shelves.subtitle')} />
        <SearchPanel label={t('shelves.filtersLabel')}>
          <Grid.Col span={{ base: 12, sm: 6, md: 4 }}>
            <DebouncedTextFilter
              icon
              label={t('library.filters.q')}
              placeholder={t('library.filters.qPlaceholder')}
              value={params.get('q') ?? ''}
              onCommit={(q) => update({ q }, true)}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
            <GenreSelect
              label={t('library.filters.genre')}
              value={params.get('genre') ?? ''}
              onChange={(e) => update({ genre: e.currentTarget.value })}
              genres={MARKET_GENRES}
              empty={t('library.filters.allGenres')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <PriceRangeFilter
              bounds={[0, 1000]}
              minPrice={num('minPrice')}
              maxPrice={num('maxPrice')}
              currency="EUR"
              onCommit={(range) => update(priceParams(range))}
            />
          </Grid.Col>
        </SearchPanel>
        {shelves.isPending && <ShelvesSkeleton />}
        {shelves.isError && (
          <ErrorAlert title={shelves.error.message}>
            <Button size="xs" variant="default" onClick={() => shelves.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </ErrorAlert>
        )}
        {shelves.isSuccess && visible.length === 0 && (
          <Stack align="center" ta="center" py="xl" gap="xs">
            <IconBooks size={48} stroke={1.2} aria-hidden />
            <Title order={2} fz="lg">
              {filtered ? t('library.empty.noResultsTitle') : t('library.empty.noBooksTitle')}
            </Title>
            <Text c="dimmed">
              {filtered ? t('library.empty.noResultsText') : t('library.empty.noBooksText')}
            </Text>
          </Stack>
        )}
        {visible.map((s, i) => (
          <Fragment key={s.key}>
            <Shelf title={shelfTitle(t, s.key)} items={s.items} priority={i === 0} />
            {/* After the first shelf: below the first screen, so loading it shifts nothing. */}
            {i === 0 && <SponsoredShelf genre={params.get('genre')} q={params.get('q')} />}
          </Fragment>
        ))}
      </Stack>
    </Container>
  );
}
