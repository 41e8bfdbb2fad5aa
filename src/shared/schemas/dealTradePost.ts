import { z } from 'zod';
import { CARRIERS, dealCaseSchema, postalAddressSchema } from './dealPost';

/**
 * A trade by post (issue 33 item 8, decision 0090): each member sends their own books in a parcel
 * of their own. Each gives the address their parcel comes to, ships theirs with a carrier and
 * tracking number once the other's address is known, and confirms the other's parcel arrived.
 * The trade completes when both have, or by itself TRADE_POST_WINDOW_DAYS after the later parcel
 * left; either member may report a problem once a parcel left, which opens a case for the admins
 * (as a sale by post's). Owned by modules/deals/trade-post; the core carries it as
 * `deal.tradePost`. Messages are locale keys under `deals.tradePost.*`.
 */
export const TRADE_POST_WINDOW_DAYS = 14;
export const TRADE_POST_STEPS = [
  'trade_post.address_given',
  'trade_post.shipped',
  'trade_post.received',
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a trade by post completes by itself: 14 days after the later of its two parcels left. */
export function tradePostWindowEnd(shipped: (Date | null)[]): Date | null {
  if (shipped.length !== 2 || shipped.some((d) => d === null)) return null;
  const later = Math.max(...shipped.map((d) => d!.getTime()));
  return new Date(later + TRADE_POST_WINDOW_DAYS * DAY_MS);
}

export const TRADE_PARCEL_STATES = [
  'awaiting_address',
  'address_given',
  'shipped',
  'received',
] as const;

export const tradeParcelSchema = z.object({
  state: z.enum(TRADE_PARCEL_STATES),
  /** Who sends it (the books' owner). */
  senderId: z.string(),
  /**
   * Where it goes: to its recipient always; to its sender only while the deal is open (the
   * address of the other member, as a sale's seller sees the buyer's); never to an admin.
   */
  address: postalAddressSchema.nullable(),
  carrier: z.enum(CARRIERS).nullable(),
  /** The carrier's name as shown ('' for other). */
  carrierName: z.string().nullable(),
  tracking: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  shippedAt: z.string().nullable(),
  receivedAt: z.string().nullable(),
});
export type TradeParcel = z.infer<typeof tradeParcelSchema>;

export const dealTradePostSchema = z.object({
  /** The parcel the reader sends (for an admin, the proposer's). */
  outgoing: tradeParcelSchema,
  /** The parcel the reader receives (for an admin, the owner's). */
  incoming: tradeParcelSchema,
  /** When the trade completes by itself (both parcels shipped, no case); null before. */
  windowEndsAt: z.string().nullable(),
  case: dealCaseSchema.nullable(),
});
export type DealTradePost = z.infer<typeof dealTradePostSchema>;
