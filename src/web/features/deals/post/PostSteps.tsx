import { Anchor, Button, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { StepError } from '../StepError';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  CARRIER_NAMES,
  CARRIERS,
  shipInputSchema,
  type AddressInput,
  type Carrier,
} from '@shared/schemas/dealPost';
import type { Deal } from '@shared/schemas/deals';
import { ApiError } from '../../../lib/api';
import { useDealStep } from '../api';
import { useAddresses } from './api';
import { AddressForm, AddressLines } from './AddressForm';
import { CaseView, ProblemForm } from './CaseView';
import { formatWhen } from './format';

/**
 * Sale by post inside the deal's card (issue 22 item 1, decision 0074): the buyer's address (to
 * the seller only while the deal is open), shipping with carrier and tracking, the buyer's
 * receipt or problem within the window, and a problem's case. The server decides; this mirrors.
 */
export function PostSteps({ deal }: { deal: Deal }) {
  const { t, i18n } = useTranslation();
  const post = deal.post;
  if (!post) return null;
  const open = deal.status === 'open';
  const buyer = deal.role === 'buyer';
  const seller = deal.role === 'seller';
  const notShipped = post.state === 'awaiting_address' || post.state === 'address_given';

  return (
    <Stack gap={6} data-testid="post-steps">
      <Text size="xs" fw={600} data-testid="post-state">
        {t(`deals.post.states.${post.state}`)}
      </Text>
      {post.address ? (
        <Stack gap={2}>
          <Text size="xs" fw={600}>
            {t('deals.post.address.title')}
          </Text>
          <AddressLines address={post.address} />
          {seller && (
            <Text size="xs" c="dimmed">
              {t('deals.post.address.sellerNote')}
            </Text>
          )}
        </Stack>
      ) : (
        seller &&
        !open &&
        post.shippedAt && (
          <Text size="xs" c="dimmed">
            {t('deals.post.address.hidden')}
          </Text>
        )
      )}
      {open && buyer && notShipped && <GiveAddress deal={deal} />}
      {open && seller && post.state === 'awaiting_address' && (
        <Text size="xs">{t('deals.post.address.waiting')}</Text>
      )}
      {open && buyer && post.state === 'address_given' && (
        <Text size="xs">{t('deals.post.ship.waitingSeller')}</Text>
      )}
      {open && seller && post.state === 'address_given' && <ShipForm deal={deal} />}
      {post.tracking && (
        <Group gap="xs">
          <Text size="xs" data-testid="post-tracking">
            {post.carrier && post.carrier !== 'other'
              ? t('deals.post.ship.shippedWith', {
                  carrier: post.carrierName,
                  tracking: post.tracking,
                })
              : t('deals.post.ship.shippedOther', { tracking: post.tracking })}
          </Text>
          {post.trackingUrl && (
            <Anchor size="xs" href={post.trackingUrl} target="_blank" rel="noopener noreferrer">
              {t('deals.post.ship.track')}
            </Anchor>
          )}
        </Group>
      )}
      {open && post.windowEndsAt && (
        <Text size="xs" c="dimmed">
          {t(buyer ? 'deals.post.buyer.windowUntil' : 'deals.post.buyer.sellerWindow', {
            date: formatWhen(post.windowEndsAt, i18n.language),
          })}
        </Text>
      )}
      {open && buyer && (post.state === 'shipped' || post.state === 'received') && (
        <BuyerAnswer deal={deal} />
      )}
      {post.case && <CaseView deal={deal} />}
    </Stack>
  );
}

