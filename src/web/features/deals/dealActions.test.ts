import { describe, expect, it } from 'vitest';
import type { Deal } from '@shared/schemas/deals';
import type { DealPost } from '@shared/schemas/dealPost';
import type { TradeParcel } from '@shared/schemas/dealTradePost';
import { dealActions, postStateKey, tradePostActions } from './dealActions';

const NOW = new Date('2026-05-10T12:00:00Z');
const LATER = '2026-05-12T12:00:00Z';
const EARLIER = '2026-05-09T12:00:00Z';

function post(state: DealPost['state'], over: Partial<DealPost> = {}): DealPost {
  const shipped = !['awaiting_address', 'address_given'].includes(state);
  return {
    state,
    address: null,
    carrier: shipped ? 'brt' : null,
    carrierName: shipped ? 'BRT' : null,
    tracking: shipped ? 'BRT-1' : null,
    trackingUrl: null,
    shippedAt: shipped ? EARLIER : null,
    receivedAt: state === 'received' ? NOW.toISOString() : null,
    windowEndsAt: shipped ? LATER : null,
    case: null,
    ...over,
  };
}

function deal(over: Partial<Deal>): Deal {
  const member = { id: 'm', displayName: 'M' } as Deal['buyer'];
  return {
    id: 'd',
    offerId: 'o',
    roomId: 'r',
    method: 'post',
    status: 'open',
    kind: 'sale',
    role: 'buyer',
    buyer: member,
    seller: member,
    listings: [],
    amount: 9,
    shippingAmount: 3.5,
    total: 12.5,
    currency: 'EUR',
    createdAt: EARLIER,
    endedAt: null,
    post: post('awaiting_address'),
    tradePost: null,
    meeting: null,
    ...over,
  };
}

const none = { cancel: false, received: false, confirm: false, problem: false };

describe('dealActions (what the deal card offers)', () => {
  it('by post, before shipping: either side may cancel, nothing else', () => {
    for (const state of ['awaiting_address', 'address_given'] as const)
      for (const role of ['buyer', 'seller'] as const)
        expect(dealActions(deal({ role, post: post(state) }), NOW)).toEqual({
          ...none,
          cancel: true,
        });
  });

  it('after shipping nobody may cancel (the server answers 409); the buyer answers', () => {
    expect(dealActions(deal({ role: 'seller', post: post('shipped') }), NOW)).toEqual(none);
    expect(dealActions(deal({ role: 'buyer', post: post('shipped') }), NOW)).toEqual({
      cancel: false,
      received: true,
      confirm: true,
      problem: true,
    });
  });

  it('once received: no second "received"; all fine and a problem remain', () => {
    expect(dealActions(deal({ post: post('received') }), NOW)).toEqual({
      ...none,
      confirm: true,
      problem: true,
    });
    expect(dealActions(deal({ role: 'seller', post: post('received') }), NOW)).toEqual(none);
  });

  it('no problem once the window closed', () => {
    const closed = post('received', { windowEndsAt: EARLIER });
    expect(dealActions(deal({ post: closed }), NOW).problem).toBe(false);
  });

  it('an open case: nothing for either side (an admin decides)', () => {
    const problem = post('problem', {
      windowEndsAt: null,
      case: {
        reason: 'damaged',
        openedAt: NOW.toISOString(),
        outcome: null,
        resolvedAt: null,
        messages: [],
      },
    });
    for (const role of ['buyer', 'seller'] as const)
      expect(dealActions(deal({ role, post: problem }), NOW)).toEqual(none);
  });

  it('an ended deal, and an admin reading a case, offer nothing', () => {
    for (const status of ['completed', 'cancelled'] as const)
      expect(dealActions(deal({ status, post: post('ended') }), NOW)).toEqual(none);
    expect(dealActions(deal({ role: 'admin', post: post('address_given') }), NOW)).toEqual(none);
  });

  it('hand to hand: cancel until either side confirms the exchange', () => {
    const meeting = (buyer: string | null, seller: string | null) => ({
      current: null,
      confirmed: { buyer, seller },
      due: true,
    });
    const hand = (m: ReturnType<typeof meeting>) =>
      dealActions(deal({ method: 'hand', post: null, meeting: m, role: 'seller' }), NOW);
    expect(hand(meeting(null, null))).toEqual({ ...none, cancel: true });
    expect(hand(meeting(EARLIER, null))).toEqual(none);
    expect(hand(meeting(null, EARLIER))).toEqual(none);
  });
});

function parcel(state: TradeParcel['state'], senderId: string): TradeParcel {
  const shipped = state === 'shipped' || state === 'received';
  return {
    state,
    senderId,
    address: null,
    carrier: shipped ? 'gls' : null,
    carrierName: shipped ? 'GLS' : null,
    tracking: shipped ? 'G1' : null,
    trackingUrl: null,
    shippedAt: shipped ? EARLIER : null,
    receivedAt: state === 'received' ? EARLIER : null,
  };
}

describe('a trade by post (decision 0090)', () => {
  const trade = (out: TradeParcel['state'], inc: TradeParcel['state'], over: Partial<Deal> = {}) =>
    deal({
      kind: 'trade',
      post: null,
      tradePost: {
        outgoing: parcel(out, 'me'),
        incoming: parcel(inc, 'them'),
        windowEndsAt: null,
        case: null,
      },
      ...over,
    });
  const none = { giveAddress: false, ship: false, received: false, problem: false };

  it('cancel only while neither parcel left', () => {
    expect(dealActions(trade('address_given', 'awaiting_address')).cancel).toBe(true);
    expect(dealActions(trade('shipped', 'address_given')).cancel).toBe(false);
    expect(dealActions(trade('address_given', 'shipped')).cancel).toBe(false);
  });

  it('each step in its order, for the reader’s own side', () => {
    expect(tradePostActions(trade('awaiting_address', 'awaiting_address'))).toEqual({
      ...none,
      giveAddress: true,
    });
    expect(tradePostActions(trade('address_given', 'address_given'))).toEqual({
      ...none,
      giveAddress: true,
      ship: true,
    });
    expect(tradePostActions(trade('shipped', 'shipped'))).toEqual({
      ...none,
      received: true,
      problem: true,
    });
    expect(tradePostActions(trade('received', 'received'))).toEqual({ ...none, problem: true });
  });

  it('nothing once ended, for an admin, and no receipt while a case is open', () => {
    expect(tradePostActions(trade('shipped', 'shipped', { status: 'completed' }))).toEqual(none);
    expect(tradePostActions(trade('shipped', 'shipped', { role: 'admin' }))).toEqual(none);
    const withCase = trade('shipped', 'shipped');
    withCase.tradePost!.case = {
      reason: 'damaged',
      openedAt: EARLIER,
      outcome: null,
      resolvedAt: null,
      messages: [],
    };
    expect(tradePostActions(withCase)).toEqual(none);
  });
});

describe('postStateKey', () => {
  it('a cancelled deal never reads "Done"; a completed one does', () => {
    expect(postStateKey(deal({ status: 'cancelled', post: post('ended') }))).toBe(
      'deals.post.states.cancelled',
    );
    expect(postStateKey(deal({ status: 'completed', post: post('ended') }))).toBe(
      'deals.post.states.ended',
    );
    expect(postStateKey(deal({ post: post('shipped') }))).toBe('deals.post.states.shipped');
  });
});
