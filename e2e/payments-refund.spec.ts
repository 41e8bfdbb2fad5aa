import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { test, expect, uniqueWord } from './fixtures';
import { apiPost, originOf } from './api';
import { openMember, type OpenMember } from './members';

/**
 * A problem's case refunded in part (issue 36), on the app with payments on: a sale by post is
 * paid on Stripe's page and shipped, the buyer reports a problem, and an admin closes the case in
 * /admin with a partial refund (the control refuses an amount over what is held, and nothing);
 * the buyer sees the refunded amount, the seller the rest released, on the deal's card, in the
 * conversation and on their Payments page, with the link to their Stripe dashboard.
 */
test.use({ locale: 'en-US', baseURL: process.env.E2E_PAYMENTS_URL });
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const members: OpenMember[] = [];
test.afterAll(async () => {
  for (const m of members) await m.context.close();
});

const paymentOf = (page: Page) => page.getByTestId('deal-card').last().getByTestId('deal-payment');

/** `npm run admin -- grant EMAIL` on the payments app's data folder. */
const grantAdmin = (email: string) =>
  execFileSync('node_modules/.bin/tsx', ['scripts/admin.ts', 'grant', email], {
    env: { ...process.env, DATA_DIR: process.env.E2E_PAYMENTS_DATA_DIR, DATABASE_URL: '' },
    encoding: 'utf8',
  });

/** A form post to one of the stand-in Stripe's hosted pages, as its button does. */
async function submitStripePage(page: Page, url: string) {
  const res = await page.request.post(url, { maxRedirects: 0 });
  expect(res.status()).toBe(303);
}

