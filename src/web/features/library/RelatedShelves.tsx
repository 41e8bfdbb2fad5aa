import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@web/lib/reactI18n';
import type { RelatedListings } from '@shared/marketplace';
import { api } from '../../lib/api';
import { listingKeys } from '../listings';
import { Shelf } from './Shelf';
import { useIdle } from './idle';

/**
 * The book page's "other copies of this book" and "more from this seller": small shelves of
 * available listings (each card opens its book page); a list with nothing in it is not shown.
 * Asked for at once, drawn once the browser is idle: they sit below the book, and their cards
 * (generated covers) are not to share a task with the book's own first render.
 */
export function RelatedShelves({ listingId }: { listingId: string }) {
  const { t } = useTranslation();
  const related = useQuery({
    queryKey: [...listingKeys.detail(listingId), 'related'],
    queryFn: ({ signal }) =>
      api<RelatedListings>(`/api/listings/${encodeURIComponent(listingId)}/related`, { signal }),
  });
  const idle = useIdle();
  if (!related.data || !idle) return null;
  const { otherCopies, moreFromSeller } = related.data;
  if (!otherCopies.length && !moreFromSeller.length) return null;
  return (
    <Stack gap="lg" mt="xl">
      {otherCopies.length > 0 && <Shelf title={t('bookDetail.otherCopies')} items={otherCopies} />}
      {moreFromSeller.length > 0 && (
        <Shelf title={t('bookDetail.moreFromSeller')} items={moreFromSeller} />
      )}
    </Stack>
  );
}
