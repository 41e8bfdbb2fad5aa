import {
  Button,
  Center,
  Container,
  Drawer,
  Grid,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense, useDeferredValue } from 'react';
import { IconAdjustments, IconBooks, IconSearchOff } from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { SORTS } from '@shared/marketplaceConstants';
import { BookCard } from '../listings';
import { WishlistHeart } from '../wishlist';
import { SaveSearchButton } from '../saved-searches';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useLibraryListings } from './api';
import { sliderBounds } from './priceRange';
import { useLibraryFilters, type FilterPatch } from './useLibraryFilters';
import { DebouncedTextFilter } from './DebouncedTextFilter';
import { CorrectionNotice } from './CorrectionNotice';
import { ErrorAlert } from '../../components/ErrorAlert';
import { BookGridSkeleton } from '../../components/Skeletons';
import { SponsoredCard } from '../ads';
import { PageNumbers } from '../../components/PageNumbers';
import { pageCount } from '../../lib/paging';

/** The sponsored card comes after this many results: below the first screen, so it shifts nothing. */
const SPONSORED_AFTER = 12;

// The filters (with the price slider, number inputs and the genre combobox: some 30 KB gzipped)
// are their own chunk: a phone shows them only in the drawer, fetched when the button is
// approached; a desktop, which shows them at once, starts the fetch with its first render.
const loadFilters = () => import('./LibraryFilters');
const LibraryFilters = lazy(() => loadFilters().then((m) => ({ default: m.LibraryFilters })));

const SORT_LABELS = {
  relevance: 'relevance',
  newest: 'newest',
  price_asc: 'priceAsc',
  price_desc: 'priceDesc',
} as const;
const TRADE_DEFAULTS: FilterPatch = { type: 'trade' };

