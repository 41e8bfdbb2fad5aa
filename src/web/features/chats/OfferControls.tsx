import { Alert } from '@mantine/core';
import { IconBeach } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatDate } from '@shared/format';
import { useSellerAwayUntil } from '../watching';
import { OfferBar } from './OfferBar';
import { listingToOfferOn, sellerOf } from './offers';
import { TradeBar } from './TradeBar';
import type { Message, Room } from './types';

/**
 * The buyer's offer controls in a room about a listing: "Make an offer" and "Propose a trade",
 * or, while the seller is on holiday, the notice that says until when (decision 0087: the server
 * refuses offers to a seller away, 409). Messages still go through: the composer stays.
 */
export function OfferControls({
  room,
  meId,
  messages,
}: {
  room: Room;
  meId: string;
  messages: Message[];
}) {
  const { t, i18n } = useTranslation();
  const seller = sellerOf(room, messages);
  const offerable =
    !!listingToOfferOn(room, messages, meId, 'sale') ||
    !!listingToOfferOn(room, messages, meId, 'trade');
  const awayUntil = useSellerAwayUntil(offerable && seller ? seller : undefined);
  if (offerable && awayUntil)
    return (
      <Alert
        mb="xs"
        py={6}
        color="yellow"
        icon={<IconBeach size={18} aria-hidden />}
        data-testid="offer-away"
      >
        {t('chats.offer.away', { date: formatDate(awayUntil, i18n.language) })}
      </Alert>
    );
  return (
    <>
      <OfferBar room={room} meId={meId} messages={messages} />
      <TradeBar room={room} meId={meId} messages={messages} />
    </>
  );
}