test('an admin refunds part of a paid deal’s case: the buyer gets it back, the seller the rest', async ({
  browser,
}) => {
  const seller = await openMember(browser);
  const buyer = await openMember(browser);
  const admin = await openMember(browser);
  members.push(seller, buyer, admin);
  const title = `Marcovaldo ${uniqueWord('')}`;

  // The seller sets up payments; a sale by post of €10 with €4 shipping (€1.40 fee: €15.40).
  const onboarding = await apiPost(seller.page, '/api/payments/account/onboarding', {});
  await submitStripePage(seller.page, onboarding.url);
  // The buyer sees the fee before making the offer: €10 + €4 shipping + €1.40 = €15.40.
  const { id: listingId } = await apiPost(seller.page, '/api/listings', {
    mode: 'full',
    title,
    author: 'Italo Calvino',
    genre: 'fiction',
    condition: 'good',
    listingType: 'sell',
    price: 10,
    currency: 'EUR',
    shippingCost: 4,
    description: 'Edizione Einaudi.',
  });
  const { roomId } = await apiPost(buyer.page, '/api/chats/contact', {
    listingId,
    content: 'Me lo spedisci?',
  });
  await buyer.page.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
  await buyer.page.getByRole('button', { name: 'Make an offer' }).click();
  const dialog = buyer.page.getByRole('dialog', { name: 'Make an offer' });
  await dialog.getByLabel('Your offer (EUR)').fill('10');
  const fee = dialog.getByTestId('offer-fee');
  await expect(fee).toContainText('Buyer protection: €1.40');
  await expect(fee).toContainText('To pay in the app: €15.40');
  await expect(fee).toContainText('5% of books and shipping plus €0.70');
  await dialog.getByRole('button', { name: 'Send offer' }).click();
  await expect(dialog).toBeHidden();
  const offers = (await (
    await seller.page.request.get(`/api/chats/rooms/${roomId}/messages`)
  ).json()) as { items: { type: string; offer?: { id: string } }[] };
  const offerId = offers.items.find((m) => m.type === 'offer')!.offer!.id;
  const accepted = await apiPost(seller.page, `/api/chats/offers/${offerId}/accept`, {});
  const deal = { dealId: accepted.message.offer.dealId as string, roomId };

  const checkout = await apiPost(buyer.page, `/api/deals/${deal.dealId}/payment/checkout`, {});
  await submitStripePage(buyer.page, checkout.url);
  await expect
    .poll(async () => {
      const res = await buyer.page.request.get(`/api/deals/${deal.dealId}/payment`);
      return (await res.json()).payment.status;
    })
    .toBe('paid');
  await apiPost(buyer.page, `/api/deals/${deal.dealId}/address`, {
    address: {
      name: 'Bruno Compratore',
      street: 'Via Roma 1',
      postalCode: '00184',
      city: 'Roma',
      country: 'IT',
    },
  });
  await apiPost(seller.page, `/api/deals/${deal.dealId}/ship`, {
    carrier: 'poste_italiane',
    tracking: 'RR123456789IT',
  });
  await apiPost(buyer.page, `/api/deals/${deal.dealId}/problem`, {
    reason: 'damaged',
    message: 'The cover is torn.',
  });

  // The admin's case view: what was paid, and the refund control.
  expect(grantAdmin(admin.email)).toContain(`${admin.email} is now an admin.`);
  const a = admin.page;
  await a.setViewportSize({ width: 1280, height: 900 });
  await a.goto('/admin');
  await a.getByRole('tab', { name: 'Parcel problems' }).click();
  // Closed cases stay in the list, so the card shows where the money went.
  await a.getByRole('checkbox', { name: 'Open cases only' }).uncheck();
  const row = a.getByTestId('deal-case-row').filter({ hasText: title });
  await row.getByRole('button', { name: 'Open the case' }).click();
  await expect(paymentOf(a).getByTestId('payment-lines')).toHaveText(
    'Books €10.00 · shipping €4.00 · buyer protection €1.40',
  );
  const control = row.getByTestId('case-refund');
  await expect(control).toContainText(
    'The buyer paid €15.40 (buyer protection €1.40 included); €14.00 is held for the seller.',
  );
  await control.getByRole('radio', { name: /partial refund/ }).check();
  const amount = control.getByRole('textbox', { name: /Amount to refund/ });
  await amount.fill('20');
  await control.getByRole('button', { name: 'Close the case' }).click();
  await expect(control.getByText('At most €14.00: what is held for the seller')).toBeVisible();
  await amount.fill('0');
  await control.getByRole('button', { name: 'Close the case' }).click();
  await expect(control.getByText('Enter an amount greater than 0')).toBeVisible();
  await amount.fill('5');
  await control.getByRole('button', { name: 'Close the case' }).click();
  await expect(paymentOf(a).getByTestId('payment-state')).toHaveText(
    '€9.00 sent to the seller. €5.00 refunded to the buyer.',
  );

  // The buyer sees the refund, on the card and in the conversation.
  const b = buyer.page;
  await b.goto(`/profile/${buyer.id}/chats?room=${deal.roomId}`);
  await expect(paymentOf(b).getByTestId('payment-state')).toHaveText(
    '€9.00 sent to the seller. €5.00 refunded to the buyer.',
  );
  await expect(
    b.getByTestId('deal-step').filter({ hasText: 'Money was refunded to the buyer' }),
  ).toBeVisible();

  // The terms say what the fee buys, and this site's fee.
  await b.goto('/terms-of-service');
  await expect(
    b.getByRole('heading', { name: /In-app payment and buyer protection/, level: 2 }),
  ).toBeVisible();
  await expect(b.getByTestId('terms-fee')).toContainText(
    'the buyer-protection fee is 5% of the books and shipping, rounded to the cent, plus €0.70 per deal',
  );

  // The seller sees the rest released, and on their Payments page, with their Stripe dashboard.
  const s = seller.page;
  await s.goto(`/profile/${seller.id}/chats?room=${deal.roomId}`);
  await expect(paymentOf(s).getByText('Released')).toBeVisible();
  await expect(
    s.getByTestId('deal-step').filter({ hasText: 'The money was sent to the seller' }),
  ).toBeVisible();
  await s.goto(`/profile/${seller.id}/payments`);
  const money = s.getByTestId('payments-money');
  await expect(money).toContainText('€9.00');
  await expect(money).toContainText('€5.00');
  const dashboard = await s.request.post('/api/payments/account/dashboard', {
    headers: { origin: originOf(s) },
  });
  expect(dashboard.status()).toBe(200);
  await s.getByRole('button', { name: 'Open your Stripe dashboard' }).click();
  await expect(s.getByRole('heading', { name: 'Express dashboard' })).toBeVisible();
  await expect(s.getByText(/Transfers received: 1, 9\.00 EUR/)).toBeVisible();
});