/** /library and /trade (which starts with the trade filter chosen). */
export function LibraryScreen({ mode }: { mode: 'library' | 'trade' }) {
  const { t } = useTranslation();
  useDocumentTitle(mode === 'trade' ? t('library.tradeTitle') : t('library.pageTitle'));
  const filters = useLibraryFilters(mode === 'trade' ? TRADE_DEFAULTS : undefined);
  const { get, update, clear, apiParams, active, panelCount } = filters;
  const listings = useLibraryListings(apiParams);
  // Read at the first render (no server rendering here): a phone then never renders, and throws
  // away, the desktop filter column with its slider and inputs.
  const isDesktop = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const [drawerOpen, drawer] = useDisclosure(false);

  // The results (24 cards) render in a background pass that yields to the browser, not in one
  // long task the moment they arrive; the previous results stay until then.
  const data = useDeferredValue(listings.data);
  const page = data?.page ?? 1;
  const pages = data ? pageCount(data.total, data.pageSize) : 1;
  const bounds = sliderBounds(data?.priceBounds);

  const filterPanel = (
    <Suspense
      fallback={
        <Center py="md">
          <Loader size="sm" role="status" aria-label={t('common.loading')} />
        </Center>
      }
    >
      <LibraryFilters
        get={get}
        update={update}
        clear={clear}
        bounds={bounds}
        withQuery={isDesktop}
      />
    </Suspense>
  );

  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} fz={{ base: 28, sm: 34 }}>
              {mode === 'trade' ? t('library.tradeTitle') : t('library.title')}
            </Title>
            <Text c="dimmed">
              {mode === 'trade' ? t('library.tradeSubtitle') : t('library.subtitle')}
            </Text>
          </div>
          <Group gap="xs">
            <SaveSearchButton />
            {!isDesktop && (
              <Button
                variant="default"
                leftSection={<IconAdjustments size={16} aria-hidden />}
                onClick={drawer.open}
                onPointerEnter={loadFilters}
                onTouchStart={loadFilters}
                onFocus={loadFilters}
              >
                {panelCount > 0
                  ? t('library.filters.withCount', { count: panelCount })
                  : t('library.filters.title')}
              </Button>
            )}
            <NativeSelect
              label={t('library.sort.label')}
              value={get('sort') || 'newest'}
              onChange={(e) => update({ sort: e.currentTarget.value })}
              data={SORTS.map((s) => ({ value: s, label: t(`library.sort.${SORT_LABELS[s]}`) }))}
            />
          </Group>
        </Group>
        {!isDesktop && (
          // A phone: the words above the results, the other filters in the drawer.
          <form role="search" onSubmit={(e) => e.preventDefault()}>
            <DebouncedTextFilter
              icon
              label={t('library.filters.q')}
              placeholder={t('library.filters.qPlaceholder')}
              value={get('q')}
              onCommit={(q) => update({ q }, { replace: true })}
            />
          </form>
        )}
        <Grid gutter="lg">
          {isDesktop && (
            <Grid.Col span={3}>
              <Paper withBorder p="md" component="aside" aria-label={t('library.filters.title')}>
                {filterPanel}
              </Paper>
            </Grid.Col>
          )}
          <Grid.Col span={isDesktop ? 9 : 12}>
            <Stack gap="md" aria-busy={listings.isFetching}>
              {!data && !listings.isError && <BookGridSkeleton />}
              {listings.isError && (
                <ErrorAlert title={listings.error.message}>
                  <Button size="xs" variant="default" onClick={() => listings.refetch()}>
                    {t('common.tryAgain')}
                  </Button>
                </ErrorAlert>
              )}
              {data?.correctedQ && get('q') && (
                <CorrectionNotice
                  corrected={data.correctedQ}
                  typed={get('q')}
                  onSearchTyped={() => update({ q: get('q'), exact: '1' })}
                />
              )}
              {data && (
                <Text size="sm" c="dimmed" aria-live="polite" data-testid="library-count">
                  {t('library.resultCount', { count: data.total })}
                </Text>
              )}
              {data && data.total === 0 && !active && (
                <Stack align="center" ta="center" py="xl" gap="xs">
                  <IconBooks size={48} stroke={1.2} aria-hidden />
                  <Title order={2} fz="lg">
                    {t('library.empty.noBooksTitle')}
                  </Title>
                  <Text c="dimmed">{t('library.empty.noBooksText')}</Text>
                  <Button component={Link} to="/sell" mt="xs">
                    {t('library.empty.listBook')}
                  </Button>
                </Stack>
              )}
              {data && data.total === 0 && active && (
                <Stack align="center" ta="center" py="xl" gap="xs">
                  <IconSearchOff size={48} stroke={1.2} aria-hidden />
                  <Title order={2} fz="lg">
                    {t('library.empty.noResultsTitle')}
                  </Title>
                  <Text c="dimmed">{t('library.empty.noResultsText')}</Text>
                  <Button variant="default" onClick={clear} mt="xs">
                    {t('library.filters.clear')}
                  </Button>
                </Stack>
              )}
              {data && data.items.length > 0 && (
                <SimpleGrid
                  cols={{ base: 2, xs: 3, md: 3, lg: 4 }}
                  spacing={{ base: 'sm', sm: 'md' }}
                  component="ul"
                  aria-label={t('library.resultsLabel')}
                  style={{ listStyle: 'none', padding: 0, margin: 0 }}
                >
                  {data.items.map((l, i) => (
                    <Fragment key={l.id}>
                      <li>
                        <WishlistHeart
                          bookId={l.bookId}
                          title={l.title}
                          sellerId={l.seller.id}
                          variant="overlay"
                        />
                        <BookCard listing={l} priority={i < 2} />
                      </li>
                      {i === Math.min(SPONSORED_AFTER, data.items.length) - 1 && (
                        <SponsoredCard item placement="library" genre={get('genre')} q={get('q')} />
                      )}
                    </Fragment>
                  ))}
                </SimpleGrid>
              )}
              {data && pages > 1 && (
                <PageNumbers
                  mt="md"
                  pages={pages}
                  page={page}
                  onChange={(p) => {
                    update({ page: String(p) });
                    window.scrollTo({ top: 0 });
                  }}
                  siblings={isDesktop ? 1 : 0}
                />
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
      <Drawer
        opened={drawerOpen && !isDesktop}
        onClose={drawer.close}
        title={t('library.filters.title')}
        position="left"
        size="sm"
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {filterPanel}
        {/* The count of the filters now on, from the server: the drawer closes on the results. */}
        <Button
          fullWidth
          mt="lg"
          onClick={drawer.close}
          loading={listings.isFetching}
          data-testid="show-results"
        >
          {t('library.filters.showResults', { count: listings.data?.total ?? 0 })}
        </Button>
      </Drawer>
    </Container>
  );
}

export default function LibraryPage() {
  return <LibraryScreen mode="library" />;
}
