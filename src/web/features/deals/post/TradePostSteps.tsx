import { Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import type { Deal } from '@shared/schemas/deals';
import type { TradeParcel } from '@shared/schemas/dealTradePost';
import { useDealStep } from '../api';
import { AddressLines } from './AddressForm';
import { CaseView, ProblemForm } from './CaseView';
import { formatWhen } from './format';
import { GiveAddress, ShipForm, TrackingLine } from './PostSteps';
import { tradePostActions } from '../dealActions';
import { StepAction } from '../StepAction';
import { ConfirmDialog, useConfirmStep } from '../../../components/ConfirmDialog';

/**
 * A trade by post inside the deal's card (issue 33 item 8, decision 0090): the reader's parcel to
 * the other member (their address, shipping it with a tracking number, their confirmation) and the
 * other member's parcel to the reader (the reader's address, its tracking, "It arrived"), the date
 * it completes by itself, a problem and its case. The server decides; this mirrors.
 */
export function TradePostSteps({ deal }: { deal: Deal }) {
  const { t, i18n } = useTranslation();
  const [reporting, setReporting] = useState(false);
  const trade = deal.tradePost;
  if (!trade) return null;
  const admin = deal.role === 'admin';
  // An admin reads the proposer's parcel as outgoing (the server's order).
  const me = admin ? deal.buyer : deal.role === 'seller' ? deal.seller : deal.buyer;
  const other = me.id === deal.buyer.id ? deal.seller : deal.buyer;
  const may = tradePostActions(deal);
  const open = deal.status === 'open';
  return (
    <Stack gap="xs" data-testid="trade-post-steps">
      {deal.status !== 'open' && (
        <Text size="xs" fw={600} data-testid="trade-post-state">
          {t(
            deal.status === 'completed' ? 'deals.tradePost.completed' : 'deals.tradePost.cancelled',
          )}
        </Text>
      )}
      <Outgoing
        deal={deal}
        parcel={trade.outgoing}
        name={other.displayName}
        from={me.displayName}
      />
      <Incoming deal={deal} parcel={trade.incoming} name={other.displayName} to={me.displayName} />
      {open && trade.windowEndsAt && (
        <Text size="xs" c="dimmed">
          {t('deals.tradePost.window', { date: formatWhen(trade.windowEndsAt, i18n.language) })}
        </Text>
      )}
      {may.problem && (
        <StepAction
          label={t('deals.tradePost.problem')}
          help={t('deals.tradePost.problemHelp')}
          variant="default"
          ariaExpanded={reporting}
          onClick={() => setReporting((r) => !r)}
        />
      )}
      {reporting && may.problem && (
        <ProblemForm deal={deal} path="trade/problem" onClose={() => setReporting(false)} />
      )}
      {trade.case && <CaseView deal={deal} />}
    </Stack>
  );
}

/** A parcel's section, named for the reader ("Your parcel to Anna") or, for an admin, neutrally. */
function ParcelGroup({
  label,
  testId,
  children,
}: {
  label: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <Stack gap={4} role="group" aria-label={label} data-testid={testId}>
      <Text size="xs" fw={700}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

function Outgoing({
  deal,
  parcel,
  name,
  from,
}: {
  deal: Deal;
  parcel: TradeParcel;
  name: string;
  from: string;
}) {
  const { t } = useTranslation();
  const may = tradePostActions(deal);
  const admin = deal.role === 'admin';
  const open = deal.status === 'open';
  return (
    <ParcelGroup
      label={
        admin
          ? t('deals.tradePost.parcelOf', { from, to: name })
          : t('deals.tradePost.outgoing', { name })
      }
      testId="trade-parcel-out"
    >
      {parcel.address && (
        <Stack gap={2}>
          <Text size="xs">{t('deals.tradePost.sendTo')}</Text>
          <AddressLines address={parcel.address} />
          <Text size="xs" c="dimmed">
            {t('deals.tradePost.addressNote')}
          </Text>
        </Stack>
      )}
      {open && !admin && parcel.state === 'awaiting_address' && (
        <Text size="xs">{t('deals.tradePost.waitingAddress', { name })}</Text>
      )}
      {may.ship && <ShipForm deal={deal} path="trade/ship" title={t('deals.tradePost.ship')} />}
      <TrackingLine parcel={parcel} />
      {open && parcel.state === 'shipped' && (
        <Text size="xs">{t('deals.tradePost.waitingReceipt', { name })}</Text>
      )}
      {parcel.state === 'received' && (
        <Text size="xs">{t('deals.tradePost.theyReceived', { name })}</Text>
      )}
    </ParcelGroup>
  );
}

function Incoming({
  deal,
  parcel,
  name,
  to,
}: {
  deal: Deal;
  parcel: TradeParcel;
  name: string;
  to: string;
}) {
  const { t } = useTranslation();
  const may = tradePostActions(deal);
  const admin = deal.role === 'admin';
  const open = deal.status === 'open';
  const received = useDealStep(deal.id, 'trade/received');
  const receivedStep = useConfirmStep(received);
  return (
    <ParcelGroup
      label={
        admin
          ? t('deals.tradePost.parcelOf', { from: name, to })
          : t('deals.tradePost.incoming', { name })
      }
      testId="trade-parcel-in"
    >
      {parcel.address && !may.giveAddress && (
        <Stack gap={2}>
          <Text size="xs">{t('deals.tradePost.yourAddress')}</Text>
          <AddressLines address={parcel.address} />
        </Stack>
      )}
      {may.giveAddress && (
        <Stack gap={4}>
          <Text size="xs">
            {parcel.address
              ? t('deals.tradePost.yourAddress')
              : t('deals.tradePost.giveAddress', { name })}
          </Text>
          {parcel.address && <AddressLines address={parcel.address} />}
          <GiveAddress deal={deal} given={parcel.address !== null} path="trade/address" />
        </Stack>
      )}
      {open && !admin && parcel.state === 'address_given' && (
        <Text size="xs">{t('deals.tradePost.waitingShip', { name })}</Text>
      )}
      <TrackingLine parcel={parcel} />
      {may.received && (
        <StepAction
          label={t('deals.tradePost.received')}
          help={t('deals.tradePost.receivedHelp')}
          onClick={receivedStep.ask}
        />
      )}
      {parcel.state === 'received' && !admin && (
        <Text size="xs">{t('deals.tradePost.youReceived')}</Text>
      )}
      <ConfirmDialog
        {...receivedStep.dialog}
        title={t('deals.tradePost.receivedDialog.title')}
        confirmLabel={t('deals.tradePost.receivedDialog.confirm')}
        cancelLabel={t('deals.tradePost.receivedDialog.keep')}
        color="teal.9"
      >
        {t('deals.tradePost.receivedDialog.body')}
      </ConfirmDialog>
    </ParcelGroup>
  );
}
