import { randomBytes } from 'node:crypto';
import type { FormValue } from './form';

/**
 * The objects a local stand-in for Stripe keeps and the API calls the app makes on them, answered
 * as Stripe answers: objects with Stripe's ids and fields, errors in Stripe's format. What is not
 * used by the app is not modelled.
 */
export type StripeObject = Record<string, unknown> & { id: string; object: string };
export type Params = Record<string, FormValue>;

export class StripeError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: {
      type: string;
      code?: string;
      message: string;
      param?: string;
      decline_code?: string;
    },
  ) {
    super(body.message);
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  return `${prefix}_${Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

const invalid = (message: string, param?: string, code?: string) =>
  new StripeError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code } : {}),
    ...(param ? { param } : {}),
  });
export const missing = (type: string, id: string) =>
  new StripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${type}: '${id}'`,
    param: 'id',
  });

/** 400 parameter_unknown for a top-level parameter Stripe's endpoint does not take. */
export function onlyKnown(params: Params, known: string[]) {
  for (const key of Object.keys(params))
    if (!known.includes(key) && key !== 'expand')
      throw invalid(`Received unknown parameter: ${key}`, key, 'parameter_unknown');
}
function required(params: Params, ...keys: string[]) {
  for (const key of keys)
    if (params[key] === undefined || params[key] === '')
      throw invalid(`Missing required param: ${key}.`, key, 'parameter_missing');
}
function integer(params: Params, key: string, min = 0): number {
  const raw = params[key];
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw))
    throw invalid(`Invalid integer: ${String(raw)}`, key);
  const n = Number(raw);
  if (n < min) throw invalid(`This value must be greater than or equal to ${min}.`, key);
  return n;
}
const text = (value: FormValue | undefined) => (typeof value === 'string' ? value : null);
const metadata = (value: FormValue | undefined) =>
  value && typeof value === 'object' && !Array.isArray(value) ? value : {};

/** Everything the fake holds, and the calls that change it. */
export class FakeStripeState {
  readonly objects = new Map<string, StripeObject>();
  /** Account link tokens: which account, where to send the seller back, used once. */
  readonly links = new Map<
    string,
    { account: string; returnUrl: string; refreshUrl: string; used: boolean }
  >();

  constructor(private readonly baseUrl: () => string) {}

  now = () => Math.floor(Date.now() / 1000);

  get<T extends StripeObject = StripeObject>(type: string, prefix: string, id: string): T {
    const found = this.objects.get(id);
    if (!found || !id.startsWith(prefix)) throw missing(type, id);
    return found as T;
  }

  private put<T extends StripeObject>(o: T): T {
    this.objects.set(o.id, o);
    return o;
  }

  createAccount(params: Params): StripeObject {
    onlyKnown(params, ['type', 'country', 'email', 'capabilities', 'metadata', 'business_type']);
    if (
      params.type !== undefined &&
      !['express', 'standard', 'custom'].includes(String(params.type))
    )
      throw invalid(`Invalid type: must be one of custom, express, or standard`, 'type');
    return this.put({
      id: stripeId('acct', 16),
      object: 'account',
      type: text(params.type) ?? 'standard',
      country: text(params.country) ?? 'US',
      email: text(params.email),
      created: this.now(),
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
      capabilities: { transfers: 'inactive' },
      requirements: {
        currently_due: ['external_account', 'tos_acceptance.date'],
        disabled_reason: 'requirements.past_due',
      },
      metadata: metadata(params.metadata),
    });
  }

  createAccountLink(params: Params): StripeObject & { url: string } {
    onlyKnown(params, ['account', 'type', 'refresh_url', 'return_url', 'collect']);
    required(params, 'account', 'type');
    const account = this.get('account', 'acct_', String(params.account));
    if (params.type !== 'account_onboarding' && params.type !== 'account_update')
      throw invalid('Invalid type: must be one of account_onboarding or account_update', 'type');
    const token = stripeId('link', 20);
    this.links.set(token, {
      account: account.id,
      returnUrl: text(params.return_url) ?? '',
      refreshUrl: text(params.refresh_url) ?? '',
      used: false,
    });
    return {
      id: token,
      object: 'account_link',
      created: this.now(),
      expires_at: this.now() + 300,
      url: `${this.baseUrl()}/connect/onboarding/${token}`,
    };
  }

