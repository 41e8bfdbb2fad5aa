import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconEdit, IconEye, IconEyeOff, IconTrash } from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import type { ListingCard } from '@shared/marketplace';
import { BookCover } from '../../components/BookCover';
import { ActiveBadge, StatusBadge, TypeBadge } from './badges';
import { formatPrice } from '../../lib/price';

export type MyBookAction = 'edit' | 'toggle' | 'complete' | 'delete';

/** One of the owner's listings with its actions. */
export function MyBookCard({
  listing,
  busy,
  onAction,
}: {
  listing: ListingCard;
  busy: boolean;
  onAction: (action: MyBookAction, listing: ListingCard) => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const price = formatPrice(listing.price, listing.currency, i18n.language);
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
      <Group gap="xs" mt="md">
        <Button
          size="xs"
          variant="default"
          leftSection={<IconEdit size={14} aria-hidden />}
          onClick={() => onAction('edit', listing)}
        >
          {t('myBooks.actions.edit')}
        </Button>
        <Button
          size="xs"
          variant="default"
          loading={busy}
          leftSection={
            listing.isActive ? (
              <IconEyeOff size={14} aria-hidden />
            ) : (
              <IconEye size={14} aria-hidden />
            )
          }
          onClick={() => onAction('toggle', listing)}
        >
          {listing.isActive ? t('myBooks.actions.deactivate') : t('myBooks.actions.activate')}
        </Button>
        {!finished && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconCheck size={14} aria-hidden />}
            onClick={() => onAction('complete', listing)}
          >
            {t('myBooks.actions.complete')}
          </Button>
        )}
        <Button
          size="xs"
          color="red"
          variant="light"
          c="#b02525"
          leftSection={<IconTrash size={14} aria-hidden />}
          onClick={() => onAction('delete', listing)}
        >
          {t('myBooks.actions.delete')}
        </Button>
      </Group>
    </Card>
  );
}
