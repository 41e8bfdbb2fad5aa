import { Button, Card, Group, Stack, Text, Title, type ButtonProps } from '@mantine/core';
import { IconCheck, IconEdit, IconEye, IconEyeOff, IconTrash } from '@tabler/icons-react';
import { InDealNote } from './InDealNote';
import { useId, type ComponentType, type ReactNode } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import type { OwnListingCard } from '@shared/marketplace';
import { BookCover } from '../../components/BookCover';
import { ActiveBadge, StatusBadge, TypeBadge } from './badges';
import { formatMoney } from '@shared/money';

export type MyBookAction = 'edit' | 'toggle' | 'complete' | 'delete';

/**
 * One of the owner's listings with the actions it allows: a book in an open deal changes only
 * through the deal (decision 0088), so it says so instead; a sold or traded book is never put
 * back on sale, nor marked again.
 */
export function MyBookCard({
  listing,
  busy,
  onAction,
}: {
  listing: OwnListingCard;
  busy: boolean;
  onAction: (action: MyBookAction, listing: OwnListingCard) => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const price = formatMoney(listing.price, listing.currency, i18n.language);
  const finished = listing.status === 'sold' || listing.status === 'traded';
  return (
    <Card withBorder padding="md" component="article" aria-labelledby={titleId}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Link to={`/library/book/${listing.id}`} tabIndex={-1} aria-hidden>
          <BookCover
            url={listing.coverUrl}
            height={132}
            title={listing.title}
            author={listing.author}
          />
        </Link>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Title order={3} fz="md" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            <Link to={`/library/book/${listing.id}`} style={{ color: 'inherit' }}>
              {listing.title}
            </Link>
          </Title>
          <Text size="sm" c="dimmed">
            {listing.author}
          </Text>
          <Group gap={6}>
            <TypeBadge type={listing.listingType} />
            <ActiveBadge active={listing.isActive} />
            {listing.status !== 'available' && listing.status !== 'unavailable' && (
              <StatusBadge status={listing.status} />
            )}
          </Group>
          {price && <Text fw={700}>{price}</Text>}
          {listing.description && (
            <Text size="sm" lineClamp={3}>
              {listing.description}
            </Text>
          )}
        </Stack>
      </Group>
      {listing.inOpenDeal ? (
        <InDealNote mt="md" />
      ) : (
        <Group gap="xs" mt="md">
          <CardAction Icon={IconEdit} onClick={() => onAction('edit', listing)}>
            {t('myBooks.actions.edit')}
          </CardAction>
          {!finished && (
            <CardAction
              Icon={listing.isActive ? IconEyeOff : IconEye}
              loading={busy}
              onClick={() => onAction('toggle', listing)}
            >
              {listing.isActive ? t('myBooks.actions.deactivate') : t('myBooks.actions.activate')}
            </CardAction>
          )}
          {!finished && (
            <CardAction Icon={IconCheck} onClick={() => onAction('complete', listing)}>
              {t('myBooks.actions.complete')}
            </CardAction>
          )}
          <CardAction
            Icon={IconTrash}
            color="red"
            variant="light"
            c="#b02525"
            onClick={() => onAction('delete', listing)}
          >
            {t('myBooks.actions.delete')}
          </CardAction>
        </Group>
      )}
    </Card>
  );
}

/** A small button of the card's action row, its icon before the text. */
function CardAction({
  Icon,
  variant = 'default',
  ...props
}: ButtonProps & {
  Icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button size="xs" variant={variant} leftSection={<Icon size={14} aria-hidden />} {...props} />
  );
}
