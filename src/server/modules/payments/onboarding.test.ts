import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { expectRefusal, requester } from '../../test/members';
import { calls, createPaymentsWorld, onboard, type PaymentsWorld } from './world.fixture';

/**
 * Sellers set up payments (issue 36): one Stripe Express account per seller, created through the
 * API as Stripe expects it, a single-use onboarding link to Stripe's hosted page, the account's
 * state from Stripe's event and read again from Stripe; payments off leaves everything as today.
 */
let w: PaymentsWorld;
let seller: Member;
let other: Member;

beforeAll(async () => {
  w = await createPaymentsWorld();
  [seller, other] = await Promise.all([createMember(w.t), createMember(w.t)]);
}, 120_000);

describe('setting up payments', () => {
  it('asks a visitor to sign in', async () => {
    expect((await w.req('GET', '/api/payments/account')).statusCode).toBe(401);
    expect((await w.req('POST', '/api/payments/account/onboarding')).statusCode).toBe(401);
  });

  it('shows a seller who has not set up payments the fee and nothing else', async () => {
    const res = await w.req('GET', '/api/payments/account', other);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      enabled: true,
      fee: { percent: 5, fixedCents: 70 },
      account: { state: 'none', detailsSubmitted: false, payoutsEnabled: false },
      money: [],
    });
  });

  it('creates one Express account, links to the hosted onboarding, and is ready after it', async () => {
    const first = await w.req('POST', '/api/payments/account/onboarding', seller);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().url).toMatch(new RegExp(`^${w.fake.url}/connect/onboarding/`));
    const created = calls(w, 'POST', '/v1/accounts');
    expect(created).toHaveLength(1);
    expect(created[0].params).toMatchObject({
      type: 'express',
      country: 'IT',
      email: seller.email,
      capabilities: { transfers: { requested: 'true' } },
      metadata: { user_id: seller.id },
    });
    expect(created[0].idempotencyKey).toBe(`account-${seller.id}`);
    const link = calls(w, 'POST', '/v1/account_links').at(-1)!;
    expect(link.params).toMatchObject({
      type: 'account_onboarding',
      return_url: `http://localhost:3000/profile/${seller.id}/payments?onboarding=return`,
      refresh_url: `http://localhost:3000/profile/${seller.id}/payments?onboarding=refresh`,
    });
    const pending = await w.req('GET', '/api/payments/account', seller);
    expect(pending.json().account.state).toBe('pending');

    // The onboarding page sends the seller back to their payments page, and Stripe's event in.
    const page = await fetch(first.json().url, { method: 'POST', redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toContain('onboarding=return');
    expect(w.fake.deliveries.at(-1)).toMatchObject({
      event: { type: 'account.updated' },
      status: 200,
    });
    const ready = await w.req('GET', '/api/payments/account', seller);
    expect(ready.json().account).toEqual({
      state: 'ready',
      detailsSubmitted: true,
      payoutsEnabled: true,
    });
    // A used link goes back to the refresh URL; asking again gives a new link, same account.
    const reused = await fetch(first.json().url, { redirect: 'manual' });
    expect(reused.headers.get('location')).toContain('onboarding=refresh');
    const again = await w.req('POST', '/api/payments/account/onboarding', seller);
    expect(again.json().url).not.toBe(first.json().url);
    expect(calls(w, 'POST', '/v1/accounts')).toHaveLength(1);
    // Each member sees their own account only.
    expect((await w.req('GET', '/api/payments/account', other)).json().account.state).toBe('none');
  });

  it('reads the state again from Stripe when the seller opens the page', async () => {
    const member = await createMember(w.t);
    const account = await onboard(w, member);
    // Stripe restricts the account without our having heard of it yet.
    w.fake.state.objects.get(account)!.capabilities = { transfers: 'inactive' };
    const res = await w.req('GET', '/api/payments/account', member);
    expect(res.json().account.state).toBe('pending');
  });

  it('says so in the member’s language when Stripe does not answer, and keeps nothing half-made', async () => {
    const member = await createMember(w.t);
    for (let i = 0; i < 2; i++)
      w.fake.failNext('POST', '/v1/accounts', 400, {
        type: 'invalid_request_error',
        message: 'Connect is not enabled on this platform',
      });
    await expectRefusal(w.t, ['POST', '/api/payments/account/onboarding', member, undefined], {
      status: 503,
      en: 'The payment service did not answer: try again in a moment',
      it: 'Il servizio di pagamento non risponde: riprova tra poco',
    });
    const rows = await w.t.database.query('select 1 from payment_accounts where user_id = $1', [
      member.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('links a seller to their Stripe Express dashboard once set up, and nobody before', async () => {
    const member = await createMember(w.t);
    expect((await w.req('POST', '/api/payments/account/dashboard')).statusCode).toBe(401);
    await expectRefusal(w.t, ['POST', '/api/payments/account/dashboard', member, undefined], {
      status: 409,
      en: 'Finish setting up payments first: the Stripe dashboard opens once you have',
      it: 'Completa prima l’attivazione dei pagamenti: la dashboard di Stripe si apre quando è finita',
    });
    const account = await onboard(w, member);
    const res = await w.req('POST', '/api/payments/account/dashboard', member);
    expect(res.statusCode, res.body).toBe(200);
    const sent = w.fake.requests.filter((r) => r.path === `/v1/accounts/${account}/login_links`);
    expect(sent).toHaveLength(1);
    // The link opens the member's own dashboard, once.
    const page = await fetch(res.json().url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(account);
    expect((await fetch(res.json().url)).status).toBe(410);
    // Each click is a fresh link.
    const again = await w.req('POST', '/api/payments/account/dashboard', member);
    expect(again.json().url).not.toBe(res.json().url);
  });

  it('is documented in the OpenAPI document with its errors', async () => {
    const doc = (await w.req('GET', '/api/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/payments/account/onboarding'].post.responses)).toEqual(
      expect.arrayContaining(['200', '401', '409', '503']),
    );
    expect(Object.keys(doc.paths['/api/payments/account/dashboard'].post.responses)).toEqual(
      expect.arrayContaining(['200', '401', '409', '503']),
    );
    expect(Object.keys(doc.paths['/api/payments/account'].get.responses)).toEqual(
      expect.arrayContaining(['200', '401']),
    );
    expect(Object.keys(doc.paths['/api/payments/webhook'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '404', '503']),
    );
  });
});

describe('with payments off (no STRIPE_SECRET_KEY)', () => {
  it('says payments are off and refuses to onboard', async () => {
    const off = await createTestApp();
    const member = await createMember(off);
    const req = requester(off);
    expect((await req('GET', '/api/payments/account', member)).json()).toMatchObject({
      enabled: false,
      fee: null,
      account: { state: 'none' },
    });
    await expectRefusal(off, ['POST', '/api/payments/account/onboarding', member, undefined], {
      status: 409,
      en: 'In-app payment is off on this site',
      it: 'Il pagamento nell’app non è attivo su questo sito',
    });
    const hook = await off.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', origin: undefined },
      payload: '{}',
    });
    expect(hook.statusCode).toBe(404);
  });
});
