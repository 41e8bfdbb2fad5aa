import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { createMember, type Member } from '../../../test/members';
import { makeAdmin, requester } from '../../../test/members';
import { address, openTradeDeal, type TradeDeal } from '../../../test/trades';

/** A trade by post (decision 0090) under races, bad input, and a problem's case with an admin. */
let t: TestApp;
let req: ReturnType<typeof requester>;
let owner: Member;
let proposer: Member;
let third: Member;
let admin: Member;

beforeAll(async () => {
  t = await createTestApp();
  req = requester(t);
  [owner, proposer, third, admin] = await Promise.all([
    createMember(t, { displayName: 'Olimpia Owner' }),
    createMember(t, { displayName: 'Pietro Proposer' }),
    createMember(t, { displayName: 'Teo Third' }),
    createMember(t, { displayName: 'Adele Admin' }),
  ]);
  await makeAdmin(t, admin);
}, 120_000);

const step = (d: TradeDeal, path: string, who?: Member, body?: unknown) =>
  req('POST', `/api/deals/${d.dealId}/${path}`, who, body);
const ship = (tracking: string) => ({ carrier: 'gls', tracking });
const codes = (res: { statusCode: number }[]) => res.map((r) => r.statusCode).sort();
const count = async (sql: string, params: unknown[]) =>
  (await t.database.query<{ n: number }>(sql, params))[0].n;

/** A trade by post with both addresses given. */
async function addressed() {
  const d = await openTradeDeal(t, owner, proposer, { delivery: 'post' });
  expect(
    (await step(d, 'trade/address', proposer, { address: address('Pietro') })).statusCode,
  ).toBe(200);
  expect((await step(d, 'trade/address', owner, { address: address('Olimpia') })).statusCode).toBe(
    200,
  );
  return d;
}

describe('races', () => {
  it('a member ships twice at once: once, one 409', async () => {
    const d = await addressed();
    const res = await Promise.all([
      step(d, 'trade/ship', owner, ship('G1')),
      step(d, 'trade/ship', owner, ship('G2')),
    ]);
    expect(codes(res), res.map((r) => r.body).join('\n')).toEqual([200, 409]);
    const [row] = await t.database.query<{ tracking: string }>(
      'select tracking from deal_trade_parcels where deal_id = $1 and sender_id = $2',
      [d.dealId, owner.id],
    );
    expect(['G1', 'G2']).toContain(row.tracking);
  });

  it('both confirm receipt at once: the trade completes once, with one transaction', async () => {
    for (let round = 0; round < 3; round++) {
      const d = await addressed();
      await step(d, 'trade/ship', owner, ship(`O${round}`));
      await step(d, 'trade/ship', proposer, ship(`P${round}`));
      const res = await Promise.all([
        step(d, 'trade/received', owner),
        step(d, 'trade/received', proposer),
        step(d, 'trade/received', proposer),
      ]);
      expect(codes(res), res.map((r) => r.body).join('\n')).toEqual([200, 200, 409]);
      expect((await req('GET', `/api/deals/${d.dealId}`, owner)).json().deal.status).toBe(
        'completed',
      );
      expect(
        await count('select count(*)::int as n from transactions where deal_id = $1', [d.dealId]),
      ).toBe(1);
      expect(
        await count(
          `select count(*)::int as n from chat_messages where deal_id = $1 and content = 'deal.completed'`,
          [d.dealId],
        ),
      ).toBe(1);
    }
  });

  it('cancel and ship at once: either the parcel left and the deal is open, or it is cancelled and nothing left', async () => {
    const d = await addressed();
    const [cancel, shipped] = await Promise.all([
      req('POST', `/api/deals/${d.dealId}/cancel`, proposer),
      step(d, 'trade/ship', owner, ship('RACE1')),
    ]);
    expect(codes([cancel, shipped])).toEqual([200, 409]);
    const deal = (await req('GET', `/api/deals/${d.dealId}`, owner)).json().deal;
    if (cancel.statusCode === 200) {
      expect(deal.status).toBe('cancelled');
      expect(deal.tradePost.outgoing.shippedAt).toBeNull();
      expect((await req('GET', `/api/listings/${d.wanted}`)).json().status).toBe('available');
    } else {
      expect(deal.status).toBe('open');
      expect(deal.tradePost.outgoing.state).toBe('shipped');
    }
  });
});

