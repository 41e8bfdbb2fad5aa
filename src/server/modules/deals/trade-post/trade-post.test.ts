import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { createMember, type Member } from '../../../test/members';
import { runJob } from '../../../platform/jobs';
import { expectRefusal, requester } from '../../../test/members';
import { openDealBetween } from '../../../test/deals';
import { address, openTradeDeal, type TradeDeal } from '../../../test/trades';

/**
 * A trade by post (issue 33 item 8, decision 0090): each member gives the address their parcel
 * comes to, ships their own books, confirms the other's arrived; the second confirmation
 * completes the trade as one transaction. Every step only by the right member, in order.
 */
const DAY = 24 * 60 * 60 * 1000;
let clock = Date.parse('2026-12-01T09:00:00Z');
let t: TestApp;
let req: ReturnType<typeof requester>;
let owner: Member;
let proposer: Member;
let third: Member;

beforeAll(async () => {
  let tick = 0;
  t = await createTestApp({ deps: { now: () => new Date(clock + ++tick) } });
  req = requester(t);
  owner = await createMember(t, { username: 'olga_posta', displayName: 'Olga Posta' });
  proposer = await createMember(t, { username: 'paolo_pacco', displayName: 'Paolo Pacco' });
  third = await createMember(t, { username: 'tina_terza', displayName: 'Tina Terza' });
}, 120_000);

const step = (d: TradeDeal, path: string, who?: Member, body?: unknown, lang = 'en') =>
  req('POST', `/api/deals/${d.dealId}/${path}`, who, body, lang);
const read = async (d: TradeDeal, who: Member) =>
  (await req('GET', `/api/deals/${d.dealId}`, who)).json().deal;
const ship = (tracking: string) => ({ carrier: 'poste_italiane', tracking });
const statusOf = async (id: string) =>
  (await req('GET', `/api/listings/${id}`)).json().status as string;
const parcels = (d: TradeDeal) =>
  t.database.query('select * from deal_trade_parcels where deal_id = $1 order by sender_id', [
    d.dealId,
  ]);
const transactions = (d: TradeDeal) =>
  t.database.query<{ listing_id: string; buyer_id: string; seller_id: string; kind: string }>(
    'select listing_id::text, buyer_id, seller_id, kind from transactions where deal_id = $1',
    [d.dealId],
  );

describe('a trade proposed by post', () => {
  it('is an offer with no shipping to pay, accepted into a deal by post with two parcels', async () => {
    const d = await openTradeDeal(t, owner, proposer, { delivery: 'post' });
    const message = (await req('GET', `/api/chats/rooms/${d.roomId}/messages`, owner))
      .json()
      .items.find((m: { type: string }) => m.type === 'offer');
    expect(message.offer).toMatchObject({ kind: 'trade', amount: null, shippingAmount: 0 });
    const deal = await read(d, proposer);
    expect(deal).toMatchObject({ kind: 'trade', method: 'post', total: 0, post: null });
    expect(deal.tradePost).toMatchObject({
      outgoing: { state: 'awaiting_address', senderId: proposer.id, address: null },
      incoming: { state: 'awaiting_address', senderId: owner.id, address: null },
      windowEndsAt: null,
      case: null,
    });
    // By hand (the default) it is a meeting, as before.
    const hand = await openTradeDeal(t, owner, proposer);
    expect(await read(hand, owner)).toMatchObject({ method: 'hand', tradePost: null });
  });

  it('a sale’s parcel steps are no trade’s, and a trade’s none of a sale’s: 404, nothing changes', async () => {
    const d = await openTradeDeal(t, owner, proposer, { delivery: 'post' });
    for (const [path, who, body] of [
      ['address', proposer, { address: address('Paolo') }],
      ['ship', owner, ship('RR1')],
      ['received', proposer, undefined],
      ['confirm', proposer, undefined],
      ['problem', proposer, { reason: 'damaged', message: 'Rotto' }],
    ] as const)
      expect((await step(d, path, who, body)).statusCode, path).toBe(404);
    const sale = await openDealBetween(t, owner, proposer, { listing: { shippingCost: 3 } });
    for (const [path, body] of [
      ['trade/address', { address: address('Paolo') }],
      ['trade/ship', ship('RR1')],
      ['trade/received', undefined],
      ['trade/problem', { reason: 'damaged', message: 'Rotto' }],
    ] as const)
      expect(
        (await req('POST', `/api/deals/${sale.dealId}/${path}`, proposer, body)).statusCode,
        path,
      ).toBe(404);
    expect(await parcels(d)).toHaveLength(0);
  });
});

