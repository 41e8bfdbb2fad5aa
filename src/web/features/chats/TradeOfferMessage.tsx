import { Badge, Group, Image, Stack, Text } from '@mantine/core';
import { IconBook2 } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import type { ChatListing, Offer } from './types';
import { OfferAnswers, STATUS_TONES, type OfferAnswer } from './OfferMessage';

function Book({ listing }: { listing: ChatListing }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="trade-book">
      {listing.coverUrl ? (
        <Image src={listing.coverUrl} alt="" w={32} h={46} fit="cover" radius="xs" />
      ) : (
        <IconBook2 size={32} aria-hidden color="var(--mantine-color-gray-6)" />
      )}
      <Stack gap={0} miw={0}>
        <Text size="sm" fw={600} lineClamp={2}>
          {listing.title}
        </Text>
        <Text size="xs" c="dimmed" truncate="end">
          {listing.author}
        </Text>
      </Stack>
    </Group>
  );
}

/**
 * A trade offer inside the conversation (decision 0080): the books the proposer gives, with covers
 * and titles, for the room's listing; accept or decline for the owner, withdraw for the proposer
 * while pending. Once accepted the deal card (a meeting, both confirmations) carries it on.
 */
export function TradeOfferMessage({
  offer,
  wanted,
  roomId,
  meId,
  proposerName,
}: {
  offer: Offer;
  wanted: ChatListing | undefined;
  roomId: string;
  meId: string;
  proposerName: string;
}) {
  const { t } = useTranslation();
  const owner = offer.sellerId === meId;
  const proposer = offer.buyerId === meId;
  const actions: OfferAnswer[] = [];
  if (offer.status === 'pending' && owner)
    actions.push(
      { action: 'accept', variant: 'filled' },
      { action: 'decline', variant: 'default' },
    );
  if (offer.status === 'pending' && proposer)
    actions.push({ action: 'withdraw', variant: 'default' });
  const tone = STATUS_TONES[offer.status];
  return (
    <Stack gap={6} data-testid="chat-trade-offer">
      <Group gap="xs">
        <Text size="sm" fw={700}>
          {proposer ? t('chats.trade.yours') : t('chats.trade.theirs')}
        </Text>
        <Badge size="sm" variant="light" color={tone.color} c={tone.text}>
          {offer.status === 'completed'
            ? t('chats.trade.completed')
            : t(`chats.offer.status.${offer.status}`)}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        {proposer ? t('chats.trade.youGive') : t('chats.trade.gives', { name: proposerName })}
      </Text>
      {(offer.offered ?? []).map((l) => (
        <Book key={l.id} listing={l} />
      ))}
      {wanted && (
        <>
          <Text size="xs" c="dimmed">
            {t('chats.trade.for')}
          </Text>
          <Book listing={wanted} />
        </>
      )}
      <Text size="xs" data-testid="trade-delivery">
        {offer.shippingAmount === null ? t('chats.trade.byHand') : t('chats.trade.byPost')}
      </Text>
      <OfferAnswers offer={offer} roomId={roomId} actions={actions} labels="trade" />
    </Stack>
  );
}
