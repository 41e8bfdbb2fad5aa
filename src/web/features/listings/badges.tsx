import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ListingStatus, ListingType } from '@shared/marketplace';

const TYPE_COLORS: Record<ListingType, string> = { sell: 'blue', trade: 'teal', both: 'grape' };
const STATUS_COLORS: Record<ListingStatus, string> = {
  available: 'green',
  reserved: 'yellow',
  sold: 'gray',
  traded: 'gray',
  unavailable: 'gray',
};

export function TypeBadge({ type }: { type: ListingType }) {
  const { t } = useTranslation();
  return (
    <Badge color={TYPE_COLORS[type]} variant="light" autoContrast>
      {t(`listingTypes.${type}`)}
    </Badge>
  );
}

export function StatusBadge({ status }: { status: ListingStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" autoContrast>
      {t(`statuses.${status}`)}
    </Badge>
  );
}

/** My books: 'Available' for active listings, 'Inactive' otherwise (spec 2, my books). */
export function ActiveBadge({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={active ? 'green' : 'gray'} variant="light" autoContrast>
      {active ? t('myBooks.available') : t('myBooks.inactive')}
    </Badge>
  );
}
