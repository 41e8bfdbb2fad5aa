import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { expectRefusal, requester, createMember, type Member } from '../../../test/members';
import { openDealBetween, type OpenDeal } from '../../../test/deals';
import { runJob } from '../../../platform/jobs';

/**
 * Sale by post (decision 0074): who sees the address and when, the steps in order and by the
 * right side, the windows and the automatic completion on an injected clock, and abuse.
 */
const DAY = 24 * 60 * 60 * 1000;
let clock = new Date('2026-03-02T09:00:00Z').getTime();
let t: TestApp;
let req: ReturnType<typeof requester>;
let seller: Member;
let buyer: Member;
let other: Member;

const address = {
  name: 'Bruno Compratore',
  street: 'Via Roma 1',
  postalCode: '00184',
  city: 'Roma',
  region: 'RM',
  country: 'IT',
  phone: '+39 333 1234567',
};

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => new Date(clock) } });
  req = requester(t);
  [seller, buyer, other] = await Promise.all([
    createMember(t, { username: 'sara_post', displayName: 'Sara Spedisce' }),
    createMember(t, { username: 'bruno_post', displayName: 'Bruno Compra' }),
    createMember(t, { username: 'otto_post', displayName: 'Otto Altro' }),
  ]);
}, 120_000);

const postDeal = () => openDealBetween(t, seller, buyer, { listing: { shippingCost: 4 } });
const deal = async (d: OpenDeal, who: Member) => {
  const res = await req('GET', `/api/deals/${d.dealId}`, who);
  return res.statusCode === 200 ? res.json().deal : res.statusCode;
};
const step = (d: OpenDeal, path: string, who?: Member, body?: unknown, lang = 'en') =>
  req('POST', `/api/deals/${d.dealId}/${path}`, who, body, lang);
const listingStatus = async (id: string) =>
  (await req('GET', `/api/listings/${id}`)).json().status as string;
const steps = async (d: OpenDeal) =>
  (await req('GET', `/api/chats/rooms/${d.roomId}/messages`, buyer))
    .json()
    .items.filter((m: { type: string; deal?: { id: string } }) => m.deal?.id === d.dealId)
    .map((m: { content: string }) => m.content);

async function shipped(): Promise<OpenDeal> {
  const d = await postDeal();
  expect((await step(d, 'address', buyer, { address })).statusCode).toBe(200);
  const res = await step(d, 'ship', seller, { carrier: 'brt', tracking: 'BRT-12345' });
  expect(res.statusCode, res.body).toBe(200);
  return d;
}

