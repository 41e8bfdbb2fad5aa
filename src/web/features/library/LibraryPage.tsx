import {
  Button,
  Center,
  Container,
  Grid,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { lazy, startTransition, Suspense, useDeferredValue, useEffect, useState } from 'react';
import { IconAdjustments, IconBooks } from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import { SORTS } from '@shared/marketplaceConstants';
import { BookCard } from '../listings';
import { WishlistHeart } from '../wishlist';
import { WatchButton } from '../watching';
import { SaveSearchButton } from '../saved-searches';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSession } from '@web/lib/session';
import { useMoneyFormatWarmUp, whenIdle } from './idle';
import { useLibraryListings } from './api';
import { sliderBounds } from './priceRange';
import { defaultSort, hasWords, useLibraryFilters, type FilterPatch } from './useLibraryFilters';
import { SearchBox } from './SearchBox';
import { CorrectionNotice } from './CorrectionNotice';
import { GenreNotice } from './GenreNotice';
import { AllCopiesLink } from './AllCopiesLink';
import { NoResults } from './NoResults';
import { ErrorAlert } from '../../components/ErrorAlert';
import { BookGridSkeleton } from '../../components/Skeletons';
import { SponsoredCard } from '../ads';
import { PageNumbers } from '../../components/PageNumbers';
import grid from '../../components/BookGrid.module.css';
import { pageCount } from '../../lib/paging';

/** The sponsored card comes after this many results: below the first screen, so it shifts nothing. */
const SPONSORED_AFTER = 12;

// The filters (with the price slider, number inputs and the genre combobox: some 30 KB gzipped)
// are their own chunk: a phone shows them only in the drawer, fetched when the button is
// approached; a desktop, which shows them at once, starts the fetch with its first render.
const loadFilters = () => import('./LibraryFilters');
const LibraryFilters = lazy(() => loadFilters().then((m) => ({ default: m.LibraryFilters })));
// A phone's drawer (Mantine's Drawer, scroll lock and focus trap) comes with the filters.
const loadDrawer = () => import('./FiltersDrawer');
const FiltersDrawer = lazy(() => loadDrawer().then((m) => ({ default: m.FiltersDrawer })));
const loadPhoneFilters = () => Promise.all([loadFilters(), loadDrawer()]);

/**
 * The cards of a first screen (two columns of a phone, four rows): the first render of the
 * results commits these, the rest follow as many at a time in background passes, one per frame,
 * so that the main thread is never held long by 24 cards at once (issue 25: the library's
 * blocking time; a commit of 16 cards was one of its longest tasks).
 */
const FIRST_CARDS = 8;

const SORT_LABELS = {
  relevance: 'relevance',
  newest: 'newest',
  price_asc: 'priceAsc',
  price_desc: 'priceDesc',
} as const;
const TRADE_DEFAULTS: FilterPatch = { type: 'trade' };

