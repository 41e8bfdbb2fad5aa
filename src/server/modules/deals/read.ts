import type { Deal, DealSummary } from '@shared/schemas/deals';
import { DEALS_PAGE_SIZE } from '@shared/schemas/deals';
import { isUuid } from '@shared/schemas/common';
import type { Query } from '../../db/tx';
import { isAdmin } from '../../platform/moderation';
import { loadDeal } from './context';
import type { DealFacts, DealPart, DealParts, DealViewer } from './parts';
import { readTradePostState } from './trade-post/state';
import { toIso } from '../../db/rows';

interface SummaryRow {
  id: string;
  room_id: string;
  method: 'post' | 'hand';
  status: 'open' | 'completed' | 'cancelled';
  buyer_id: string;
  buyer_name: string;
  buyer_username: string | null;
  seller_id: string;
  seller_name: string;
  seller_username: string | null;
  kind: 'sale' | 'trade';
  amount: number | null;
  shipping_amount: number | null;
  currency: Deal['currency'];
  created_at: Date;
  ended_at: Date | null;
  /** The books as agreed (deal_books, issue 32); `id` null once the listing was deleted. */
  listings: DealSummary['listings'];
}

const SUMMARY_SELECT = `select d.id::text, d.room_id::text, d.method, d.status,
    d.buyer_id, bu.display_name as buyer_name,
    coalesce(bu.display_username, bu.username::text) as buyer_username,
    d.seller_id, su.display_name as seller_name,
    coalesce(su.display_username, su.username::text) as seller_username,
    o.kind, o.amount::float8 as amount, o.shipping_amount::float8 as shipping_amount, o.currency,
    d.created_at, d.ended_at,
    (select coalesce(json_agg(json_build_object('id', db.listing_id, 'title', db.title,
        'author', db.author, 'condition', db.condition, 'description', db.description,
        'coverUrl', db.cover_url, 'price', db.price::float8, 'currency', db.currency,
        'shippingCost', db.shipping_cost::float8, 'ownerId', db.owner_id) order by db.position),
        '[]'::json)
     from deal_books db where db.deal_id = d.id) as listings
  from deals d
  join offers o on o.id = d.offer_id
  join users bu on bu.id = d.buyer_id
  join users su on su.id = d.seller_id`;

function toSummary(r: SummaryRow, role: DealSummary['role']): DealSummary {
  const shipping = r.shipping_amount === null ? null : Number(r.shipping_amount);
  return {
    id: r.id,
    roomId: r.room_id,
    method: r.method,
    status: r.status,
    kind: r.kind,
    role,
    buyer: { id: r.buyer_id, displayName: r.buyer_name, username: r.buyer_username },
    seller: { id: r.seller_id, displayName: r.seller_name, username: r.seller_username },
    listings: r.listings,
    // A trade has no amount: its total is nothing (0).
    total: Math.round((Number(r.amount ?? 0) + (shipping ?? 0)) * 100) / 100,
    currency: r.currency,
    createdAt: toIso(r.created_at),
    endedAt: r.ended_at === null ? null : toIso(r.ended_at),
  };
}

/**
 * Who `userId` is to the deal: a side, an admin when a part lets admins read it (a problem's
 * case), or nobody (null: the deal answers 404, as a missing one).
 */
export async function viewerOf(
  q: Query,
  deal: DealFacts,
  userId: string,
  part: DealPart,
): Promise<DealViewer | null> {
  if (deal.buyerId === userId) return { id: userId, role: 'buyer' };
  if (deal.sellerId === userId) return { id: userId, role: 'seller' };
  if (part.adminMayRead && (await part.adminMayRead(q, deal)) && (await isAdmin(q, userId)))
    return { id: userId, role: 'admin' };
  return null;
}

/** The whole deal as `userId` may see it; null when they may not (404). */
export async function readDeal(
  q: Query,
  id: string,
  userId: string,
  parts: DealParts,
  now: Date,
): Promise<Deal | null> {
  if (!isUuid(id)) return null;
  const facts = await loadDeal(q, id);
  if (!facts) return null;
  const viewer = await viewerOf(q, facts, userId, parts[facts.method]);
  if (!viewer) return null;
  const [row] = await q<SummaryRow & { offer_id: string }>(`${SUMMARY_SELECT} where d.id = $1`, [
    id,
  ]);
  const summary = toSummary(row, viewer.role);
  return {
    ...summary,
    offerId: facts.offerId,
    amount: row.amount === null ? null : Number(row.amount),
    shippingAmount: row.shipping_amount === null ? null : Number(row.shipping_amount),
    // By post, a sale's one parcel or a trade's two (decision 0090).
    post:
      facts.method === 'post' && facts.kind === 'sale'
        ? await parts.post.state(q, facts, viewer, now)
        : null,
    tradePost:
      facts.method === 'post' && facts.kind === 'trade'
        ? await readTradePostState(q, facts, viewer)
        : null,
    meeting: facts.method === 'hand' ? await parts.hand.state(q, facts, viewer, now) : null,
  };
}

/** A member's deals, newest first, paged by the database (the buyer and seller indexes). */
export async function listDeals(
  q: Query,
  userId: string,
  opts: { page: number; status?: string; role?: 'buyer' | 'seller' },
): Promise<{ items: DealSummary[]; total: number }> {
  const sides =
    opts.role === 'buyer'
      ? 'd.buyer_id = $1'
      : opts.role === 'seller'
        ? 'd.seller_id = $1'
        : '(d.buyer_id = $1 or d.seller_id = $1)';
  const where = `${sides} and ($2::text is null or d.status = $2)`;
  const params = [userId, opts.status ?? null];
  const [{ total }] = await q<{ total: number }>(
    `select count(*)::int as total from deals d where ${where}`,
    params,
  );
  const rows = await q<SummaryRow>(
    `${SUMMARY_SELECT} where ${where} order by d.created_at desc, d.id desc limit $3 offset $4`,
    [...params, DEALS_PAGE_SIZE, (opts.page - 1) * DEALS_PAGE_SIZE],
  );
  return {
    items: rows.map((r) => toSummary(r, r.buyer_id === userId ? 'buyer' : 'seller')),
    total,
  };
}
