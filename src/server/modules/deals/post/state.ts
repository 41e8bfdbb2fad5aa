import {
  CARRIER_NAMES,
  trackingUrl,
  type Carrier,
  type CaseOutcome,
  type DealCase,
  type DealPost,
  type PostalAddress,
  type ProblemReason,
} from '@shared/schemas/dealPost';
import type { Query } from '../../../db/tx';
import type { DealFacts, DealViewer } from '../parts';

/** A deal's parcel row (deal_posts), null before the buyer gives the address. */
export interface ParcelRow {
  address: PostalAddress;
  carrier: Carrier | null;
  tracking: string | null;
  shipped_at: Date | string | null;
  received_at: Date | string | null;
  window_ends_at: Date | string | null;
}

export interface CaseRow {
  reason: ProblemReason;
  opened_at: Date | string;
  outcome: CaseOutcome | null;
  resolved_at: Date | string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function loadParcel(
  q: Query,
  dealId: string,
  lock = false,
): Promise<ParcelRow | null> {
  const [row] = await q<ParcelRow>(
    `select address, carrier, tracking, shipped_at, received_at, window_ends_at
     from deal_posts where deal_id = $1 ${lock ? 'for update' : ''}`,
    [dealId],
  );
  return row ?? null;
}

export async function loadCase(q: Query, dealId: string): Promise<CaseRow | null> {
  const [row] = await q<CaseRow>(
    'select reason, opened_at, outcome, resolved_at from deal_cases where deal_id = $1',
    [dealId],
  );
  return row ?? null;
}

async function caseMessages(q: Query, dealId: string): Promise<DealCase['messages']> {
  const rows = await q<{
    id: string;
    author_id: string | null;
    display_name: string | null;
    as_admin: boolean;
    body: string;
    created_at: Date | string;
  }>(
    `select m.id::text, m.author_id, u.display_name, m.as_admin, m.body, m.created_at
     from deal_case_messages m left join users u on u.id = m.author_id
     where m.deal_id = $1 order by m.created_at, m.id limit 500`,
    [dealId],
  );
  return rows.map((r) => ({
    id: r.id,
    author: r.author_id === null ? null : { id: r.author_id, displayName: r.display_name ?? '' },
    admin: r.as_admin,
    body: r.body,
    createdAt: iso(r.created_at)!,
  }));
}

/**
 * The parcel as `viewer` may see it. The address goes to the buyer, and to the seller of this
 * deal only while it is open (decision 0074): never to admins or anyone else.
 */
export async function readPostState(
  q: Query,
  deal: DealFacts,
  viewer: DealViewer,
): Promise<DealPost> {
  const parcel = await loadParcel(q, deal.id);
  const found = await loadCase(q, deal.id);
  const showAddress =
    parcel !== null &&
    (viewer.role === 'buyer' || (viewer.role === 'seller' && deal.status === 'open'));
  const state: DealPost['state'] =
    deal.status !== 'open'
      ? 'ended'
      : found && found.outcome === null
        ? 'problem'
        : parcel?.received_at
          ? 'received'
          : parcel?.shipped_at
            ? 'shipped'
            : parcel
              ? 'address_given'
              : 'awaiting_address';
  const carrier = parcel?.carrier ?? null;
  return {
    state,
    address: showAddress ? parcel.address : null,
    carrier,
    carrierName: carrier ? CARRIER_NAMES[carrier] : null,
    tracking: parcel?.tracking ?? null,
    trackingUrl: carrier && parcel?.tracking ? trackingUrl(carrier, parcel.tracking) : null,
    shippedAt: iso(parcel?.shipped_at ?? null),
    receivedAt: iso(parcel?.received_at ?? null),
    windowEndsAt: iso(parcel?.window_ends_at ?? null),
    case: found
      ? {
          reason: found.reason,
          openedAt: iso(found.opened_at)!,
          outcome: found.outcome,
          resolvedAt: iso(found.resolved_at),
          messages: await caseMessages(q, deal.id),
        }
      : null,
  };
}

/** Whether a deal has a problem's case (admins may then read it). */
export async function hasCase(q: Query, deal: DealFacts): Promise<boolean> {
  return (await loadCase(q, deal.id)) !== null;
}
