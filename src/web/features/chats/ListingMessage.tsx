import { Anchor, Badge, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { IconBook2 } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link } from '@web/lib/router';
import { formatMoney } from '@shared/money';
import type { ChatListing } from './types';

/** The card of the listing a conversation is about: cover, title, price, a link to its page. */
export function ListingMessage({ listing }: { listing: ChatListing }) {
  const { t, i18n } = useTranslation();
  const price = formatMoney(listing.price, listing.currency, i18n.language);
  return (
    <Paper withBorder p="xs" radius="sm" mb={4} data-testid="chat-listing-card">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {listing.coverUrl ? (
          <Image src={listing.coverUrl} alt="" w={44} h={64} fit="cover" radius="xs" />
        ) : (
          <IconBook2 size={44} aria-hidden color="var(--mantine-color-gray-6)" />
        )}
        <Stack gap={2} miw={0}>
          <Anchor
            component={Link}
            to={`/library/book/${listing.id}`}
            fw={600}
            size="sm"
            lineClamp={2}
          >
            {listing.title}
          </Anchor>
          <Text size="xs" c="dimmed" truncate="end">
            {listing.author}
          </Text>
          <Group gap={6}>
            {price && (
              <Text size="sm" fw={700}>
                {price}
              </Text>
            )}
            {listing.status !== 'available' && (
              <Badge size="xs" variant="light" color="gray">
                {t(`statuses.${listing.status}`)}
              </Badge>
            )}
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}
