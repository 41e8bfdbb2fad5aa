import { Badge } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import type { ListingStatus, ListingType } from '@shared/marketplace';

/**
 * Light badges with text dark enough for WCAG AA on their tinted background (Mantine's default
 * light-variant text is below 4.5:1 for several colours at badge size).
 */
export const TONES = {
  blue: '#1864ab',
  teal: '#06694b',
  grape: '#862e9c',
  green: '#1e6b30',
  yellow: '#8a5a00',
  gray: '#495057',
} as const;
export type Tone = keyof typeof TONES;

export const TYPE_TONES: Record<ListingType, Tone> = { sell: 'blue', trade: 'teal', both: 'grape' };
const STATUS_TONES: Record<ListingStatus, Tone> = {
  available: 'green',
  reserved: 'yellow',
  sold: 'gray',
  traded: 'gray',
  unavailable: 'gray',
};

function ToneBadge({ tone, children }: { tone: Tone; children: React.ReactNode }) {
  return (
    <Badge color={tone} variant="light" c={TONES[tone]}>
      {children}
    </Badge>
  );
}

export function TypeBadge({ type }: { type: ListingType }) {
  const { t } = useTranslation();
  return <ToneBadge tone={TYPE_TONES[type]}>{t(`listingTypes.${type}`)}</ToneBadge>;
}

export function StatusBadge({ status }: { status: ListingStatus }) {
  const { t } = useTranslation();
  return <ToneBadge tone={STATUS_TONES[status]}>{t(`statuses.${status}`)}</ToneBadge>;
}

/** My books: 'Available' for active listings, 'Inactive' otherwise. */
export function ActiveBadge({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <ToneBadge tone={active ? 'green' : 'gray'}>
      {active ? t('myBooks.available') : t('myBooks.inactive')}
    </ToneBadge>
  );
}
