import type { StripeObject } from './fake-stripe-api';

/** The fake's hosted pages: Checkout's payment page and Connect's onboarding, plain HTML. */
const escape = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escape(title)}</title></head>
<body style="font-family: sans-serif; max-width: 28rem; margin: 2rem auto; padding: 0 1rem">
<p>Stripe test mode (local stand-in)</p>${body}</body></html>`;

const money = (cents: number, currency: unknown) =>
  `${(cents / 100).toFixed(2)} ${String(currency).toUpperCase()}`;

export function checkoutPage(session: StripeObject): string {
  const items = (session._line_items as Record<string, Record<string, unknown>>[]).map((item) => {
    const price = item.price_data as Record<string, unknown>;
    const product = price.product_data as Record<string, unknown>;
    const quantity = Number(item.quantity ?? 1);
    return `<li>${escape(product?.name)}: ${money(Number(price.unit_amount) * quantity, session.currency)}</li>`;
  });
  return layout(
    'Pay',
    `<h1>Pay ${money(Number(session.amount_total), session.currency)}</h1>
<ul>${items.join('')}</ul>
<form method="post"><button type="submit">Pay</button></form>
${session.cancel_url ? `<p><a href="${escape(session.cancel_url)}">Back</a></p>` : ''}`,
  );
}

export function onboardingPage(account: StripeObject): string {
  return layout(
    'Onboarding',
    `<h1>Set up payouts</h1><p>Account ${escape(account.id)}</p>
<form method="post"><button type="submit">Complete onboarding</button></form>`,
  );
}

/** Connect's Express dashboard, as a login link opens it (balance and payouts of the account). */
export function expressDashboardPage(account: StripeObject, transfers: StripeObject[]): string {
  const total = transfers.reduce((sum, t) => sum + Number(t.amount), 0);
  return layout(
    'Express dashboard',
    `<h1>Express dashboard</h1><p>Account ${escape(account.id)}</p>
<p>Transfers received: ${transfers.length}, ${money(total, transfers[0]?.currency ?? 'eur')}</p>`,
  );
}

export const closedPage = () => layout('Closed', '<h1>This page is no longer available</h1>');
