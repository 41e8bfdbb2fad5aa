import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { expectRefusal, requester, createMember, type Member } from '../../../test/members';
import { grantAdmin } from '../../moderation';
import { openDealBetween, type OpenDeal } from '../../../test/deals';
import { ADDRESSES_MAX } from '@shared/schemas/dealPost';

/** A problem's case (decision 0074) and the saved addresses of settings. */
let t: TestApp;
let req: ReturnType<typeof requester>;
let seller: Member;
let buyer: Member;
let other: Member;
let admin: Member;

const address = {
  name: 'Carla Casi',
  street: 'Corso Italia 5',
  postalCode: '20122',
  city: 'Milano',
  country: 'IT',
};

beforeAll(async () => {
  t = await createTestApp();
  req = requester(t);
  [seller, buyer, other, admin] = await Promise.all([
    createMember(t, { displayName: 'Sergio Seller' }),
    createMember(t, { displayName: 'Carla Casi' }),
    createMember(t, { displayName: 'Otto Other' }),
    createMember(t, { displayName: 'Ada Admin' }),
  ]);
  expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
}, 120_000);

const step = (d: OpenDeal, path: string, who?: Member, body?: unknown, lang = 'en') =>
  req('POST', `/api/deals/${d.dealId}/${path}`, who, body, lang);
const listingStatus = async (id: string) =>
  (await req('GET', `/api/listings/${id}`)).json().status as string;

async function withProblem(reason = 'not_arrived'): Promise<OpenDeal> {
  const d = await openDealBetween(t, seller, buyer, { listing: { shippingCost: 5 } });
  expect((await step(d, 'address', buyer, { address })).statusCode).toBe(200);
  expect((await step(d, 'ship', seller, { carrier: 'sda', tracking: 'SDA1' })).statusCode).toBe(
    200,
  );
  const res = await step(d, 'problem', buyer, { reason, message: 'Non è mai arrivato' });
  expect(res.statusCode, res.body).toBe(200);
  return d;
}