describe('the steps of a trade by post', () => {
  it('anonymous 401, another member 404: nothing changes', async () => {
    const d = await openTradeDeal(t, owner, proposer, { delivery: 'post' });
    for (const [path, body] of [
      ['trade/address', { address: address('X') }],
      ['trade/ship', ship('RR9')],
      ['trade/received', undefined],
      ['trade/problem', { reason: 'damaged', message: 'x' }],
    ] as const) {
      expect((await step(d, path, undefined, body)).statusCode, path).toBe(401);
      expect((await step(d, path, third, body)).statusCode, path).toBe(404);
    }
    expect((await req('GET', `/api/deals/${d.dealId}`, third)).statusCode).toBe(404);
    expect(await parcels(d)).toHaveLength(0);
  });

  it('walks both parcels in order: address, ship, receipt; the second receipt completes one trade', async () => {
    const d = await openTradeDeal(t, owner, proposer, { delivery: 'post', count: 2 });
    // Nothing ships before the other member's address, and nothing arrives before it ships.
    await expectRefusal(t, ['POST', `/api/deals/${d.dealId}/trade/ship`, owner, ship('RR1')], {
      status: 409,
      en: 'The other member has not given their address yet: you can ship once they have',
      it: 'L’altro membro non ha ancora indicato il proprio indirizzo: potrai spedire dopo',
    });
    await expectRefusal(t, ['POST', `/api/deals/${d.dealId}/trade/received`, owner, undefined], {
      status: 409,
      en: 'The other member has not shipped their parcel yet',
      it: 'L’altro membro non ha ancora spedito il suo pacco',
    });
    expect(
      (await step(d, 'trade/problem', owner, { reason: 'not_arrived', message: 'x' })).statusCode,
    ).toBe(409);

    // The proposer gives the address the owner's parcel comes to; only the two of them see it.
    const given = await step(d, 'trade/address', proposer, { address: address('Paolo Pacco') });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json().deal.tradePost.incoming).toMatchObject({
      state: 'address_given',
      address: { name: 'Paolo Pacco', city: 'Bologna' },
    });
    expect((await read(d, owner)).tradePost.outgoing).toMatchObject({
      state: 'address_given',
      address: { name: 'Paolo Pacco' },
    });
    // Still the proposer's own parcel cannot leave: the owner gave no address.
    expect((await step(d, 'trade/ship', proposer, ship('RR2'))).statusCode).toBe(409);

    const shipped = await step(d, 'trade/ship', owner, ship('RR123456789IT'));
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().deal.tradePost.outgoing).toMatchObject({
      state: 'shipped',
      carrierName: 'Poste Italiane',
      tracking: 'RR123456789IT',
    });
    expect((await step(d, 'trade/ship', owner, ship('RR3'))).statusCode).toBe(409);
    // Once a parcel left: no cancel, and its address no longer changes.
    expect((await req('POST', `/api/deals/${d.dealId}/cancel`, proposer)).statusCode).toBe(409);
    await expectRefusal(
      t,
      [
        'POST',
        `/api/deals/${d.dealId}/trade/address`,
        proposer,
        { address: address('Altro indirizzo') },
      ],
      {
        status: 409,
        en: 'The other member already shipped their parcel: the address can no longer change',
        it: 'L’altro membro ha già spedito il suo pacco: l’indirizzo non può più cambiare',
      },
    );
    // The owner cannot confirm their own parcel arrived; the proposer can, once.
    expect((await step(d, 'trade/received', owner)).statusCode).toBe(409);
    const arrived = await step(d, 'trade/received', proposer);
    expect(arrived.statusCode, arrived.body).toBe(200);
    expect(arrived.json().deal).toMatchObject({
      status: 'open',
      tradePost: { incoming: { state: 'received' } },
    });
    expect((await step(d, 'trade/received', proposer)).statusCode).toBe(409);

    // The other way round, then the second receipt completes the trade.
    expect(
      (await step(d, 'trade/address', owner, { address: address('Olga Posta') })).statusCode,
    ).toBe(200);
    const back = await step(d, 'trade/ship', proposer, ship('BRT-77'));
    // Both parcels left: the trade would complete by itself 14 days after the later one.
    const both = back.json().deal.tradePost;
    expect(Date.parse(both.windowEndsAt) - Date.parse(both.outgoing.shippedAt)).toBe(14 * DAY);
    const done = await step(d, 'trade/received', owner);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().deal).toMatchObject({
      status: 'completed',
      tradePost: { windowEndsAt: null },
    });
    // The sender no longer sees the other's address once the trade ended; the recipient does.
    expect(done.json().deal.tradePost.outgoing.address).toBeNull();
    expect(done.json().deal.tradePost.incoming.address).toMatchObject({ name: 'Olga Posta' });

    expect(await transactions(d)).toEqual([
      { listing_id: d.wanted, buyer_id: proposer.id, seller_id: owner.id, kind: 'trade' },
    ]);
    for (const id of [d.wanted, ...d.offered]) expect(await statusOf(id)).toBe('traded');
    const steps = (await req('GET', `/api/chats/rooms/${d.roomId}/messages`, owner))
      .json()
      .items.filter((m: { deal?: { id: string } }) => m.deal?.id === d.dealId)
      .map((m: { content: string }) => m.content);
    expect(steps).toEqual([
      'deal.opened',
      'trade_post.address_given',
      'trade_post.shipped',
      'trade_post.received',
      'trade_post.address_given',
      'trade_post.shipped',
      'trade_post.received',
      'deal.completed',
    ]);
    // The proposer hears each of the owner's steps in a trade's words.
    const bell = (await req('GET', '/api/notifications', proposer, undefined, 'it')).json().items;
    const shippedNotice = bell.find(
      (n: { type: string; data: { dealId?: string; context?: string } }) =>
        n.data.dealId === d.dealId && n.data.context === 'trade_post_shipped',
    );
    expect(shippedNotice).toBeTruthy();
    // Ended: every step is refused.
    expect(
      (await step(d, 'trade/problem', owner, { reason: 'damaged', message: 'x' })).statusCode,
    ).toBe(409);
  });

  it('completes by itself 14 days after the later parcel left, once, unless a problem is open', async () => {
    const d = await openTradeDeal(t, owner, proposer, { delivery: 'post' });
    await step(d, 'trade/address', proposer, { address: address('Paolo') });
    await step(d, 'trade/address', owner, { address: address('Olga') });
    await step(d, 'trade/ship', owner, ship('A1'));
    clock += 2 * DAY;
    await step(d, 'trade/ship', proposer, ship('B2'));
    const second = clock;
    const job = (at: number) =>
      runJob(t.app, 'trade by post window', new Date(at)) as Promise<string[]>;
    expect(await job(second + 14 * DAY - 1000)).not.toContain(d.dealId);
    const [a, b] = await Promise.all([
      job(second + 14 * DAY + 1000),
      job(second + 14 * DAY + 1000),
    ]);
    expect([...a, ...b].filter((id) => id === d.dealId)).toHaveLength(1);
    expect((await read(d, owner)).status).toBe('completed');
    expect(await transactions(d)).toHaveLength(1);

    // A problem stops the clock: an admin decides.
    const p = await openTradeDeal(t, owner, proposer, { delivery: 'post' });
    await step(p, 'trade/address', proposer, { address: address('Paolo') });
    await step(p, 'trade/address', owner, { address: address('Olga') });
    await step(p, 'trade/ship', owner, ship('C3'));
    await step(p, 'trade/ship', proposer, ship('D4'));
    const problem = await step(p, 'trade/problem', owner, {
      reason: 'not_as_described',
      message: 'Non è l’edizione descritta',
    });
    expect(problem.statusCode, problem.body).toBe(200);
    expect(problem.json().deal.tradePost).toMatchObject({
      windowEndsAt: null,
      case: { reason: 'not_as_described', outcome: null },
    });
    expect(
      (await step(p, 'trade/problem', proposer, { reason: 'damaged', message: 'x' })).statusCode,
    ).toBe(409);
    expect((await step(p, 'trade/received', proposer)).statusCode).toBe(409);
    expect(await job(clock + 40 * DAY)).not.toContain(p.dealId);
    // Both members write in the case.
    expect((await step(p, 'case/messages', proposer, { body: 'È quella giusta' })).statusCode).toBe(
      200,
    );
    expect((await step(p, 'case/messages', third, { body: 'Io?' })).statusCode).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('has every step of a trade by post with its errors, and the delivery of a trade offer', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    for (const path of ['address', 'ship', 'received', 'problem']) {
      const route = doc.paths[`/api/deals/{dealId}/trade/${path}`].post;
      expect(Object.keys(route.responses), path).toEqual(
        expect.arrayContaining(['200', '401', '403', '404', '409']),
      );
    }
    expect(
      JSON.stringify(doc.paths['/api/chats/rooms/{roomId}/trade-offers'].post.requestBody),
    ).toContain('delivery');
    expect(JSON.stringify(doc)).toContain('"tradePost"');
  });
});
