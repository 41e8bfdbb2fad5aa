import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import type { RelatedListings } from '@shared/marketplace';
import { formatMoney } from '@shared/money';
import { api } from '../../lib/api';
import { listingKeys } from '../listings';

/**
 * "3 other copies from 6,00 €": the other available copies of the listing's work (any edition or
 * language), the cheapest delivered, one click from its page (/books/:workId). Nothing while
 * there are none. Shares the related shelves' request.
 */
export function WorkCopiesLink({ listingId }: { listingId: string }) {
  const { t, i18n } = useTranslation();
  const related = useQuery({
    queryKey: [...listingKeys.detail(listingId), 'related'],
    queryFn: ({ signal }) =>
      api<RelatedListings>(`/api/listings/${encodeURIComponent(listingId)}/related`, { signal }),
  });
  const work = related.data?.work;
  if (!work || work.otherCopies === 0) return null;
  const price =
    work.from !== null ? formatMoney(work.from, work.currency ?? 'EUR', i18n.language) : null;
  return (
    <Anchor component={Link} to={`/books/${work.id}`} fw={600} data-testid="work-copies-link">
      {price
        ? t('works.otherCopies', { count: work.otherCopies, price })
        : t('works.otherCopiesNoPrice', { count: work.otherCopies })}
    </Anchor>
  );
}
