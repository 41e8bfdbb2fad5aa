import { afterAll, expect } from 'vitest';
import type { PaymentsConfig } from '../../config';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, requester, type Member } from '../../test/members';
import { openDealBetween, type OpenDeal } from '../../test/deals';
import { createPaymentsContext } from './service';
import type { PaymentsContext } from './queries';
import { startFakeStripe, type FakeStripe } from '../../test/stripe/fake-stripe';

export const SECRET_KEY = 'sk_test_scaffale';
export const WEBHOOK_SECRET = 'whsec_scaffale_test';
/** The Connect endpoint's secret (connected accounts' events), configured after a comma. */
export const CONNECT_WEBHOOK_SECRET = 'whsec_scaffale_connect';

export interface PaymentsWorld {
  t: TestApp;
  fake: FakeStripe;
  req: ReturnType<typeof requester>;
  /** The payments module's functions on the app's database and a Stripe client of its own. */
  ctx: PaymentsContext;
  settings: PaymentsConfig;
}

/**
 * An app with payments on, its Stripe client pointed at a local fake of Stripe whose events are
 * delivered to the app's webhook as Stripe delivers them (no Origin, signed). Fee: 5% + €0.70;
 * 48 hours to pay. The fake is closed after the file.
 */
export async function createPaymentsWorld(now?: () => Date): Promise<PaymentsWorld> {
  // The fake needs the app's address and the app the fake's: the app is set once built.
  const app: { t?: TestApp } = {};
  const fake = await startFakeStripe({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    webhook: async (payload, signature) =>
      deliver(app.t!, payload, signature).then((r) => r.statusCode),
  });
  afterAll(() => fake.close());
  const settings: PaymentsConfig = {
    secretKey: SECRET_KEY,
    webhookSecret: `${WEBHOOK_SECRET}, ${CONNECT_WEBHOOK_SECRET}`,
    apiUrl: fake.url,
    buyerFeePercent: 5,
    buyerFeeFixedCents: 70,
    payWithinHours: 48,
    accountCountry: 'IT',
  };
  const t = await createTestApp({ config: { payments: settings }, deps: now ? { now } : {} });
  app.t = t;
  const ctx = createPaymentsContext({
    config: t.config,
    database: t.database,
    log: t.app.log,
    now: now ?? (() => new Date()),
  });
  return { t, fake, req: requester(t), ctx, settings };
}

/** A webhook request as Stripe sends it: JSON body, Stripe-Signature, no Origin or cookie. */
export function deliver(t: TestApp, payload: string, signature?: string) {
  return t.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      origin: undefined,
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
}

/** The seller sets up payments on the fake's onboarding page, as in a browser. */
export async function onboard(w: PaymentsWorld, seller: Member): Promise<string> {
  const res = await w.req('POST', '/api/payments/account/onboarding', seller);
  expect(res.statusCode, res.body).toBe(200);
  const done = await fetch(res.json().url, { method: 'POST', redirect: 'manual' });
  expect(done.status).toBe(303);
  return accountOf(w, seller);
}

/** The id of the member's Stripe account. */
export async function accountOf(w: PaymentsWorld, who: Member): Promise<string> {
  const [row] = await w.t.database.query<{ stripe_account_id: string }>(
    'select stripe_account_id from payment_accounts where user_id = $1',
    [who.id],
  );
  return row.stripe_account_id;
}

/**
 * The usual start of a payments test file: the world and `count` members signed up, the first a
 * seller who has set up payments: `[w, seller, buyer] = await worldWithSeller(2)`.
 */
export async function worldWithSeller(
  count: number,
  now?: () => Date,
): Promise<[PaymentsWorld, ...Member[]]> {
  const w = await createPaymentsWorld(now);
  const members = await Promise.all(Array.from({ length: count }, () => createMember(w.t)));
  await onboard(w, members[0]);
  return [w, ...members];
}

/** The buyer pays on the fake's hosted Checkout page; returns the Checkout session's id. */
export async function pay(w: PaymentsWorld, buyer: Member, dealId: string): Promise<string> {
  const res = await w.req('POST', `/api/deals/${dealId}/payment/checkout`, buyer);
  expect(res.statusCode, res.body).toBe(200);
  const url = res.json().url as string;
  const paid = await fetch(url, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  return url.split('/').pop()!;
}

/** A deal by post (book 10 + shipping 4) between an onboarded seller and the buyer. */
export function postDeal(w: PaymentsWorld, seller: Member, buyer: Member): Promise<OpenDeal> {
  return openDealBetween(w.t, seller, buyer, { listing: { shippingCost: 4 }, amount: 10 });
}

/** A deal by post (postDeal) paid, its address given and its parcel shipped with `tracking`. */
export async function paidAndShipped(
  w: PaymentsWorld,
  seller: Member,
  buyer: Member,
  tracking: string,
): Promise<OpenDeal> {
  const d = await postDeal(w, seller, buyer);
  await pay(w, buyer, d.dealId);
  expect(
    (await w.req('POST', `/api/deals/${d.dealId}/address`, buyer, { address })).statusCode,
  ).toBe(200);
  const shipped = await w.req('POST', `/api/deals/${d.dealId}/ship`, seller, {
    carrier: 'brt',
    tracking,
  });
  expect(shipped.statusCode, shipped.body).toBe(200);
  return d;
}

export async function paymentOf(w: PaymentsWorld, dealId: string, who: Member) {
  const res = await w.req('GET', `/api/deals/${dealId}/payment`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().payment;
}

export async function ledger(w: PaymentsWorld, dealId: string) {
  return w.t.database.query<{ kind: string; amount_cents: number; stripe_id: string | null }>(
    `select kind, amount_cents, stripe_id from payment_ledger where deal_id = $1 order by id`,
    [dealId],
  );
}

/** The fake's requests to `method path` (e.g. POST /v1/transfers). */
export const calls = (w: PaymentsWorld, method: string, path: string) =>
  w.fake.requests.filter((r) => r.method === method && r.path === path);

export const address = {
  name: 'Bruno Compratore',
  street: 'Via Roma 1',
  postalCode: '00184',
  city: 'Roma',
  region: 'RM',
  country: 'IT',
  phone: '+39 333 1234567',
};
