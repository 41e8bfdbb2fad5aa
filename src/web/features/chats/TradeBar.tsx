import { Button, Checkbox, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { TRADE_OFFER_MAX_BOOKS } from '@shared/schemas/chats';
import { useTranslation } from '@web/lib/reactI18n';
import { useMyListings } from '../listings';
import { useMakeTradeOffer } from './api';
import { listingToOfferOn } from './offers';
import type { Message, Room } from './types';

/**
 * "Propose a trade" for the member who does not own the room's listing, when it is offered for
 * trade (alone or with sale) and available: a dialog to pick up to three of their own available
 * tradeable listings (decision 0080) and how the books change hands: at a meeting, or by post,
 * each member sending their own (decision 0090).
 */
export function TradeBar({
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
  const [chosen, setChosen] = useState<string[]>([]);
  const [delivery, setDelivery] = useState<'hand' | 'post'>('hand');
  const [error, setError] = useState<string | null>(null);
  const trade = useMakeTradeOffer(room.id);
  const listing = listingToOfferOn(room, messages, meId, 'trade');
  const mine = useMyListings(opened);
  if (!listing) return null;

  const tradeable = (mine.data?.items ?? []).filter(
    (l) => l.listingType !== 'sell' && l.status === 'available' && l.isActive,
  );
  const close = () => {
    setError(null);
    dialog.close();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen.length === 0) return setError(t('chats.trade.chooseOne'));
    setError(null);
    trade.mutate(
      { listingId: listing.id, offeredListingIds: chosen, delivery },
      {
        onSuccess: () => {
          setChosen([]);
          dialog.close();
        },
        onError: (err) => setError(err.message),
      },
    );
  };

  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        mb="xs"
        leftSection={<IconArrowsExchange size={16} aria-hidden />}
        onClick={dialog.open}
      >
        {t('chats.trade.propose')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('chats.trade.pickerTitle')} size="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm" fw={600}>
              {listing.title}
            </Text>
            {mine.isPending ? (
              <Text size="sm">{t('chats.trade.loading')}</Text>
            ) : tradeable.length === 0 ? (
              <Text size="sm">{t('chats.trade.none')}</Text>
            ) : (
              <Checkbox.Group
                label={t('chats.trade.pickerLabel', { max: TRADE_OFFER_MAX_BOOKS })}
                value={chosen}
                onChange={(ids) => setChosen(ids.slice(0, TRADE_OFFER_MAX_BOOKS))}
                error={error}
              >
                <Stack gap="xs" mt="xs">
                  {tradeable.map((l) => (
                    <Checkbox
                      key={l.id}
                      value={l.id}
                      label={`${l.title} — ${l.author}`}
                      disabled={!chosen.includes(l.id) && chosen.length >= TRADE_OFFER_MAX_BOOKS}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
            {tradeable.length > 0 && (
              <Radio.Group
                label={t('chats.trade.delivery')}
                value={delivery}
                onChange={(v) => setDelivery(v as 'hand' | 'post')}
              >
                <Stack gap={4} mt={4}>
                  <Radio value="hand" label={t('chats.trade.byHand')} />
                  <Radio value="post" label={t('chats.trade.byPost')} />
                </Stack>
              </Radio.Group>
            )}
            {error && tradeable.length === 0 && (
              <Text size="sm" c="red.9" role="alert">
                {error}
              </Text>
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={close}>
                {t('chats.trade.cancel')}
              </Button>
              <Button type="submit" loading={trade.isPending} disabled={tradeable.length === 0}>
                {t('chats.trade.send')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