  /** The seller finished onboarding: the account may receive transfers and payouts. */
  completeOnboarding(accountId: string): StripeObject {
    const account = this.get('account', 'acct_', accountId);
    Object.assign(account, {
      details_submitted: true,
      charges_enabled: true,
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
      requirements: { currently_due: [], disabled_reason: null },
    });
    return account;
  }

  /** Login link tokens to an Express account's dashboard, used once. */
  readonly logins = new Map<string, { account: string; used: boolean }>();

  /**
   * A single-use link to an Express account's dashboard (POST /v1/accounts/:id/login_links):
   * only for an Express account that finished onboarding, as Stripe refuses otherwise.
   */
  createLoginLink(accountId: string, params: Params): StripeObject & { url: string } {
    onlyKnown(params, []);
    const account = this.get('account', 'acct_', accountId);
    if (account.type !== 'express')
      throw invalid('Login links can only be created for Express accounts.', 'account');
    if (!account.details_submitted)
      throw invalid(
        'Cannot create a login link for an account that has not completed onboarding.',
        'account',
      );
    const token = stripeId('login', 20);
    this.logins.set(token, { account: account.id, used: false });
    return {
      id: token,
      object: 'login_link',
      created: this.now(),
      url: `${this.baseUrl()}/express/${token}`,
    };
  }

  createCheckoutSession(params: Params): StripeObject {
    onlyKnown(params, [
      'mode',
      'line_items',
      'success_url',
      'cancel_url',
      'metadata',
      'client_reference_id',
      'payment_intent_data',
      'customer_email',
      'expires_at',
      'locale',
    ]);
    required(params, 'mode');
    if (params.mode !== 'payment') throw invalid('Only payment mode is modelled here', 'mode');
    const items = Array.isArray(params.line_items) ? params.line_items : [];
    if (items.length === 0)
      throw invalid('Missing required param: line_items.', 'line_items', 'parameter_missing');
    let total = 0;
    let currency: string | null = null;
    items.forEach((item, i) => {
      const line = item as Params;
      const price = line.price_data as Params | undefined;
      if (!price)
        throw invalid(
          'Missing required param: line_items[' + i + '][price_data].',
          `line_items[${i}][price_data]`,
          'parameter_missing',
        );
      const unit = integer(price, 'unit_amount', 0);
      const quantity = line.quantity === undefined ? 1 : integer(line, 'quantity', 1);
      const cur = String(price.currency ?? '').toLowerCase();
      if (currency && cur !== currency)
        throw invalid(
          'All line items must have the same currency.',
          `line_items[${i}][price_data][currency]`,
        );
      currency = cur;
      total += unit * quantity;
    });
    if (total < 50)
      throw invalid(
        "The Checkout Session's total amount due must add up to at least €0.50 eur",
        'line_items',
        'amount_too_small',
      );
    const expiresAt =
      params.expires_at === undefined ? this.now() + 86_400 : integer(params, 'expires_at');
    if (expiresAt < this.now() + 1_740 || expiresAt > this.now() + 86_400)
      throw invalid(
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'expires_at',
      );
    const id = stripeId('cs_test', 58);
    const pi = (params.payment_intent_data as Params | undefined) ?? {};
    return this.put({
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: total,
      amount_total: total,
      currency,
      client_reference_id: text(params.client_reference_id),
      customer_email: text(params.customer_email),
      success_url: text(params.success_url),
      cancel_url: text(params.cancel_url),
      metadata: metadata(params.metadata),
      payment_intent: null,
      // Kept for the payment intent the payment creates (not a field of the session).
      _payment_intent_data: {
        transfer_group: text(pi.transfer_group),
        metadata: metadata(pi.metadata),
      },
      _line_items: items,
      locale: text(params.locale),
      created: this.now(),
      expires_at: expiresAt,
      livemode: false,
      url: `${this.baseUrl()}/checkout/pay/${id}`,
    });
  }

