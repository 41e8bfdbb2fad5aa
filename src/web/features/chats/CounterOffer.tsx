import { Button, Group, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { api } from '../../lib/api';
import { MoneyInput, type MoneyValue } from '../../components/MoneyInput';
import { chatKeys, upsertMessages } from './cache';
import type { Message, Offer } from './types';

/** The seller's counter-offer to a buyer's pending offer (issue 33): POST .../counter. */
function useCounterOffer(roomId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ offer, amount }: { offer: Offer; amount: number }) =>
      api<{ message: Message }>(`/api/chats/offers/${encodeURIComponent(offer.id)}/counter`, {
        method: 'POST',
        body: { amount },
      }),
    onSuccess: ({ message }) => {
      upsertMessages(client, roomId, [message]);
      // The buyer's offer now reads "Countered" (also pushed live; this covers a missed event).
      void client.invalidateQueries({ queryKey: chatKeys.messages(roomId) });
    },
  });
}

/**
 * "Counter-offer" under a buyer's pending offer, for the seller: another amount in the same
 * terms (books, delivery), which the buyer then accepts or declines.
 */
export function CounterOfferForm({ offer, roomId }: { offer: Offer; roomId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState<MoneyValue>('');
  const [error, setError] = useState<string | null>(null);
  const counter = useCounterOffer(roomId);
  if (!open)
    return (
      <Button size="compact-sm" variant="light" w="fit-content" onClick={() => setOpen(true)}>
        {t('chats.counter.make')}
      </Button>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typeof amount !== 'number' || !(amount > 0))
      return setError(t('chats.offer.amountInvalid'));
    setError(null);
    counter.mutate(
      { offer, amount: Math.round(amount * 100) / 100 },
      { onSuccess: () => setOpen(false), onError: (err) => setError(err.message) },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap={6} maw={260}>
        <MoneyInput
          size="xs"
          label={t('chats.counter.amount', { currency: offer.currency })}
          value={amount}
          onChange={setAmount}
          error={error}
          data-autofocus
        />
        <Group gap="xs">
          <Button size="compact-sm" type="submit" loading={counter.isPending}>
            {t('chats.counter.send')}
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setOpen(false)}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
