import type { Page } from '@playwright/test';
import { test, expect, expectFitsWidth, chooseLanguage } from './fixtures';
import { apiPost } from './api';
import { acceptedOffer } from './deals';
import { openMember, type OpenMember } from './members';

/**
 * In-app payments (issue 36), on the app that has them on (playwright.config.ts: its Stripe is a
 * local stand-in with Stripe's hosted pages): the seller sets up payments on Stripe's onboarding
 * page, the buyer pays the deal by post on Stripe's Checkout page and comes back to a paid deal,
 * the parcel ships, the buyer says all is fine, and the seller sees the money sent to them.
 */
test.use({ locale: 'en-US', baseURL: process.env.E2E_PAYMENTS_URL });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const members: OpenMember[] = [];
test.afterAll(async () => {
  for (const m of members) await m.context.close();
});

const paymentOf = (page: Page) => page.getByTestId('deal-card').last().getByTestId('deal-payment');

test('a seller sets up payments, a buyer pays on Stripe’s page, the money reaches the seller', async ({
  browser,
}) => {
  const seller = await openMember(browser);
  const buyer = await openMember(browser);
  members.push(seller, buyer);

  // The seller sets up payments on Stripe's hosted onboarding, and comes back.
  await seller.page.goto(`/profile/${seller.id}/payments`);
  await expect(seller.page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  await expect(seller.page.getByText('You have not set up payments yet.')).toBeVisible();
  await seller.page.getByRole('button', { name: 'Set up payments' }).click();
  await expect(seller.page.getByRole('heading', { name: 'Set up payouts' })).toBeVisible();
  await seller.page.getByRole('button', { name: 'Complete onboarding' }).click();
  await expect(seller.page).toHaveURL(/\/payments\?onboarding=return$/);
  await expect(
    seller.page.getByText('Payments are set up: buyers can pay you in the app.'),
  ).toBeVisible();
  await expect(seller.page.getByText(/buyer-protection fee of 5% plus €0\.70/)).toBeVisible();

  // A sale by post: €8 agreed, €3.50 shipping; 5% of €11.50 rounds to €0.58, plus €0.70.
  const deal = await acceptedOffer(
    seller,
    buyer,
    {
      mode: 'full',
      title: 'Le città invisibili',
      author: 'Italo Calvino',
      genre: 'fiction',
      condition: 'good',
      listingType: 'sell',
      price: 9,
      currency: 'EUR',
      shippingCost: 3.5,
      description: 'Edizione Einaudi.',
    },
    { content: 'Can you post it?', amount: 8 },
  );
  await buyer.page.goto(`/profile/${buyer.id}/chats?room=${deal.roomId}`);
  const card = paymentOf(buyer.page);
  await expect(card.getByTestId('payment-lines')).toHaveText(
    'Books €8.00 · shipping €3.50 · buyer protection €1.28',
  );
  await expect(card.getByText('To pay in all: €12.78')).toBeVisible();
  await expect(card.getByText(/^Pay by .+, or the deal is cancelled/)).toBeVisible();
  await card.getByRole('button', { name: 'Pay €12.78' }).click();

  // Stripe's hosted Checkout, then back to the conversation with the deal paid.
  await expect(buyer.page.getByRole('heading', { name: 'Pay 12.78 EUR' })).toBeVisible();
  await buyer.page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(buyer.page).toHaveURL(/chats\?room=.+&payment=done$/);
  await expect(
    paymentOf(buyer.page).getByText(
      'You paid €12.78: your money is held until the deal completes.',
    ),
  ).toBeVisible();
  await expect(paymentOf(buyer.page).getByText('Paid in all: €12.78')).toBeVisible();

  await seller.page.goto(`/profile/${seller.id}/chats?room=${deal.roomId}`);
  await expect(
    paymentOf(seller.page).getByText(
      'The buyer has paid: you receive €11.50 when the deal completes.',
    ),
  ).toBeVisible();

  // The parcel ships, the buyer says all is fine: the seller's share is sent.
  await apiPost(buyer.page, `/api/deals/${deal.dealId}/address`, {
    address: {
      name: 'Bruno Compratore',
      street: 'Via Roma 1',
      postalCode: '00184',
      city: 'Roma',
      region: 'RM',
      country: 'IT',
      phone: '',
    },
  });
  await apiPost(seller.page, `/api/deals/${deal.dealId}/ship`, {
    carrier: 'poste_italiane',
    tracking: 'RR123456789IT',
  });
  await apiPost(buyer.page, `/api/deals/${deal.dealId}/confirm`, {});
  await seller.page.reload();
  await expect(paymentOf(seller.page).getByText('€11.50 sent to the seller.')).toBeVisible();
  await expect(paymentOf(seller.page).getByText('Released')).toBeVisible();

  // The seller's page shows it, in Italian too, on a phone.
  await seller.page.goto(`/profile/${seller.id}/payments`);
  await expect(seller.page.getByTestId('payments-money')).toContainText('€11.50');
  await chooseLanguage(seller.page, 'it');
  await seller.page.setViewportSize({ width: 375, height: 800 });
  await expect(seller.page.getByRole('heading', { name: 'Pagamenti', level: 1 })).toBeVisible();
  await expect(seller.page.getByRole('columnheader', { name: 'Inviati a te' })).toBeVisible();
  await expect(seller.page.getByTestId('payments-money')).toContainText('11,50');
  await expectFitsWidth(seller.page, 375);
});