  /** The buyer paid on the hosted page: a succeeded payment intent and its charge. */
  paySession(id: string): StripeObject {
    const session = this.get('checkout session', 'cs_', id);
    if (session.status !== 'open')
      throw invalid(`This Checkout Session is ${String(session.status)}.`);
    const data = session._payment_intent_data as {
      transfer_group: string | null;
      metadata: object;
    };
    const charge: StripeObject = this.put({
      id: stripeId('ch'),
      object: 'charge',
      amount: session.amount_total,
      amount_refunded: 0,
      currency: session.currency,
      paid: true,
      status: 'succeeded',
      transfer_group: data.transfer_group,
      created: this.now(),
    });
    const intent = this.put({
      id: stripeId('pi'),
      object: 'payment_intent',
      amount: session.amount_total,
      amount_received: session.amount_total,
      currency: session.currency,
      status: 'succeeded',
      latest_charge: charge.id,
      transfer_group: data.transfer_group,
      metadata: data.metadata,
      created: this.now(),
    });
    charge.payment_intent = intent.id;
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: intent.id,
    });
    return session;
  }

  expireSession(id: string): StripeObject {
    const session = this.get('checkout session', 'cs_', id);
    if (session.status !== 'open')
      throw invalid(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
      );
    session.status = 'expired';
    return session;
  }

  createTransfer(params: Params): StripeObject {
    onlyKnown(params, [
      'amount',
      'currency',
      'destination',
      'transfer_group',
      'source_transaction',
      'metadata',
      'description',
    ]);
    required(params, 'currency', 'destination', 'amount');
    const amount = integer(params, 'amount', 1);
    const destination = this.get('account', 'acct_', String(params.destination));
    const caps = destination.capabilities as { transfers?: string };
    if (caps.transfers !== 'active')
      throw invalid(
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        'destination',
        'insufficient_capabilities_for_transfer',
      );
    const source = text(params.source_transaction);
    if (source) {
      const charge = this.get('charge', 'ch_', source);
      const used = [...this.objects.values()]
        .filter((o) => o.object === 'transfer' && o.source_transaction === source)
        .reduce((sum, o) => sum + Number(o.amount), 0);
      if (amount > Number(charge.amount) - Number(charge.amount_refunded) - used)
        throw invalid(
          'Insufficient funds in the source transaction for this transfer.',
          'amount',
          'balance_insufficient',
        );
    }
    return this.put({
      id: stripeId('tr'),
      object: 'transfer',
      amount,
      amount_reversed: 0,
      reversed: false,
      currency: String(params.currency).toLowerCase(),
      destination: destination.id,
      source_transaction: source,
      transfer_group: text(params.transfer_group),
      metadata: metadata(params.metadata),
      created: this.now(),
      livemode: false,
    });
  }

  createRefund(params: Params): StripeObject {
    onlyKnown(params, ['payment_intent', 'charge', 'amount', 'metadata', 'reason']);
    if (!params.payment_intent && !params.charge)
      throw invalid(
        'One of the following params should be provided for this request: payment_intent or charge.',
        undefined,
        'parameter_missing',
      );
    const intent = this.get<StripeObject>('payment_intent', 'pi_', String(params.payment_intent));
    const charge = this.get('charge', 'ch_', String(intent.latest_charge));
    const left = Number(charge.amount) - Number(charge.amount_refunded);
    const amount = params.amount === undefined ? left : integer(params, 'amount', 1);
    if (left === 0)
      throw invalid(
        `Charge ${charge.id} has already been refunded.`,
        undefined,
        'charge_already_refunded',
      );
    if (amount > left)
      throw invalid(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        'amount',
        'amount_too_large',
      );
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    return this.put({
      id: stripeId('re'),
      object: 'refund',
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intent.id,
      status: 'succeeded',
      reason: text(params.reason),
      metadata: metadata(params.metadata),
      created: this.now(),
    });
  }

  /** The buyer's bank disputes a payment. */
  createDispute(paymentIntentId: string, amount?: number): StripeObject {
    const intent = this.get('payment_intent', 'pi_', paymentIntentId);
    return this.put({
      id: stripeId('dp'),
      object: 'dispute',
      amount: amount ?? intent.amount_received,
      currency: intent.currency,
      charge: intent.latest_charge,
      payment_intent: intent.id,
      status: 'needs_response',
      reason: 'product_not_received',
      created: this.now(),
    });
  }

  /** A list in Stripe's shape: newest first, `limit` (10) from after `starting_after`. */
  list(object: string, path: string, query: Params, filter: (o: StripeObject) => boolean) {
    const all = [...this.objects.values()]
      .filter((o) => o.object === object && filter(o))
      .reverse();
    const limit = query.limit === undefined ? 10 : Math.min(100, integer(query, 'limit', 1));
    const after = text(query.starting_after);
    const start = after ? all.findIndex((o) => o.id === after) + 1 : 0;
    const data = all.slice(start, start + limit).map(visible);
    return { object: 'list', url: path, has_more: start + limit < all.length, data };
  }
}

/** An object as the API shows it: without the fake's own bookkeeping fields. */
export function visible(o: StripeObject): StripeObject {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('_'))) as StripeObject;
}