describe('a problem’s case', () => {
  it('is seen by both sides and the admins, never by other members; the admin sees no address', async () => {
    const before = await openDealBetween(t, seller, buyer, { listing: { shippingCost: 5 } });
    // No case: the admin is nobody to this deal.
    expect((await req('GET', `/api/deals/${before.dealId}`, admin)).statusCode).toBe(404);
    const d = await withProblem();
    for (const who of [buyer, seller, admin]) {
      const res = await req('GET', `/api/deals/${d.dealId}`, who);
      expect(res.statusCode).toBe(200);
      expect(res.json().deal.post.case).toMatchObject({
        reason: 'not_arrived',
        outcome: null,
        messages: [{ body: 'Non è mai arrivato', admin: false, author: { id: buyer.id } }],
      });
    }
    expect((await req('GET', `/api/deals/${d.dealId}`, admin)).json().deal).toMatchObject({
      role: 'admin',
      post: { address: null },
    });
    expect((await req('GET', `/api/deals/${d.dealId}`, other)).statusCode).toBe(404);
    // A second problem on the same deal, or a receipt meanwhile: 409.
    expect((await step(d, 'problem', buyer, { reason: 'damaged', message: 'x' })).statusCode).toBe(
      409,
    );
    expect((await step(d, 'confirm', buyer)).statusCode).toBe(409);
  });

  it('takes messages from both sides and admins while open; others get 404', async () => {
    const d = await withProblem('damaged');
    expect((await step(d, 'case/messages', seller, { body: 'Spedito integro' })).statusCode).toBe(
      200,
    );
    const res = await step(d, 'case/messages', admin, { body: 'Mandate una foto' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deal.post.case.messages.map((m: { admin: boolean }) => m.admin)).toEqual([
      false,
      false,
      true,
    ]);
    expect((await step(d, 'case/messages', other, { body: 'ciao' })).statusCode).toBe(404);
    expect((await step(d, 'case/messages', undefined, { body: 'ciao' })).statusCode).toBe(401);
    expect((await step(d, 'case/messages', buyer, { body: '' })).statusCode).toBe(400);
    expect((await step(d, 'case/messages', buyer, { body: 'x'.repeat(2001) })).statusCode).toBe(
      400,
    );
    expect((await step(d, 'case/messages', buyer, { body: 'a\u0000b' })).statusCode).toBe(400);
    // The seller heard of the admin's message.
    const bell = (await req('GET', '/api/notifications', seller)).json();
    expect(bell.items[0]).toMatchObject({ type: 'deal.step' });
  });

  it('is closed by an admin only: completed sells the book, cancelled leaves it unavailable', async () => {
    const d = await withProblem();
    for (const who of [buyer, seller])
      await expectRefusal(
        t,
        ['POST', `/api/deals/${d.dealId}/case/outcome`, who, { outcome: 'completed' }],
        { status: 403, en: 'Access denied', it: 'Accesso negato' },
      );
    expect((await step(d, 'case/outcome', other, { outcome: 'completed' })).statusCode).toBe(404);
    expect((await step(d, 'case/outcome', admin, { outcome: 'refund' })).statusCode).toBe(400);
    const done = await step(d, 'case/outcome', admin, { outcome: 'completed' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().deal).toMatchObject({
      status: 'completed',
      post: { state: 'ended', case: { outcome: 'completed' } },
    });
    expect(await listingStatus(d.listingId)).toBe('sold');
    expect((await step(d, 'case/outcome', admin, { outcome: 'cancelled' })).statusCode).toBe(409);
    expect((await step(d, 'case/messages', buyer, { body: 'ancora?' })).statusCode).toBe(409);

    const c = await withProblem('damaged');
    const cancelled = await step(c, 'case/outcome', admin, { outcome: 'cancelled' });
    expect(cancelled.json().deal.status).toBe('cancelled');
    expect(await listingStatus(c.listingId)).toBe('unavailable');
    const page = (await req('GET', `/api/chats/rooms/${c.roomId}/messages`, buyer)).json();
    expect(
      page.items
        .filter((m: { deal?: { id: string } }) => m.deal?.id === c.dealId)
        .map((m: { content: string }) => m.content)
        .slice(-2),
    ).toEqual(['post.problem', 'post.case_cancelled']);
  });

  it('lists the cases for admins only, open ones first', async () => {
    const d = await withProblem();
    expect((await req('GET', '/api/admin/deal-cases')).statusCode).toBe(401);
    expect((await req('GET', '/api/admin/deal-cases', buyer)).statusCode).toBe(404);
    expect((await req('GET', '/api/admin/deal-cases?page=0', admin)).statusCode).toBe(400);
    const all = (await req('GET', '/api/admin/deal-cases', admin)).json();
    expect(all.total).toBeGreaterThanOrEqual(4);
    expect(all.items[0].outcome).toBeNull();
    const open = (await req('GET', '/api/admin/deal-cases?open=true', admin)).json();
    expect(open.items.every((c: { outcome: string | null }) => c.outcome === null)).toBe(true);
    expect(open.items.map((c: { dealId: string }) => c.dealId)).toContain(d.dealId);
    expect(open.items.find((c: { dealId: string }) => c.dealId === d.dealId)).toMatchObject({
      reason: 'not_arrived',
      buyer: { displayName: 'Carla Casi' },
      seller: { displayName: 'Sergio Seller' },
    });
  });
});

describe('saved addresses', () => {
  it('are each member’s own: listed, changed and deleted by their owner only', async () => {
    const me = await createMember(t);
    expect((await req('GET', '/api/me/addresses')).statusCode).toBe(401);
    const made = await req('POST', '/api/me/addresses', me, { ...address, region: 'MI' });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().address.id;
    expect((await req('GET', '/api/me/addresses', me)).json().items).toEqual([
      { id, ...address, region: 'MI', phone: '' },
    ]);
    expect((await req('GET', '/api/me/addresses', other)).json().items).toEqual([]);
    expect((await req('PUT', `/api/me/addresses/${id}`, other, address)).statusCode).toBe(404);
    expect((await req('DELETE', `/api/me/addresses/${id}`, other)).statusCode).toBe(404);
    expect((await req('DELETE', '/api/me/addresses/nope', me)).statusCode).toBe(404);
    const changed = await req('PUT', `/api/me/addresses/${id}`, me, { ...address, city: 'Pavia' });
    expect(changed.json().address.city).toBe('Pavia');
    const bad = await req('POST', '/api/me/addresses', me, { ...address, country: 'US' }, 'it');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.country).toBe("Scegli un paese dall'elenco");
    // The member's data download carries it.
    const data = (await req('POST', '/api/me/export', me)).json();
    expect(data.addresses).toEqual([
      expect.objectContaining({ city: 'Pavia', street: 'Corso Italia 5' }),
    ]);
    expect((await req('DELETE', `/api/me/addresses/${id}`, me)).statusCode).toBe(200);
    expect((await req('GET', '/api/me/addresses', me)).json().items).toEqual([]);
  });

  it(`keeps at most ${ADDRESSES_MAX}, even when saved at once`, async () => {
    const me = await createMember(t);
    const results = await Promise.all(
      Array.from({ length: ADDRESSES_MAX + 3 }, (_, i) =>
        req('POST', '/api/me/addresses', me, { ...address, street: `Via ${i}` }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(ADDRESSES_MAX);
    expect(codes.filter((c) => c === 409)).toHaveLength(3);
    expect((await req('GET', '/api/me/addresses', me)).json().items).toHaveLength(ADDRESSES_MAX);
  });
});

describe('the API document', () => {
  it('lists every route of sale by post with its errors', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    for (const path of [
      'address',
      'ship',
      'received',
      'confirm',
      'problem',
      'case/messages',
      'case/outcome',
    ])
      expect(Object.keys(doc.paths[`/api/deals/{dealId}/${path}`].post.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '403', '404', '409']),
      );
    expect(Object.keys(doc.paths['/api/me/addresses'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '409']),
    );
    expect(Object.keys(doc.paths['/api/admin/deal-cases'].get.responses)).toEqual(
      expect.arrayContaining(['200', '401', '404']),
    );
  });
});
