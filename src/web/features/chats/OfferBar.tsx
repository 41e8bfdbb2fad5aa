import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCoin } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoney } from '@shared/money';
import { MoneyInput, type MoneyValue } from '../../components/MoneyInput';
import { useListing } from '../listings';
import { OfferFee } from '../payments';
import { useMakeOffer } from './api';
import { listingToOfferOn } from './offers';
import type { Message, Room } from './types';

/**
 * "Make an offer" for the buyer in a room about a listing for sale: the amount, how the book
 * changes hands (by post with the listing's shipping cost when it ships, or hand to hand) and the
 * total, all before sending (issue 33: the buyer learnt the shipping only after acceptance).
 */
export function OfferBar({
  room,
  meId,
  messages,
}: {
  room: Room;
  meId: string;
  messages: Message[];
}) {
  const { t } = useTranslation();
  const [opened, dialog] = useDisclosure(false);
  const listing = listingToOfferOn(room, messages, meId, 'sale');
  if (!listing) return null;
  return (
    <Group mb="xs" gap="xs">
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconCoin size={16} aria-hidden />}
        onClick={dialog.open}
      >
        {t('chats.offer.make')}
      </Button>
      <Modal
        opened={opened}
        onClose={dialog.close}
        title={t('chats.offer.make')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {opened && (
          <OfferForm
            roomId={room.id}
            listing={{ id: listing.id, title: listing.title, price: listing.price }}
            currency={listing.currency}
            onDone={dialog.close}
          />
        )}
      </Modal>
    </Group>
  );
}

function OfferForm({
  roomId,
  listing,
  currency,
  onDone,
}: {
  roomId: string;
  listing: { id: string; title: string; price: number | null };
  currency: string;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [amount, setAmount] = useState<MoneyValue>('');
  const [delivery, setDelivery] = useState<'post' | 'hand' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const offer = useMakeOffer(roomId);
  const detail = useListing(listing.id);
  const money = (n: number | null) => formatMoney(n, currency, i18n.language);
  const shipping = detail.data?.shippingCost ?? null;
  const ships = shipping !== null;
  // As the server decides by default: by post when the listing ships, else hand to hand.
  const method = delivery ?? (ships ? 'post' : 'hand');
  const value = typeof amount === 'number' ? amount : Number.NaN;
  const valid = Number.isFinite(value) && value > 0;
  const shippingPart = method === 'post' && ships ? shipping : 0;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return setError(t('chats.offer.amountInvalid'));
    setError(null);
    offer.mutate(
      { listingId: listing.id, amount: Math.round(value * 100) / 100, delivery: method },
      { onSuccess: onDone, onError: (err) => setError(err.message) },
    );
  };

  const asking = money(listing.price);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {listing.title}
        </Text>
        {asking && (
          <Text size="sm" c="dimmed">
            {t('chats.offer.asking', { price: asking })}
          </Text>
        )}
        <MoneyInput
          label={t('chats.offer.amount', { currency })}
          value={amount}
          onChange={setAmount}
          error={error}
          data-autofocus
        />
        <Radio.Group
          label={t('chats.offer.delivery')}
          value={method}
          onChange={(v) => setDelivery(v as 'post' | 'hand')}
        >
          <Stack gap={4} mt={4}>
            <Radio
              value="post"
              disabled={!ships}
              label={
                ships
                  ? t('chats.offer.byPost', { shipping: money(shipping) })
                  : t('chats.offer.byPostNo')
              }
            />
            <Radio value="hand" label={t('deals.method.hand')} />
          </Stack>
        </Radio.Group>
        <Stack gap={2} data-testid="offer-total" aria-live="polite">
          <Text size="sm">
            {t('chats.offer.shipping', {
              shipping: method === 'post' && ships ? money(shipping) : t('chats.offer.noShipping'),
            })}
          </Text>
          <Text size="sm" fw={700}>
            {t('chats.offer.total', { total: valid ? money(value + shippingPart) : '—' })}
          </Text>
        </Stack>
        {/* With payments on: the buyer-protection fee and the total with it (issue 36). */}
        <OfferFee
          subtotal={valid ? value + (shippingPart ?? 0) : null}
          currency={currency}
          method={method}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={offer.isPending}>
            {t('chats.offer.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
