import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseForm } from './form';
import {
  FakeStripeState,
  StripeError,
  stripeId,
  visible,
  type Params,
  type StripeObject,
} from './fake-stripe-api';
import {
  checkoutPage,
  closedPage,
  expressDashboardPage,
  onboardingPage,
} from './fake-stripe-pages';

/**
 * A local stand-in for Stripe's API (https://api.stripe.com/v1) for what the app uses: Connect
 * Express accounts, account links and login links to the Express dashboard, Checkout sessions with a hosted payment page, payment
 * intents, transfers and refunds. It speaks Stripe's protocol: form-encoded requests, a secret
 * key as bearer, JSON objects with Stripe's ids and fields, Stripe's error format, idempotency
 * keys (the same key answers the same, other parameters are an idempotency_error), lists with
 * `has_more` and `starting_after`. Paying on the hosted page or finishing onboarding sends the
 * webhook event signed as Stripe signs (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, t.body)`)
 * before sending the browser back to the app. Run standalone for the e2e suite:
 * `tsx fake-stripe.ts` (PORT, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, WEBHOOK_URL).
 */
export interface FakeStripeOptions {
  port?: number;
  secretKey?: string;
  webhookSecret?: string;
  /** Where events go: the app's webhook URL, or a function (API tests inject into the app). */
  webhook?: string | ((payload: string, signature: string) => Promise<number>);
}

export interface FakeStripe {
  /** Base URL to use as STRIPE_API_URL. */
  url: string;
  state: FakeStripeState;
  /** Every API request received. */
  requests: { method: string; path: string; idempotencyKey?: string; params: Params }[];
  /** Every event sent, and the status the app answered. */
  deliveries: { event: StripeObject; status: number }[];
  /** The next request matching method and path prefix fails with this Stripe error. */
  failNext(method: string, pathPrefix: string, status: number, error: StripeError['body']): void;
  /**
   * The next request matching does its work (and keeps it for its idempotency key) but its
   * answer is lost: a 500 the client must not retry, as when a connection breaks after Stripe
   * acted.
   */
  loseAnswer(method: string, pathPrefix: string): void;
  /** Pay a Checkout session as the buyer would on the hosted page (sends the event). */
  pay(sessionId: string): Promise<StripeObject>;
  completeOnboarding(accountId: string): Promise<StripeObject>;
  dispute(paymentIntentId: string, amount?: number): Promise<StripeObject>;
  /** Send an event of `type` about `object`, signed; returns the app's status. */
  send(type: string, object: StripeObject): Promise<number>;
  /** The Stripe-Signature header of `payload`, as Stripe computes it. */
  sign(payload: string, timestamp?: number): string;
  close(): Promise<void>;
}

const API_VERSION = '2026-11-18.endive';

