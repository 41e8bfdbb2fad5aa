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
  type DealPost,
} from '@shared/schemas/dealPost';
import type { Deal } from '@shared/schemas/deals';
import { ApiError } from '../../../lib/api';
import { useDealStep } from '../api';
import { useAddresses } from './api';
import { AddressForm, AddressLines } from './AddressForm';
import { CaseView, ProblemForm } from './CaseView';
import { formatWhen } from './format';
import { dealActions, postStateKey } from '../dealActions';
import { StepAction } from '../StepAction';
import { ConfirmDialog, useConfirmStep } from '../../../components/ConfirmDialog';
import { dataText } from '../../../lib/translator';

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
        {t(postStateKey(deal))}
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
      {open && buyer && notShipped && (
        <GiveAddress deal={deal} given={post.state === 'address_given'} />
      )}
      {open && seller && post.state === 'awaiting_address' && (
        <Text size="xs">{t('deals.post.address.waiting')}</Text>
      )}
      {open && buyer && post.state === 'address_given' && (
        <Text size="xs">{t('deals.post.ship.waitingSeller')}</Text>
      )}
      {open && seller && post.state === 'address_given' && <ShipForm deal={deal} />}
      <TrackingLine parcel={post} />
      {open && post.windowEndsAt && (
        <Text size="xs" c="dimmed">
          {t(buyer ? 'deals.post.buyer.windowUntil' : 'deals.post.buyer.sellerWindow', {
            date: formatWhen(post.windowEndsAt, i18n.language),
          })}
        </Text>
      )}
      <BuyerAnswer deal={deal} />
      {post.case && <CaseView deal={deal} />}
    </Stack>
  );
}

/** A parcel's carrier and tracking number, with the carrier's tracking page when known. */
export function TrackingLine({
  parcel,
}: {
  parcel: Pick<DealPost, 'carrier' | 'carrierName' | 'tracking' | 'trackingUrl'>;
}) {
  const { t } = useTranslation();
  if (!parcel.tracking) return null;
  return (
    <Group gap="xs">
      <Text size="xs" data-testid="post-tracking">
        {parcel.carrier && parcel.carrier !== 'other'
          ? t('deals.post.ship.shippedWith', {
              carrier: parcel.carrierName,
              tracking: parcel.tracking,
            })
          : t('deals.post.ship.shippedOther', { tracking: parcel.tracking })}
      </Text>
      {parcel.trackingUrl && (
        <Anchor size="xs" href={parcel.trackingUrl} target="_blank" rel="noopener noreferrer">
          {t('deals.post.ship.track')}
        </Anchor>
      )}
    </Group>
  );
}

/**
 * Giving the address a parcel comes to: a saved one or one typed here (`path`: a sale's
 * 'address', a trade's 'trade/address'); once `given`, a button to change it.
 */
export function GiveAddress({
  deal,
  given,
  path = 'address',
}: {
  deal: Deal;
  given: boolean;
  path?: string;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(!given);
  const saved = useAddresses(editing);
  const [choice, setChoice] = useState<string>('');
  const give = useDealStep<{ addressId: string } | { address: AddressInput }>(deal.id, path);
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

/** Shipping a parcel with its carrier and tracking number (`path`: a sale's or a trade's). */
export function ShipForm({
  deal,
  path = 'ship',
  title,
}: {
  deal: Deal;
  path?: string;
  /** The form's name and button (a sale's "Mark as shipped" by default). */
  title?: string;
}) {
  const { t } = useTranslation();
  const ship = useDealStep<{ carrier: Carrier; tracking: string }>(deal.id, path);
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
        found[issue.path[0] as keyof typeof errors] ??= dataText(t, issue.message);
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
    <form onSubmit={submit} noValidate aria-label={title ?? t('deals.post.ship.title')}>
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
            {title ?? t('deals.post.ship.submit')}
          </Button>
        </Group>
        <StepError error={ship.error} />
      </Stack>
    </form>
  );
}

/**
 * The buyer's answers once the parcel left (decision 0074), each with what it does: "received"
 * starts the last 2 days to report a problem, "all fine" completes the deal at once (asked first:
 * it cannot be undone), a problem opens a case. Only those the server would take now show.
 */
function BuyerAnswer({ deal }: { deal: Deal }) {
  const { t } = useTranslation();
  const received = useDealStep(deal.id, 'received');
  const confirm = useDealStep(deal.id, 'confirm');
  const confirmStep = useConfirmStep(confirm);
  const [reporting, setReporting] = useState(false);
  const may = dealActions(deal);
  if (!may.received && !may.confirm && !may.problem) return null;
  return (
    <Stack gap="xs">
      {may.received && (
        <StepAction
          label={t('deals.post.buyer.received')}
          help={t('deals.post.buyer.receivedHelp')}
          loading={received.isPending}
          onClick={() => received.mutate()}
        />
      )}
      {may.confirm && (
        <StepAction
          label={t('deals.post.buyer.confirm')}
          help={t('deals.post.buyer.confirmHelp')}
          onClick={confirmStep.ask}
        />
      )}
      {may.problem && (
        <StepAction
          label={t('deals.post.buyer.problem')}
          help={t('deals.post.buyer.problemHelp')}
          variant="default"
          ariaExpanded={reporting}
          onClick={() => setReporting((r) => !r)}
        />
      )}
      {reporting && <ProblemForm deal={deal} onClose={() => setReporting(false)} />}
      <ConfirmDialog
        {...confirmStep.dialog}
        title={t('deals.post.buyer.confirmDialog.title')}
        confirmLabel={t('deals.post.buyer.confirmDialog.confirm')}
        cancelLabel={t('deals.post.buyer.confirmDialog.keep')}
        color="teal.9"
      >
        {t('deals.post.buyer.confirmDialog.body')}
      </ConfirmDialog>
      <StepError error={received.error} />
    </Stack>
  );
}
