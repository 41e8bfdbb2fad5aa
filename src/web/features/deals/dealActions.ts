import type { Deal } from '@shared/schemas/deals';
import type { LocaleKey } from '../../lib/translator';

/** The steps a deal's card offers: each one the server would take from this member now. */
export interface DealActions {
  /** Cancel the deal (either side). */
  cancel: boolean;
  /** Buyer, by post: the parcel arrived (the window then shrinks to 2 days). */
  received: boolean;
  /** Buyer, by post: all fine, the deal completes at once. */
  confirm: boolean;
  /** Buyer, by post: report a problem, which opens a case. */
  problem: boolean;
}

const NONE: DealActions = { cancel: false, received: false, confirm: false, problem: false };

/**
 * What the card shows to the member reading `deal` at `now`, mirroring the server's rules
 * (routes.ts's cancel, post/routes.ts's steps, decision 0074): nothing once the deal ended or for
 * an admin; cancel only before the parcel leaves or before either side confirms a meeting;
 * received, all fine and a problem only for the buyer after shipping, while no case is open,
 * a problem only until the window closes, received only once.
 */
export function dealActions(deal: Deal, now: Date = new Date()): DealActions {
  if (deal.status !== 'open' || deal.role === 'admin') return NONE;
  if (deal.method === 'hand') {
    const confirmed = deal.meeting?.confirmed;
    return {
      ...NONE,
      cancel: !confirmed || (confirmed.buyer === null && confirmed.seller === null),
    };
  }
  const trade = deal.tradePost;
  // A trade by post (decision 0090): cancelled only before either parcel leaves; its other steps
  // are tradePostActions'.
  if (trade) return { ...NONE, cancel: !trade.outgoing.shippedAt && !trade.incoming.shippedAt };
  const post = deal.post;
  if (!post) return NONE;
  const shipped = post.shippedAt !== null;
  const answering =
    deal.role === 'buyer' && shipped && post.case === null && post.state !== 'problem';
  const windowOpen =
    post.windowEndsAt !== null && new Date(post.windowEndsAt).getTime() > now.getTime();
  return {
    cancel: !shipped,
    received: answering && post.receivedAt === null,
    confirm: answering,
    problem: answering && windowOpen,
  };
}

/**
 * The key of the parcel's state line: a deal that ended reads as it ended (completed or
 * cancelled), never "Done" beside a "Cancelled" badge.
 */
export function postStateKey(deal: Deal): LocaleKey {
  const state = deal.post?.state ?? 'awaiting_address';
  if (state !== 'ended') return `deals.post.states.${state}`;
  return deal.status === 'cancelled' ? 'deals.post.states.cancelled' : 'deals.post.states.ended';
}

/** The steps a trade by post's card offers the member reading it (the server's rules, 0090). */
export interface TradePostActions {
  /** Give (or change) the address my parcel comes to: until it leaves. */
  giveAddress: boolean;
  /** Ship my parcel: once the other member gave their address, once. */
  ship: boolean;
  /** The other member's parcel arrived: after it left, once, while no case is open. */
  received: boolean;
  /** Report a problem: once a parcel left, while no case exists. */
  problem: boolean;
}

export function tradePostActions(deal: Deal): TradePostActions {
  const trade = deal.tradePost;
  const none = { giveAddress: false, ship: false, received: false, problem: false };
  if (!trade || deal.status !== 'open' || deal.role === 'admin') return none;
  const { outgoing, incoming } = trade;
  return {
    giveAddress: !incoming.shippedAt,
    ship: outgoing.state === 'address_given',
    received: incoming.state === 'shipped' && trade.case === null,
    problem: trade.case === null && (outgoing.shippedAt !== null || incoming.shippedAt !== null),
  };
}
