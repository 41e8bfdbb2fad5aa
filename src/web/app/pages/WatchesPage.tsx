import { SimpleGrid, Stack, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { WATCHES_PAGE_SIZE } from '@shared/schemas/watching';
import { AsyncSection, EmptyState } from '../../components/AsyncSection';
import { PageNumbers } from '../../components/PageNumbers';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { pageCount } from '../../lib/paging';
import { BookCard } from '../../features/listings';
import { useWatches, WatchButton } from '../../features/watching';
import { PageHeader } from '../../components/PageHeader';

/**
 * /profile/:userId/watching — the listings the member watches, newest watch first, paged.
 * Composed in app/: it shows the listings feature's cards, and a page of the watching feature
 * doing so closed a circle (listings' My books shows deals' bundle rule; deals ask watching
 * whether a seller is away).
 */
export default function WatchesPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('watching.page.title'));
  const [page, setPage] = useState(1);
  const watches = useWatches(page);
  const pages = watches.data ? pageCount(watches.data.total, WATCHES_PAGE_SIZE) : 1;
  return (
    <Stack gap="lg">
      <PageHeader compact title={t('watching.page.title')} subtitle={t('watching.page.subtitle')} />
      <AsyncSection
        query={watches}
        errorTitle={t('watching.page.error')}
        isEmpty={(d) => d.total === 0}
        empty={
          <EmptyState
            icon={<IconEye size={48} stroke={1.2} aria-hidden />}
            title={t('watching.page.title')}
            text={t('watching.page.empty')}
          />
        }
      >
        {(d) => (
          <>
            <SimpleGrid
              cols={{ base: 2, xs: 3, md: 3, lg: 4 }}
              spacing={{ base: 'sm', sm: 'md' }}
              component="ul"
              aria-label={t('watching.page.title')}
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {d.items.map(({ listing, watchedAt }) => (
                <li key={listing.id}>
                  <WatchButton
                    listingId={listing.id}
                    title={listing.title}
                    sellerId={listing.seller.id}
                    variant="overlay"
                  />
                  <BookCard listing={listing} />
                  <Text size="xs" c="dimmed" mt={4}>
                    {t('watching.page.watchedOn', {
                      date: new Date(watchedAt).toLocaleDateString(i18n.language),
                    })}
                  </Text>
                </li>
              ))}
            </SimpleGrid>
            {pages > 1 && (
              <PageNumbers mt="md" pages={pages} page={page} onChange={setPage} siblings={0} />
            )}
          </>
        )}
      </AsyncSection>
    </Stack>
  );
}
