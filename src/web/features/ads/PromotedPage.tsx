import { Container, Grid, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconAd2 } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { useSearchParams } from '@web/lib/router';
import { AD_GENRES } from '@shared/schemas/ads';
import { formatDecimal } from '@shared/format';
import { AsyncSection, EmptyState } from '../../components/AsyncSection';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { usePromotedAds } from './api';
import { adErrorMessage } from './errors';
import { SponsoredAdCard } from './SponsoredCard';
import { PageNumbers } from '../../components/PageNumbers';
import { pageCount } from '../../lib/paging';
import { PageHeader } from '../../components/PageHeader';
import { SearchPanel } from '../../components/SearchPanel';
import { GenreSelect } from '../../components/GenreSelect';

const PARAMS = ['genre', 'keywords', 'minRating', 'page'] as const;
const RATINGS = ['', '1', '2', '3', '4', '4.5'];

/** /promoted: every running ad, 20 a page, filtered by genre, keywords and minimum rating. */
export default function PromotedPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('ads.promoted.pageTitle'));
  const [params, setParams] = useSearchParams();
  const api = new URLSearchParams();
  for (const k of PARAMS) {
    const v = params.get(k);
    if (v) api.set(k, v);
  }
  const promoted = usePromotedAds(api);
  const [keywords, setKeywords] = useState(params.get('keywords') ?? '');
  useEffect(() => setKeywords(params.get('keywords') ?? ''), [params]);

  const update = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!('page' in patch)) next.delete('page');
    setParams(next);
  };

  const data = promoted.data;
  const pages = data ? pageCount(data.total, data.pageSize) : 1;
  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <PageHeader title={t('ads.promoted.title')} subtitle={t('ads.promoted.subtitle')} />
        <SearchPanel
          label={t('ads.promoted.filters')}
          onSubmit={() => update({ keywords: keywords.trim() || null })}
        >
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <GenreSelect
              label={t('ads.form.genre')}
              value={params.get('genre') ?? ''}
              onChange={(e) => update({ genre: e.currentTarget.value })}
              genres={AD_GENRES}
              empty={t('ads.promoted.allGenres')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <TextInput
              label={t('ads.form.keywords')}
              description={t('ads.form.listHint')}
              value={keywords}
              onChange={(e) => setKeywords(e.currentTarget.value)}
              onBlur={() => update({ keywords: keywords.trim() || null })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <NativeSelect
              label={t('ads.promoted.minRating')}
              value={params.get('minRating') ?? ''}
              onChange={(e) => update({ minRating: e.currentTarget.value })}
              data={RATINGS.map((r) => ({
                value: r,
                label: r
                  ? t('ads.promoted.ratingAtLeast', {
                      count: Number(r),
                      rating: formatDecimal(Number(r), i18n.language),
                    })
                  : t('ads.promoted.anyRating'),
              }))}
            />
          </Grid.Col>
        </SearchPanel>
        <AsyncSection
          query={promoted}
          errorTitle={adErrorMessage(promoted.error, 'load', t)}
          isEmpty={(d) => d.total === 0}
          empty={
            <EmptyState
              icon={<IconAd2 size={48} stroke={1.2} aria-hidden />}
              py="xl"
              title={t('ads.promoted.emptyTitle')}
              text={t('ads.promoted.emptyText')}
            />
          }
        >
          {(d) => (
            <>
              {d.items.length > 0 && (
                <SimpleGrid
                  cols={{ base: 2, xs: 3, md: 4, lg: 5 }}
                  spacing={{ base: 'sm', sm: 'md' }}
                  component="ul"
                  aria-label={t('ads.promoted.listLabel')}
                  style={{ listStyle: 'none', padding: 0, margin: 0 }}
                >
                  {d.items.map((ad) => (
                    <li key={ad.id}>
                      <SponsoredAdCard ad={ad} placement="promoted" />
                    </li>
                  ))}
                </SimpleGrid>
              )}
              {pages > 1 && (
                <PageNumbers
                  pages={pages}
                  page={d.page}
                  onChange={(p) => {
                    update({ page: String(p) });
                    window.scrollTo({ top: 0 });
                  }}
                />
              )}
            </>
          )}
        </AsyncSection>
      </Stack>
    </Container>
  );
}