describe('bad input', () => {
  it('is a clear 4xx, never a 500, and changes nothing', async () => {
    const d = await openTradeDeal(t, owner, proposer, { delivery: 'post' });
    for (const body of [
      { address: { ...address('X'), postalCode: '\u0000' } },
      { address: { name: 'x'.repeat(100_000) } },
      { addressId: 'nope' },
      {},
    ]) {
      const res = await step(d, 'trade/address', proposer, body);
      expect([400, 404], res.body).toContain(res.statusCode);
    }
    // Someone else's saved address is as missing as none.
    const saved = await req('POST', '/api/me/addresses', third, address('Teo'));
    expect(saved.statusCode, saved.body).toBe(201);
    expect(
      (await step(d, 'trade/address', proposer, { addressId: saved.json().address.id })).statusCode,
    ).toBe(404);
    // Ids that are no deal's: 404 (or 400 when too long for an id), never a 500.
    for (const id of ['\u0000', 'x'.repeat(60), '00000000-0000-4000-8000-000000000000']) {
      const res = await req('POST', `/api/deals/${encodeURIComponent(id)}/trade/received`, owner);
      expect([400, 404], res.body).toContain(res.statusCode);
    }
    expect(
      await count('select count(*)::int as n from deal_trade_parcels where deal_id = $1', [
        d.dealId,
      ]),
    ).toBe(0);
    await step(d, 'trade/address', proposer, { address: address('Pietro') });
    for (const tracking of ['', 'a b', 'x'.repeat(41), '--'])
      expect((await step(d, 'trade/ship', owner, ship(tracking))).statusCode).toBe(400);
    expect(
      (await step(d, 'trade/ship', owner, { carrier: 'pigeon', tracking: 'A1' })).statusCode,
    ).toBe(400);
  });
});

describe('a problem’s case', () => {
  it('the admin reads it without addresses and closes it: completed is one trade', async () => {
    const d = await addressed();
    // No case: the admin is nobody to this deal.
    expect((await req('GET', `/api/deals/${d.dealId}`, admin)).statusCode).toBe(404);
    await step(d, 'trade/ship', proposer, ship('P1'));
    const problem = await step(d, 'trade/problem', proposer, {
      reason: 'not_arrived',
      message: 'Il mio pacco è partito, il suo no',
    });
    expect(problem.statusCode, problem.body).toBe(200);
    const seen = (await req('GET', `/api/deals/${d.dealId}`, admin)).json().deal;
    expect(seen).toMatchObject({
      role: 'admin',
      tradePost: {
        outgoing: { senderId: proposer.id, address: null, state: 'shipped' },
        incoming: { senderId: owner.id, address: null },
        case: { reason: 'not_arrived', outcome: null },
      },
    });
    // The admin takes no member's step; the members take no admin's.
    expect((await step(d, 'trade/received', admin)).statusCode).toBe(403);
    expect((await step(d, 'case/outcome', owner, { outcome: 'completed' })).statusCode).toBe(403);
    expect((await step(d, 'case/outcome', third, { outcome: 'completed' })).statusCode).toBe(404);
    const closed = await step(d, 'case/outcome', admin, { outcome: 'completed' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().deal.status).toBe('completed');
    expect(
      await t.database.query(
        'select buyer_id, seller_id, kind from transactions where deal_id = $1',
        [d.dealId],
      ),
    ).toEqual([{ buyer_id: proposer.id, seller_id: owner.id, kind: 'trade' }]);
  });
});