describe('a sale by post', () => {
  it('goes from the address to shipped with tracking to received and all fine, each step in the chat', async () => {
    const d = await postDeal();
    expect(await deal(d, buyer)).toMatchObject({
      total: 14,
      shippingAmount: 4,
      post: { state: 'awaiting_address', address: null, tracking: null },
    });
    const given = await step(d, 'address', buyer, { address });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json().deal.post).toMatchObject({ state: 'address_given', address });
    expect((await deal(d, seller)).post.address).toEqual(address);
    const ship = await step(d, 'ship', seller, {
      carrier: 'poste_italiane',
      tracking: 'RR123456789IT',
    });
    expect(ship.statusCode, ship.body).toBe(200);
    const post = ship.json().deal.post;
    expect(post).toMatchObject({
      state: 'shipped',
      carrier: 'poste_italiane',
      carrierName: 'Poste Italiane',
      tracking: 'RR123456789IT',
      shippedAt: new Date(clock).toISOString(),
      windowEndsAt: new Date(clock + 14 * DAY).toISOString(),
    });
    expect(post.trackingUrl).toMatch(/^https:\/\/www\.poste\.it\/.*RR123456789IT$/);
    clock += 3 * DAY;
    const received = await step(d, 'received', buyer);
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json().deal.post).toMatchObject({
      state: 'received',
      windowEndsAt: new Date(clock + 2 * DAY).toISOString(),
    });
    const fine = await step(d, 'confirm', buyer);
    expect(fine.statusCode, fine.body).toBe(200);
    expect(fine.json().deal).toMatchObject({ status: 'completed', post: { state: 'ended' } });
    expect(await listingStatus(d.listingId)).toBe('sold');
    expect(await steps(d)).toEqual([
      'deal.opened',
      'post.address_given',
      'post.shipped',
      'post.received',
      'post.confirmed',
    ]);
    // The seller was told of each of the buyer's steps, in the bell.
    const bell = (await req('GET', '/api/notifications', seller)).json();
    expect(bell.items[0]).toMatchObject({ type: 'deal.step' });
    // Both may review the completed sale (reviews hang on the deal's transaction).
    const [{ n }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from transactions where deal_id = $1 and status = 'completed'`,
      [d.dealId],
    );
    expect(n).toBe(1);
  });

  it('shows the address to the seller of that deal only, and only while it is open', async () => {
    const d = await postDeal();
    await step(d, 'address', buyer, { address });
    expect((await deal(d, seller)).post.address).toEqual(address);
    expect(await deal(d, other)).toBe(404);
    expect((await req('GET', `/api/deals/${d.dealId}`)).statusCode).toBe(401);
    // Nothing of it in the lists either.
    expect(JSON.stringify((await req('GET', '/api/deals', other)).json())).not.toContain(
      'Via Roma',
    );
    expect(JSON.stringify((await req('GET', '/api/deals', seller)).json())).not.toContain(
      'Via Roma',
    );
    expect((await step(d, 'cancel', buyer)).statusCode).toBe(200);
    const after = await deal(d, seller);
    expect(after.status).toBe('cancelled');
    expect(after.post.address).toBeNull();
    expect(JSON.stringify(after)).not.toContain('Via Roma');
    expect((await deal(d, buyer)).post.address).toEqual(address);
  });

  it('copies a saved address: a later edit does not change the deal’s', async () => {
    const saved = await req('POST', '/api/me/addresses', buyer, address);
    expect(saved.statusCode, saved.body).toBe(201);
    const id = saved.json().address.id;
    const d = await postDeal();
    expect((await step(d, 'address', buyer, { addressId: id })).statusCode).toBe(200);
    await req('PUT', `/api/me/addresses/${id}`, buyer, { ...address, street: 'Via Nuova 9' });
    expect((await deal(d, seller)).post.address.street).toBe('Via Roma 1');
    // Another member's saved address cannot be given (404, nothing changes).
    const d2 = await postDeal();
    const theirs = (await req('POST', '/api/me/addresses', other, address)).json().address.id;
    expect((await step(d2, 'address', buyer, { addressId: theirs })).statusCode).toBe(404);
    expect((await deal(d2, buyer)).post.state).toBe('awaiting_address');
    await req('DELETE', `/api/me/addresses/${id}`, buyer);
    await req('DELETE', `/api/me/addresses/${theirs}`, other);
  });
});

describe('who may take a step', () => {
  it('refuses visitors (401), other members (404) and the wrong side (403), changing nothing', async () => {
    const d = await postDeal();
    expect((await step(d, 'address', undefined, { address })).statusCode).toBe(401);
    expect((await step(d, 'address', other, { address })).statusCode).toBe(404);
    await expectRefusal(t, ['POST', `/api/deals/${d.dealId}/address`, seller, { address }], {
      status: 403,
      en: 'Only the buyer can take this step',
      it: "Solo l'acquirente può fare questo passo",
    });
    expect((await deal(d, buyer)).post.state).toBe('awaiting_address');
    await step(d, 'address', buyer, { address });
    for (const who of [undefined, other, buyer]) {
      const res = await step(d, 'ship', who, { carrier: 'gls', tracking: 'X1' });
      expect(res.statusCode).toBe(who === undefined ? 401 : who === other ? 404 : 403);
    }
    expect((await deal(d, buyer)).post.state).toBe('address_given');
    expect((await step(d, 'confirm', seller)).statusCode).toBe(403);
    expect(
      (
        await req('POST', '/api/deals/00000000-0000-4000-8000-000000000000/ship', seller, {
          carrier: 'gls',
          tracking: 'X1',
        })
      ).statusCode,
    ).toBe(404);
    expect((await req('POST', '/api/deals/nope/received', buyer)).statusCode).toBe(404);
  });

  it('refuses steps out of order with a clear 409', async () => {
    const d = await postDeal();
    await expectRefusal(
      t,
      ['POST', `/api/deals/${d.dealId}/ship`, seller, { carrier: 'dhl', tracking: 'A1' }],
      {
        status: 409,
        en: 'The buyer has not given the address yet',
        it: "L'acquirente non ha ancora dato l'indirizzo",
      },
    );
    await step(d, 'address', buyer, { address });
    await expectRefusal(t, ['POST', `/api/deals/${d.dealId}/received`, buyer, undefined], {
      status: 409,
      en: 'The parcel has not been shipped yet',
      it: 'Il pacco non è ancora stato spedito',
    });
    expect((await step(d, 'confirm', buyer)).statusCode).toBe(409);
    expect(
      (await step(d, 'problem', buyer, { reason: 'damaged', message: 'Rotto' })).statusCode,
    ).toBe(409);
    expect((await step(d, 'ship', seller, { carrier: 'dhl', tracking: 'A1' })).statusCode).toBe(
      200,
    );
    await expectRefusal(
      t,
      ['POST', `/api/deals/${d.dealId}/ship`, seller, { carrier: 'dhl', tracking: 'A2' }],
      {
        status: 409,
        en: 'The parcel has already been shipped',
        it: 'Il pacco è già stato spedito',
      },
    );
    expect((await step(d, 'address', buyer, { address })).statusCode).toBe(409);
    await expectRefusal(t, ['POST', `/api/deals/${d.dealId}/cancel`, seller, undefined], {
      status: 409,
      en: 'The parcel has been shipped: the deal can no longer be cancelled (report a problem instead)',
      it: "Il pacco è stato spedito: l'accordo non si può più annullare (segnala un problema)",
    });
    expect((await step(d, 'received', buyer)).statusCode).toBe(200);
    expect((await step(d, 'received', buyer)).statusCode).toBe(409);
    expect((await deal(d, seller)).post.tracking).toBe('A1');
  });

  it('keeps the seller’s “mark as sold” from bypassing the buyer (409)', async () => {
    const d = await shipped();
    const payload = { kind: 'sale', counterpartUsername: 'bruno_post' };
    await expectRefusal(t, ['POST', `/api/listings/${d.listingId}/complete`, seller, payload], {
      status: 409,
      en: 'This book has an accepted offer: the deal completes in your conversation with the buyer',
      it: "Questo libro ha un'offerta accettata: l'accordo si conclude nella conversazione con l'acquirente",
    });
    expect((await req('POST', `/api/chats/offers/${d.offerId}/complete`, seller)).statusCode).toBe(
      404,
    );
    expect((await deal(d, seller)).status).toBe('open');
  });
});

describe('bad input', () => {
  it('refuses huge, malformed and NUL-laden tracking numbers, unknown carriers and addresses', async () => {
    const d = await postDeal();
    await step(d, 'address', buyer, { address });
    for (const tracking of ['x'.repeat(41), 'AB 12', 'AB\u000012', '', '--', 'ÀB1']) {
      const res = await step(d, 'ship', seller, { carrier: 'ups', tracking });
      expect(res.statusCode, tracking).toBe(400);
    }
    for (const [lang, text] of [
      ['en', 'Enter the tracking number: letters, digits and dashes, at most 40'],
      ['it', 'Inserisci il numero di tracciamento: lettere, cifre e trattini, al massimo 40'],
    ]) {
      const res = await step(d, 'ship', seller, { carrier: 'ups', tracking: 'x'.repeat(41) }, lang);
      expect(res.json().error.fields.tracking).toBe(text);
    }
    expect((await step(d, 'ship', seller, { carrier: 'pigeon', tracking: 'A1' })).statusCode).toBe(
      400,
    );
    expect(
      (await step(d, 'ship', seller, 'x'.repeat(1_000_000))).statusCode,
    ).toBeGreaterThanOrEqual(400);
    for (const bad of [
      { ...address, country: 'XX' },
      { ...address, postalCode: '!!' },
      { ...address, name: 'a'.repeat(101) },
      { ...address, city: 'Ro\u0000ma' },
      { ...address, phone: 'call me' },
    ]) {
      const res = await step(d, 'address', buyer, { address: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.fields).toBeTruthy();
    }
    expect(
      (await step(d, 'ship', seller, { carrier: 'other', tracking: 'X-9' })).json().deal.post,
    ).toMatchObject({ carrier: 'other', trackingUrl: null, tracking: 'X-9' });
  });
});

describe('the windows', () => {
  it('completes by itself 14 days after shipping with no answer, once', async () => {
    const d = await shipped();
    const job = postJob();
    clock += 14 * DAY - 1000;
    expect(await job(new Date(clock))).not.toContain(d.dealId);
    expect((await deal(d, buyer)).status).toBe('open');
    clock += 1000;
    expect(await job(new Date(clock))).toContain(d.dealId);
    expect(await job(new Date(clock))).not.toContain(d.dealId);
    expect(await deal(d, buyer)).toMatchObject({ status: 'completed', post: { state: 'ended' } });
    expect(await listingStatus(d.listingId)).toBe('sold');
    expect((await steps(d)).filter((s: string) => s === 'post.window_closed')).toHaveLength(1);
    // Too late now.
    expect(
      (await step(d, 'problem', buyer, { reason: 'damaged', message: 'Rotto' })).statusCode,
    ).toBe(409);
  });

  it('closes 2 days after “received”, or at the 14-day mark when that comes first', async () => {
    const early = await shipped();
    clock += 1 * DAY;
    await step(early, 'received', buyer);
    expect((await deal(early, buyer)).post.windowEndsAt).toBe(
      new Date(clock + 2 * DAY).toISOString(),
    );
    const late = await shipped();
    const lateShipped = clock;
    clock += 13 * DAY;
    await step(late, 'received', buyer);
    expect((await deal(late, buyer)).post.windowEndsAt).toBe(
      new Date(lateShipped + 14 * DAY).toISOString(),
    );
    // A problem within the window is still possible for `late`; its window then stops.
    const problem = await step(late, 'problem', buyer, {
      reason: 'not_as_described',
      message: 'Non è l’edizione descritta',
    });
    expect(problem.statusCode, problem.body).toBe(200);
    expect(problem.json().deal.post).toMatchObject({
      state: 'problem',
      windowEndsAt: null,
      case: { reason: 'not_as_described', outcome: null },
    });
    clock += 30 * DAY;
    const done = await postJob()(new Date(clock));
    expect(done).toContain(early.dealId);
    expect(done).not.toContain(late.dealId);
    expect((await deal(late, buyer)).status).toBe('open');
  });

  it('completes a deal once when two receipts and two job runs race', async () => {
    const d = await shipped();
    const [a, b] = await Promise.all([step(d, 'received', buyer), step(d, 'received', buyer)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const [c1, c2] = await Promise.all([step(d, 'confirm', buyer), step(d, 'confirm', buyer)]);
    expect([c1.statusCode, c2.statusCode].sort()).toEqual([200, 409]);
    const [{ n }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from transactions where deal_id = $1`,
      [d.dealId],
    );
    expect(n).toBe(1);
    const e = await shipped();
    clock += 15 * DAY;
    const job = postJob();
    const [r1, r2] = await Promise.all([job(new Date(clock)), job(new Date(clock))]);
    expect([...r1, ...r2].filter((id) => id === e.dealId)).toHaveLength(1);
    expect((await steps(e)).filter((s: string) => s === 'post.window_closed')).toHaveLength(1);
  });
});

/** The window job of the app under test, as its timer runs it, on the injected clock. */
function postJob() {
  return (at: Date) => runJob(t.app, 'post window', at) as Promise<string[]>;
}
