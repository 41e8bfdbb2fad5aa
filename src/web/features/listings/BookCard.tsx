import { Card, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ListingCard } from '@shared/marketplace';
import { BookCover } from './BookCover';
import { TypeBadge } from './badges';
import { formatPrice } from './format';
import classes from './BookCard.module.css';

/**
 * A listing in a grid or on a shelf; the whole card is one link to the detail page. `priority`
 * for the cards of the first row (see BookCover), `coverSizes` when the card is not a grid cell.
 */
export function BookCard({
  listing,
  width,
  priority,
  coverSizes,
}: {
  listing: ListingCard;
  width?: number;
  priority?: boolean;
  coverSizes?: string;
}) {
  const { t, i18n } = useTranslation();
  const price = formatPrice(listing.price, listing.currency, i18n.language);
  return (
    <Card
      component={Link}
      to={`/library/book/${listing.id}`}
      withBorder
      padding="sm"
      className={classes.card}
      w={width}
      data-testid="book-card"
    >
      <Card.Section>
        <BookCover
          url={listing.coverUrl}
          title={listing.title}
          author={listing.author}
          priority={priority}
          sizes={coverSizes}
        />
      </Card.Section>
      <Stack gap={4} mt="sm">
        <Text fw={600} lineClamp={2} className={classes.title}>
          {listing.title}
        </Text>
        <Text size="sm" c="dimmed" lineClamp={1}>
          {listing.author}
        </Text>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <TypeBadge type={listing.listingType} />
          {price && (
            <Text fw={700} size="sm">
              {price}
            </Text>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t(`conditions.${listing.condition}`)}
        </Text>
      </Stack>
    </Card>
  );
}