function GiveAddress({ deal }: { deal: Deal }) {
  const { t } = useTranslation();
  const given = deal.post?.state === 'address_given';
  const [editing, setEditing] = useState(!given);
  const saved = useAddresses(editing);
  const [choice, setChoice] = useState<string>('');
  const give = useDealStep<{ addressId: string } | { address: AddressInput }>(deal.id, 'address');
  if (!editing)
    return (
      <Group>
        <Button size="compact-sm" variant="default" onClick={() => setEditing(true)}>
          {t('deals.post.address.change')}
        </Button>
      </Group>
    );
  const items = saved.data ?? [];
  const selected = choice || (items[0]?.id ?? 'new');
  return (
    <Stack gap="xs">
      {items.length > 0 && (
        <Radio.Group
          label={t('deals.post.address.choose')}
          value={selected}
          onChange={setChoice}
          size="xs"
        >
          <Stack gap={4} mt={4}>
            {items.map((a) => (
              <Radio
                key={a.id}
                value={a.id}
                label={`${a.name}, ${a.street}, ${a.postalCode} ${a.city}`}
              />
            ))}
            <Radio value="new" label={t('deals.post.address.typeNew')} />
          </Stack>
        </Radio.Group>
      )}
      {selected === 'new' ? (
        <AddressForm
          submitLabel={t('deals.post.address.give')}
          busy={give.isPending}
          onCancel={given ? () => setEditing(false) : undefined}
          onSubmit={async (address) => {
            await give.mutateAsync({ address });
            setEditing(false);
          }}
        />
      ) : (
        <Group gap="xs">
          <Button
            size="compact-sm"
            loading={give.isPending}
            onClick={() =>
              give.mutate({ addressId: selected }, { onSuccess: () => setEditing(false) })
            }
          >
            {t('deals.post.address.give')}
          </Button>
        </Group>
      )}
      <StepError error={give.error} />
    </Stack>
  );
}

function ShipForm({ deal }: { deal: Deal }) {
  const { t } = useTranslation();
  const ship = useDealStep<{ carrier: Carrier; tracking: string }>(deal.id, 'ship');
  const [carrier, setCarrier] = useState<Carrier | null>(null);
  const [tracking, setTracking] = useState('');
  const [errors, setErrors] = useState<{ carrier?: string; tracking?: string }>({});
  const options = CARRIERS.map((c) => ({
    value: c,
    label: c === 'other' ? t('deals.post.ship.carrierOther') : CARRIER_NAMES[c],
  }));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = shipInputSchema.safeParse({ carrier, tracking });
    if (!parsed.success) {
      const found: typeof errors = {};
      for (const issue of parsed.error.issues)
        found[issue.path[0] as keyof typeof errors] ??= t(issue.message);
      setErrors(found);
      return;
    }
    setErrors({});
    ship.mutate(parsed.data, {
      onError: (err) => {
        if (err instanceof ApiError && err.fields) setErrors(err.fields);
      },
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('deals.post.ship.title')}>
      <Stack gap="xs">
        <Select
          label={t('deals.post.ship.carrier')}
          data={options}
          value={carrier}
          onChange={(v) => setCarrier(v as Carrier | null)}
          error={errors.carrier}
          searchable
          required
          size="xs"
        />
        <TextInput
          label={t('deals.post.ship.tracking')}
          description={t('deals.post.ship.trackingHint')}
          value={tracking}
          onChange={(e) => setTracking(e.currentTarget.value)}
          error={errors.tracking}
          maxLength={40}
          required
          size="xs"
        />
        <Group>
          <Button type="submit" size="compact-sm" loading={ship.isPending}>
            {t('deals.post.ship.submit')}
          </Button>
        </Group>
        <StepError error={ship.error} />
      </Stack>
    </form>
  );
}

function BuyerAnswer({ deal }: { deal: Deal }) {
  const { t } = useTranslation();
  const received = useDealStep(deal.id, 'received');
  const confirm = useDealStep(deal.id, 'confirm');
  const [reporting, setReporting] = useState(false);
  const failed = received.error ?? confirm.error;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {deal.post?.state === 'shipped' && (
          <Button size="compact-sm" loading={received.isPending} onClick={() => received.mutate()}>
            {t('deals.post.buyer.received')}
          </Button>
        )}
        <Button size="compact-sm" loading={confirm.isPending} onClick={() => confirm.mutate()}>
          {t('deals.post.buyer.confirm')}
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          aria-expanded={reporting}
          onClick={() => setReporting((r) => !r)}
        >
          {t('deals.post.buyer.problem')}
        </Button>
      </Group>
      {reporting && <ProblemForm deal={deal} onClose={() => setReporting(false)} />}
      {failed && (
        <Text size="xs" c="red.9" role="alert">
          {failed.message}
        </Text>
      )}
    </Stack>
  );
}