/** /library and /trade (which starts with the trade filter chosen). */
export function LibraryScreen({ mode }: { mode: 'library' | 'trade' }) {
  const { t, i18n } = useTranslation();
  useDocumentTitle(mode === 'trade' ? t('library.tradeTitle') : t('library.pageTitle'));
  const signedIn = useSession().status === 'signed-in';
  const filters = useLibraryFilters(mode === 'trade' ? TRADE_DEFAULTS : undefined);
  const { get, update, clear, apiParams, active, panelCount } = filters;
  const listings = useLibraryListings(apiParams);
  // Read at the first render (no server rendering here): a phone then never renders, and throws
  // away, the desktop filter column with its slider and inputs.
  const isDesktop = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  const [drawerOpen, drawer] = useDisclosure(false);
  // Mounted once first opened, then kept (its closing transition, the filters' state).
  const [drawerUsed, setDrawerUsed] = useState(false);
  const openDrawer = () => {
    setDrawerUsed(true);
    drawer.open();
  };

  useMoneyFormatWarmUp(i18n.language);

  // The results (24 cards) render in background passes that yield to the browser, not in one
  // long task the moment they arrive; the previous results stay until then.
  const data = useDeferredValue(listings.data);
  // How many cards of the first answer are drawn; once all are, every later answer is drawn whole.
  const [drawn, setDrawn] = useState(FIRST_CARDS);
  const allCards = data !== undefined && drawn >= data.items.length;
  // One pass per slice: the effect runs again after each slice is drawn (`drawn` is read here,
  // so it is a dependency), until every card of the page is in. Issue 33: with the count read
  // through an updater the effect ran once, and the page stopped at 16 cards without its links.
  useEffect(() => {
    if (!data || allCards) return;
    const next = drawn + FIRST_CARDS;
    // After the cards so far are painted: a frame, then a transition (interruptible, in slices).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setDrawn(next)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [data, allCards, drawn]);
  const [everyCard, setEveryCard] = useState(false);
  useEffect(() => {
    if (allCards) setEveryCard(true);
  }, [allCards]);
  const cards = data ? (everyCard ? data.items : data.items.slice(0, drawn)) : [];
  // The sponsored card (its own chunk, with a menu and its positioning) sits below the first
  // screen: it is fetched and drawn once the cards are in and the browser is idle.
  const [sponsorShown, setSponsorShown] = useState(false);
  useEffect(() => {
    if (everyCard && !sponsorShown) return whenIdle(() => setSponsorShown(true), 2000);
  }, [everyCard, sponsorShown]);
  const page = data?.page ?? 1;
  // The total may be up to 10 s older than the page of items (the server keeps counts that
  // long): never fewer than the books shown, so a new listing is never "0 found" beside itself.
  const total = data ? Math.max(data.total, (page - 1) * data.pageSize + data.items.length) : 0;
  const pages = data ? pageCount(total, data.pageSize) : 1;
  const bounds = sliderBounds(data?.priceBounds);
  // Relevance orders words; without words it means nothing (newest), so it is not offered.
  const words = hasWords(get('q'));
  const sorts = words ? SORTS : SORTS.filter((s) => s !== 'relevance');
  const chosen = get('sort');
  const sort = chosen && (words || chosen !== 'relevance') ? chosen : defaultSort(get('q'));

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
        facets={data?.facets}
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
            {/* Members only: a visitor never downloads it (with the forms' schemas). */}
            {signedIn && <SaveSearchButton />}
            {!isDesktop && (
              <Button
                variant="default"
                leftSection={<IconAdjustments size={16} aria-hidden />}
                onClick={openDrawer}
                onPointerEnter={loadPhoneFilters}
                onTouchStart={loadPhoneFilters}
                onFocus={loadPhoneFilters}
              >
                {panelCount > 0
                  ? t('library.filters.withCount', { count: panelCount })
                  : t('library.filters.title')}
              </Button>
            )}
            <NativeSelect
              label={t('library.sort.label')}
              value={sort}
              onChange={(e) => update({ sort: e.currentTarget.value })}
              data={sorts.map((s) => ({ value: s, label: t(`library.sort.${SORT_LABELS[s]}`) }))}
            />
          </Group>
        </Group>
        {!isDesktop && (
          // A phone: the words above the results, the other filters in the drawer.
          <form role="search" onSubmit={(e) => e.preventDefault()}>
            <SearchBox value={get('q')} onCommit={(q) => update({ q }, { replace: true })} />
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
              {data?.genres && !get('genre') && (
                <GenreNotice genres={data.genres} onOnly={(genre) => update({ genre })} />
              )}
              {data && (
                <Text size="sm" c="dimmed" aria-live="polite" data-testid="library-count">
                  {data.totalCapped
                    ? t('library.resultCountCapped', { count: total })
                    : t('library.resultCount', { count: total })}
                </Text>
              )}
              {data && total === 0 && !active && (
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
              {data && total === 0 && active && (
                <NoResults
                  words={get('q')}
                  filters={panelCount > 0}
                  exact={get('exact') === '1'}
                  onSearch={(q) => update({ q })}
                  onCorrect={() => update({ exact: null })}
                  onClear={clear}
                />
              )}
              {data && data.items.length > 0 && (
                <ul className={grid.grid} aria-label={t('library.resultsLabel')}>
                  {cards.map((l, i) => (
                    <Fragment key={l.id}>
                      <li>
                        <WishlistHeart
                          bookId={l.bookId}
                          title={l.title}
                          sellerId={l.seller.id}
                          variant="overlay"
                        />
                        <WatchButton
                          listingId={l.id}
                          title={l.title}
                          sellerId={l.seller.id}
                          variant="overlay"
                        />
                        <BookCard listing={l} priority={i < 2} />
                        <AllCopiesLink workId={l.workId} copies={data.workCopies} />
                      </li>
                      {sponsorShown && i === Math.min(SPONSORED_AFTER, data.items.length) - 1 && (
                        <SponsoredCard item placement="library" genre={get('genre')} q={get('q')} />
                      )}
                    </Fragment>
                  ))}
                </ul>
              )}
              {/* Below the cards: drawn with the last of them. */}
              {data && everyCard && pages > 1 && (
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
      {drawerUsed && !isDesktop && (
        <Suspense fallback={null}>
          <FiltersDrawer
            opened={drawerOpen}
            onClose={drawer.close}
            total={total}
            fetching={listings.isFetching}
          >
            {filterPanel}
          </FiltersDrawer>
        </Suspense>
      )}
    </Container>
  );
}

export default function LibraryPage() {
  return <LibraryScreen mode="library" />;
}
