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
import { completeDeal } from '../context';
import type { DealFacts, DealViewer } from '../parts';
import { toIso } from '../../../db/rows';

/** A deal's parcel row (deal_posts), null before the buyer gives the address. */
export interface ParcelRow {
  address: PostalAddress;
  carrier: Carrier | null;
  tracking: string | null;
  shipped_at: Date | null;
  received_at: Date | null;
  window_ends_at: Date | null;
}

export interface CaseRow {
  reason: ProblemReason;
  opened_at: Date;
  outcome: CaseOutcome | null;
  resolved_at: Date | null;
}

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
    created_at: Date;
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
    createdAt: toIso(r.created_at)!,
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
    shippedAt: toIso(parcel?.shipped_at ?? null),
    receivedAt: toIso(parcel?.received_at ?? null),
    windowEndsAt: toIso(parcel?.window_ends_at ?? null),
    case: found ? await caseView(q, deal.id, found) : null,
  };
}

async function caseView(q: Query, dealId: string, found: CaseRow): Promise<DealCase> {
  return {
    reason: found.reason,
    openedAt: toIso(found.opened_at)!,
    outcome: found.outcome,
    resolvedAt: toIso(found.resolved_at),
    messages: await caseMessages(q, dealId),
  };
}

/** A deal's problem case with its messages, as its members and the admins read it; null: none. */
export async function caseOf(q: Query, dealId: string): Promise<DealCase | null> {
  const found = await loadCase(q, dealId);
  return found ? caseView(q, dealId, found) : null;
}

/** Whether a deal has a problem's case (admins may then read it). */
export async function hasCase(q: Query, deal: DealFacts): Promise<boolean> {
  return (await loadCase(q, deal.id)) !== null;
}

/** Completes a post deal at once (the buyer says all is fine, the window closed, an admin). */
export async function completePostDeal(q: Query, deal: DealFacts): Promise<string[]> {
  const listings = await completeDeal(q, deal);
  await q('update deal_posts set window_ends_at = null where deal_id = $1', [deal.id]);
  return listings;
}