export function stripeSignature(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? 'sk_test_fake';
  const webhookSecret = options.webhookSecret ?? 'whsec_fake';
  let baseUrl = '';
  const state = new FakeStripeState(() => baseUrl);
  const idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  const failures: {
    method: string;
    prefix: string;
    status: number;
    error?: StripeError['body'];
  }[] = [];
  const requests: FakeStripe['requests'] = [];
  const deliveries: FakeStripe['deliveries'] = [];

  const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000)) =>
    stripeSignature(payload, webhookSecret, timestamp);

  async function send(type: string, object: StripeObject): Promise<number> {
    const event = {
      id: stripeId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: state.now(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: visible(object) },
    };
    const payload = JSON.stringify(event, null, 2);
    const signature = sign(payload);
    let status = 0;
    const target = options.webhook;
    if (typeof target === 'function') status = await target(payload, signature);
    else if (target) {
      const res = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
        },
        body: payload,
      }).catch(() => null);
      status = res?.status ?? 0;
    }
    deliveries.push({ event, status });
    return status;
  }

  /** The API: which call a method and path are, and its answer. */
  function api(method: string, path: string, params: Params): unknown {
    const parts = path.split('/').filter(Boolean).slice(1); // after "v1"
    const [resource, id, action] = parts;
    if (parts[0] === 'checkout') {
      const [, , sessionId, verb] = parts;
      if (method === 'POST' && !sessionId) return state.createCheckoutSession(params);
      if (method === 'GET' && !sessionId)
        return state.list(
          'checkout.session',
          path,
          params,
          (o) =>
            (!params.payment_intent || o.payment_intent === params.payment_intent) &&
            (!params.status || o.status === params.status),
        );
      if (method === 'GET' && sessionId && !verb)
        return state.get('checkout session', 'cs_', sessionId);
      if (method === 'POST' && verb === 'expire') {
        const session = state.expireSession(sessionId);
        void send('checkout.session.expired', session);
        return session;
      }
    }
    switch (`${method} ${resource}${id ? '/:id' : ''}${action ? `/${action}` : ''}`) {
      case 'POST accounts':
        return state.createAccount(params);
      case 'GET accounts/:id':
        return state.get('account', 'acct_', id);
      case 'POST accounts/:id/login_links':
        return state.createLoginLink(id, params);
      case 'POST account_links':
        return state.createAccountLink(params);
      case 'GET payment_intents/:id':
        return state.get('payment_intent', 'pi_', id);
      case 'POST transfers':
        return state.createTransfer(params);
      case 'GET transfers/:id':
        return state.get('transfer', 'tr_', id);
      case 'GET transfers':
        return state.list(
          'transfer',
          path,
          params,
          (o) =>
            (!params.transfer_group || o.transfer_group === params.transfer_group) &&
            (!params.destination || o.destination === params.destination),
        );
      case 'POST refunds':
        return state.createRefund(params);
      case 'GET refunds/:id':
        return state.get('refund', 're_', id);
      case 'GET refunds':
        return state.list(
          'refund',
          path,
          params,
          (o) => !params.payment_intent || o.payment_intent === params.payment_intent,
        );
    }
    throw new StripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  function answer(res: ServerResponse, status: number, body: string, headers: object = {}) {
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': stripeId('req', 14),
      'stripe-version': API_VERSION,
      ...headers,
    });
    res.end(body);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL) {
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    const params = parseForm(method === 'GET' ? url.search.slice(1) : raw);
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const key = header('idempotency-key');
    requests.push({ method, path: url.pathname, idempotencyKey: key, params });
    const error = (status: number, body: StripeError['body']) =>
      answer(res, status, JSON.stringify({ error: body }, null, 2));
    if (header('authorization') !== `Bearer ${secretKey}`)
      return error(401, {
        type: 'invalid_request_error',
        message: `Invalid API Key provided: ${(header('authorization') ?? '').slice(7, 15)}***`,
      });
    const fingerprint = `${method} ${url.pathname} ${raw}`;
    if (method === 'POST' && key) {
      const seen = idempotent.get(key);
      if (seen && seen.fingerprint !== fingerprint)
        return error(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        });
      if (seen) return answer(res, seen.status, seen.body, { 'idempotent-replayed': 'true' });
    }
    const failure = failures.findIndex(
      (f) => f.method === method && url.pathname.startsWith(f.prefix),
    );
    const injected = failure >= 0 ? failures.splice(failure, 1)[0] : undefined;
    if (injected?.error) return error(injected.status, injected.error);
    let status = 200;
    let body: string;
    try {
      const result = api(method, url.pathname, params) as StripeObject;
      body = JSON.stringify(result.object === 'list' ? result : visible(result), null, 2);
    } catch (err) {
      if (!(err instanceof StripeError)) throw err;
      status = err.status;
      body = JSON.stringify({ error: err.body }, null, 2);
    }
    // Stripe keeps the result of a request that ran for its key, not of one refused as invalid.
    if (method === 'POST' && key && status !== 400 && status !== 404)
      idempotent.set(key, { fingerprint, status, body });
    if (injected)
      return answer(
        res,
        500,
        JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }),
        { 'stripe-should-retry': 'false' },
      );
    return answer(res, status, body);
  }

  async function handlePage(req: IncomingMessage, res: ServerResponse, url: URL) {
    const html = (status: number, page: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    };
    const redirect = (to: string) => {
      res.writeHead(303, { location: to });
      res.end();
    };
    const [, area, kind, id] = url.pathname.split('/');
    if (area === 'checkout' && kind === 'pay' && id) {
      const session = state.objects.get(id);
      if (!session || session.object !== 'checkout.session') return html(404, closedPage());
      if (session.status !== 'open') return html(410, closedPage());
      if (req.method === 'POST') {
        await pay(id);
        return redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', id));
      }
      return html(200, checkoutPage(session));
    }
    if (area === 'express' && kind) {
      const login = state.logins.get(kind);
      if (!login || login.used) return html(410, closedPage());
      login.used = true;
      const transfers = [...state.objects.values()].filter(
        (o) => o.object === 'transfer' && o.destination === login.account,
      );
      return html(
        200,
        expressDashboardPage(state.get('account', 'acct_', login.account), transfers),
      );
    }
    if (area === 'connect' && kind === 'onboarding' && id) {
      const link = state.links.get(id);
      if (!link) return html(404, closedPage());
      if (link.used) return redirect(link.refreshUrl);
      if (req.method === 'POST') {
        link.used = true;
        await completeOnboarding(link.account);
        return redirect(link.returnUrl);
      }
      return html(200, onboardingPage(state.get('account', 'acct_', link.account)));
    }
    return html(404, closedPage());
  }

  async function pay(sessionId: string) {
    const session = state.paySession(sessionId);
    await send('checkout.session.completed', session);
    return session;
  }
  async function completeOnboarding(accountId: string) {
    const account = state.completeOnboarding(accountId);
    await send('account.updated', account);
    return account;
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const work = url.pathname.startsWith('/v1/')
      ? handleApi(req, res, url)
      : handlePage(req, res, url);
    work.catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    state,
    requests,
    deliveries,
    failNext: (method, prefix, status, error) => failures.push({ method, prefix, status, error }),
    loseAnswer: (method, prefix) => failures.push({ method, prefix, status: 500 }),
    pay,
    completeOnboarding,
    async dispute(paymentIntentId, amount) {
      const dispute = state.createDispute(paymentIntentId, amount);
      await send('charge.dispute.created', dispute);
      return dispute;
    },
    send,
    sign,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fake = await startFakeStripe({
    port: Number(process.env.PORT ?? 3197),
    secretKey: process.env.STRIPE_SECRET_KEY,
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
    webhook: process.env.WEBHOOK_URL,
  });
  process.stdout.write(`fake Stripe on ${fake.url}\n`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
