import {
  CARRIER_NAMES,
  trackingUrl,
  type Carrier,
  type PostalAddress,
} from '@shared/schemas/dealPost';
import {
  tradePostWindowEnd,
  type DealTradePost,
  type TradeParcel,
} from '@shared/schemas/dealTradePost';
import type { Query } from '../../../db/tx';
import type { DealFacts, DealViewer } from '../parts';
import { caseOf } from '../post/state';

/** A member's parcel of a trade by post (deal_trade_parcels); absent before its address. */
export interface TradeParcelRow {
  sender_id: string;
  address: PostalAddress | null;
  carrier: Carrier | null;
  tracking: string | null;
  shipped_at: Date | string | null;
  received_at: Date | string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The deal's parcels by sender; `lock` takes them for update (inside a transaction). */
export async function loadParcels(
  q: Query,
  dealId: string,
  lock = false,
): Promise<Map<string, TradeParcelRow>> {
  const rows = await q<TradeParcelRow>(
    `select sender_id, address, carrier, tracking, shipped_at, received_at
     from deal_trade_parcels where deal_id = $1 ${lock ? 'for update' : ''}`,
    [dealId],
  );
  return new Map(rows.map((r) => [r.sender_id, r]));
}

/** The other member of a trade deal. */
export const otherMember = (deal: DealFacts, memberId: string) =>
  memberId === deal.buyerId ? deal.sellerId : deal.buyerId;

function parcelView(
  senderId: string,
  row: TradeParcelRow | undefined,
  showAddress: boolean,
): TradeParcel {
  const carrier = row?.carrier ?? null;
  return {
    state: row?.received_at
      ? 'received'
      : row?.shipped_at
        ? 'shipped'
        : row?.address
          ? 'address_given'
          : 'awaiting_address',
    senderId,
    address: showAddress ? (row?.address ?? null) : null,
    carrier,
    carrierName: carrier ? CARRIER_NAMES[carrier] : null,
    tracking: row?.tracking ?? null,
    trackingUrl: carrier && row?.tracking ? trackingUrl(carrier, row.tracking) : null,
    shippedAt: iso(row?.shipped_at ?? null),
    receivedAt: iso(row?.received_at ?? null),
  };
}

/** When the open trade completes by itself (both parcels left, no case), else null. */
export function windowEnd(deal: DealFacts, parcels: Map<string, TradeParcelRow>, hasCase: boolean) {
  if (deal.status !== 'open' || hasCase) return null;
  const shipped = [deal.buyerId, deal.sellerId].map((id) => {
    const at = parcels.get(id)?.shipped_at;
    return at ? new Date(at) : null;
  });
  return tradePostWindowEnd(shipped);
}

/**
 * The two parcels as `viewer` sees them: the one they send and the one they receive. An address
 * goes to its recipient, and to its sender while the deal is open; an admin (a problem's case)
 * reads the proposer's parcel as outgoing and sees no address.
 */
export async function readTradePostState(
  q: Query,
  deal: DealFacts,
  viewer: DealViewer,
): Promise<DealTradePost> {
  const parcels = await loadParcels(q, deal.id);
  const found = await caseOf(q, deal.id);
  const me = viewer.role === 'admin' ? deal.buyerId : viewer.id;
  const other = otherMember(deal, me);
  const member = viewer.role !== 'admin';
  const end = windowEnd(deal, parcels, found !== null);
  return {
    outgoing: parcelView(me, parcels.get(me), member && deal.status === 'open'),
    incoming: parcelView(other, parcels.get(other), member),
    windowEndsAt: end ? end.toISOString() : null,
    case: found,
  };
}

/** A trade by post cannot be cancelled once a parcel left (only a case's outcome can). */
export async function tradeCancelRefusal(q: Query, deal: DealFacts): Promise<string | null> {
  const parcels = await loadParcels(q, deal.id);
  return [...parcels.values()].some((p) => p.shipped_at)
    ? 'deals.tradePost.errors.shippedNoCancel'
    : null;
}
