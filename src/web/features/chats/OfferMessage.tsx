import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoney } from '@shared/money';
import { useOfferAction, type OfferAction } from './api';
import type { Offer, OfferStatus } from './types';
import { DealCard } from '../deals';
import { CounterOfferForm } from './CounterOffer';

/** Badge tint and a text colour dark enough for AA on it, inside either bubble's colour. */
export const STATUS_TONES: Record<OfferStatus, { color: string; text: string }> = {
  pending: { color: 'yellow', text: '#6b4600' },
  accepted: { color: 'green', text: '#1e6b30' },
  declined: { color: 'red', text: '#a61e1e' },
  withdrawn: { color: 'gray', text: '#495057' },
  completed: { color: 'teal', text: '#06694b' },
  cancelled: { color: 'gray', text: '#495057' },
  countered: { color: 'blue', text: '#1c4f8a' },
};

/**
 * An offer inside the conversation: its amount and status, and the answers open to this member —
 * accept or decline for the seller, withdraw for the buyer while pending; once accepted, the deal's
 * card (decision 0083). `book` is the title of the book it is for: one conversation may discuss
 * several books of the seller over time (issue 33).
 */
export function OfferMessage({
  offer,
  roomId,
  meId,
  book,
}: {
  offer: Offer;
  roomId: string;
  meId: string;
  book?: string;
}) {
  const { t, i18n } = useTranslation();
  const amount = formatMoney(offer.amount, offer.currency, i18n.language);
  const seller = offer.sellerId === meId;
  const buyer = offer.buyerId === meId;
  // A seller's counter-offer (issue 33) is answered by the buyer and withdrawn by the seller.
  const counter = offer.counterOf !== undefined;
  const [proposer, answerer] = counter ? [seller, buyer] : [buyer, seller];
  const actions: OfferAnswer[] = [];
  if (offer.status === 'pending' && answerer)
    actions.push(
      { action: 'accept', variant: 'filled' },
      { action: 'decline', variant: 'default' },
    );
  if (offer.status === 'pending' && proposer)
    actions.push({ action: 'withdraw', variant: 'default' });
  const heading = counter
    ? t('chats.counter.label', { amount })
    : buyer
      ? t('chats.offer.yours', { amount })
      : t('chats.offer.theirs', { amount });
  // An accepted offer continues in its deal's card: by post the buyer's receipt completes it, by
  // hand both confirm the exchange (decisions 0074 and 0083); nobody marks it sold alone.

  return (
    <Stack gap={6} data-testid="chat-offer">
      <Group gap="xs">
        <Text size="sm" fw={700}>
          {heading}
        </Text>
        <Badge
          size="sm"
          variant="light"
          color={STATUS_TONES[offer.status].color}
          c={STATUS_TONES[offer.status].text}
        >
          {t(`chats.offer.status.${offer.status}`)}
        </Badge>
      </Group>
      {book && (
        <Text size="xs" data-testid="offer-book" style={{ overflowWrap: 'anywhere' }}>
          {book}
        </Text>
      )}
      {offer.shippingAmount !== null && offer.amount !== null && (
        <Text size="xs" data-testid="offer-total">
          {t('chats.offer.withShipping', {
            total: formatMoney(offer.amount + offer.shippingAmount, offer.currency, i18n.language),
            amount,
            shipping: formatMoney(offer.shippingAmount, offer.currency, i18n.language),
          })}
        </Text>
      )}
      <OfferAnswers
        offer={offer}
        roomId={roomId}
        actions={actions}
        labels={counter ? 'counter' : 'offer'}
      />
      {offer.status === 'pending' && seller && !counter && (
        <CounterOfferForm offer={offer} roomId={roomId} />
      )}
    </Stack>
  );
}

export interface OfferAnswer {
  action: OfferAction;
  variant: string;
}

/**
 * The answers open to this member on an offer (sale or trade: `labels` picks the words), the
 * failure of the last one, and the deal's card once the offer is accepted.
 */
export function OfferAnswers({
  offer,
  roomId,
  actions,
  labels,
}: {
  offer: Offer;
  roomId: string;
  actions: OfferAnswer[];
  labels: 'offer' | 'trade' | 'counter';
}) {
  const { t } = useTranslation();
  const act = useOfferAction(roomId);
  return (
    <>
      {actions.length > 0 && (
        <Group gap="xs">
          {actions.map(({ action, variant }) => (
            <Button
              key={action}
              size="compact-sm"
              variant={variant}
              loading={act.isPending && act.variables?.action === action}
              disabled={act.isPending}
              onClick={() => act.mutate({ offer, action })}
            >
              {t(`chats.${labels}.${action}`)}
            </Button>
          ))}
        </Group>
      )}
      {act.isError && (
        <Text size="xs" c="red.9" role="alert">
          {act.error.message}
        </Text>
      )}
      {offer.dealId && <DealCard dealId={offer.dealId} />}
    </>
  );
}
