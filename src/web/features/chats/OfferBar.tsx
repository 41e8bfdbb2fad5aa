import { Button, Group, NumberInput, Popover, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCoin } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { formatMoney } from '@shared/money';
import { useMakeOffer } from './api';
import { listingToOfferOn } from './offers';
import type { Message, Room } from './types';

/** "Make an offer" for the buyer in a room about a listing for sale. */
export function OfferBar({
  room,
  meId,
  messages,
}: {
  room: Room;
  meId: string;
  messages: Message[];
}) {
  const { t, i18n } = useTranslation();
  const [opened, popover] = useDisclosure(false);
  const [amount, setAmount] = useState<string | number>('');
  const [error, setError] = useState<string | null>(null);
  const offer = useMakeOffer(room.id);
  const listing = listingToOfferOn(room, messages, meId, 'sale');
  if (!listing) return null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = typeof amount === 'number' ? amount : Number.parseFloat(amount);
    if (!Number.isFinite(value) || value <= 0) return setError(t('chats.offer.amountInvalid'));
    setError(null);
    offer.mutate(
      { listingId: listing.id, amount: Math.round(value * 100) / 100 },
      {
        onSuccess: () => {
          setAmount('');
          popover.close();
        },
        onError: (err) => setError(err.message),
      },
    );
  };

  const asking = formatMoney(listing.price, listing.currency, i18n.language);
  return (
    <Group mb="xs" gap="xs">
      <Popover
        opened={opened}
        onChange={(o) => (o ? popover.open() : popover.close())}
        trapFocus
        withinPortal
        position="top-start"
        shadow="md"
      >
        <Popover.Target>
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconCoin size={16} aria-hidden />}
            onClick={popover.toggle}
          >
            {t('chats.offer.make')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <form onSubmit={submit} noValidate>
            <Stack gap="xs" w={240}>
              <Text size="sm" fw={600}>
                {listing.title}
              </Text>
              {asking && (
                <Text size="xs" c="dimmed">
                  {t('chats.offer.asking', { price: asking })}
                </Text>
              )}
              <NumberInput
                label={t('chats.offer.amount', { currency: listing.currency })}
                value={amount}
                onChange={setAmount}
                min={0}
                decimalScale={2}
                allowNegative={false}
                error={error}
                data-autofocus
              />
              <Group justify="flex-end" gap="xs">
                <Button size="xs" variant="default" onClick={popover.close}>
                  {t('common.cancel')}
                </Button>
                <Button size="xs" type="submit" loading={offer.isPending}>
                  {t('chats.offer.send')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}
