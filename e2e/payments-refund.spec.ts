import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { test, expect, chooseLanguage, expectFitsWidth, uniqueWord } from './fixtures';
import { apiPost, originOf } from './api';
import { openMember, type OpenMember } from './members';

/**
 * A problem's case refunded in part (issue 36), on the app with payments on: a sale by post is
 * paid on Stripe's page and shipped, the buyer reports a problem, and an admin closes the case in
 * /admin with a partial refund (the control refuses an amount over what is held, and nothing);
 * the buyer sees the refunded amount, the seller the rest released, on the deal's card, in the
 * conversation and on their Payments page, with the link to their Stripe dashboard. Twice: in
 * English on a 1280 px screen, and in Italian on a 375 px phone, where nothing scrolls sideways.
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

/** What each side reads, in each language the journey runs in (money as the app writes it). */
const looks = [
  {
    language: 'en',
    width: 1280,
    makeOffer: 'Make an offer',
    offerAmount: 'Your offer (EUR)',
    sendOffer: 'Send offer',
    offerFee: 'Buyer protection: €1.40',
    offerTotal: 'To pay in the app: €15.40',
    offerHelp: '5% of books and shipping plus €0.70',
    adminTab: 'Parcel problems',
    openOnly: 'Open cases only',
    openCase: 'Open the case',
    lines: 'Books €10.00 · shipping €4.00 · buyer protection €1.40',
    held: 'The buyer paid €15.40 (buyer protection €1.40 included); €14.00 is held for the seller.',
    partial: /partial refund/,
    amount: /Amount to refund/,
    close: 'Close the case',
    tooMuch: 'At most €14.00: what is held for the seller',
    nothing: 'Enter an amount greater than 0',
    state: '€9.00 sent to the seller. €5.00 refunded to the buyer.',
    paidInAll: 'Paid in all: €15.40',
    refundedStep: 'Money was refunded to the buyer',
    termsHeading: /In-app payment and buyer protection/,
    termsFee:
      'the buyer-protection fee is 5% of the books and shipping, rounded to the cent, plus €0.70 per deal',
    released: 'Released',
    releasedStep: 'The money was sent to the seller',
    sent: '€9.00',
    refunded: '€5.00',
    dashboard: 'Open your Stripe dashboard',
  },
  {
    language: 'it',
    width: 375,
    makeOffer: "Fai un'offerta",
    offerAmount: 'La tua offerta (EUR)',
    sendOffer: "Invia l'offerta",
    offerFee: 'Protezione acquisti: 1,40\u00a0€',
    offerTotal: 'Da pagare nell’app: 15,40\u00a0€',
    offerHelp: '5% di libri e spedizione più 0,70\u00a0€',
    adminTab: 'Problemi con le spedizioni',
    openOnly: 'Solo le pratiche aperte',
    openCase: 'Apri la pratica',
    lines: 'Libri 10,00\u00a0€ · spedizione 4,00\u00a0€ · protezione acquisti 1,40\u00a0€',
    held: 'Chi compra ha pagato 15,40\u00a0€ (protezione acquisti di 1,40\u00a0€ inclusa); 14,00\u00a0€ restano custoditi per chi vende.',
    partial: /rimborso parziale/,
    amount: /Importo da rimborsare/,
    close: 'Chiudi il caso',
    tooMuch: 'Al massimo 14,00\u00a0€: la somma custodita per chi vende',
    nothing: 'Indica un importo maggiore di 0',
    state: '9,00\u00a0€ inviati a chi vende. 5,00\u00a0€ rimborsati a chi compra.',
    paidInAll: 'Pagato in tutto: 15,40\u00a0€',
    refundedStep: 'Una somma è stata rimborsata a chi compra',
    termsHeading: /Pagamento nell’app e protezione acquisti/,
    termsFee:
      'la protezione acquisti costa il 5% di libri e spedizione, arrotondato al centesimo, più 0,70\u00a0€ per trattativa',
    released: 'Rilasciato',
    releasedStep: 'I soldi sono stati inviati a chi vende',
    sent: '9,00\u00a0€',
    refunded: '5,00\u00a0€',
    dashboard: 'Apri la tua dashboard Stripe',
  },
] as const;

/** A form post to one of the stand-in Stripe's hosted pages, as its button does. */
async function submitStripePage(page: Page, url: string) {
  const res = await page.request.post(url, { maxRedirects: 0 });
  expect(res.status()).toBe(303);
}

for (const look of looks) {
  test(`an admin refunds part of a paid deal’s case: the buyer gets it back, the seller the rest (${look.language}, ${look.width} px)`, async ({
    browser,
  }) => {
    const seller = await openMember(browser);
    const buyer = await openMember(browser);
    const admin = await openMember(browser);
    members.push(seller, buyer, admin);
    // Each reads the app in the look's language, on a screen of its width.
    for (const m of [seller, buyer, admin]) {
      await chooseLanguage(m.page, look.language);
      await expect(m.page.locator('html')).toHaveAttribute('lang', look.language);
      await m.page.setViewportSize({ width: look.width, height: 900 });
    }
    const title = `Marcovaldo ${uniqueWord('')}`;

    // The seller sets up payments; a sale by post of €10 with €4 shipping (€1.40 fee: €15.40).
    const onboarding = await apiPost(seller.page, '/api/payments/account/onboarding', {});
    await submitStripePage(seller.page, onboarding.url);
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
    // The buyer sees the fee before making the offer: €10 + €4 shipping + €1.40 = €15.40.
    await buyer.page.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
    await buyer.page.getByRole('button', { name: look.makeOffer }).click();
    const dialog = buyer.page.getByRole('dialog', { name: look.makeOffer });
    await dialog.getByLabel(look.offerAmount).fill('10');
    const fee = dialog.getByTestId('offer-fee');
    await expect(fee).toContainText(look.offerFee);
    await expect(fee).toContainText(look.offerTotal);
    await expect(fee).toContainText(look.offerHelp);
    await expectFitsWidth(buyer.page, look.width);
    await dialog.getByRole('button', { name: look.sendOffer }).click();
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
    await a.goto('/admin');
    await a.getByRole('tab', { name: look.adminTab }).click();
    // Closed cases stay in the list, so the card shows where the money went.
    await a.getByRole('checkbox', { name: look.openOnly }).uncheck();
    const row = a.getByTestId('deal-case-row').filter({ hasText: title });
    await row.getByRole('button', { name: look.openCase }).click();
    await expect(paymentOf(a).getByTestId('payment-lines')).toHaveText(look.lines);
    const control = row.getByTestId('case-refund');
    await expect(control).toContainText(look.held);
    await expectFitsWidth(a, look.width);
    await control.getByRole('radio', { name: look.partial }).check();
    const amount = control.getByRole('textbox', { name: look.amount });
    await amount.fill('20');
    await control.getByRole('button', { name: look.close }).click();
    await expect(control.getByText(look.tooMuch)).toBeVisible();
    await amount.fill('0');
    await control.getByRole('button', { name: look.close }).click();
    await expect(control.getByText(look.nothing)).toBeVisible();
    await amount.fill('5');
    await control.getByRole('button', { name: look.close }).click();
    await expect(paymentOf(a).getByTestId('payment-state')).toHaveText(look.state);
    await expectFitsWidth(a, look.width);

    // The buyer sees the refund, on the card and in the conversation.
    const b = buyer.page;
    await b.goto(`/profile/${buyer.id}/chats?room=${deal.roomId}`);
    await expect(paymentOf(b).getByTestId('payment-state')).toHaveText(look.state);
    await expect(paymentOf(b).getByText(look.paidInAll)).toBeVisible();
    await expect(b.getByTestId('deal-step').filter({ hasText: look.refundedStep })).toBeVisible();
    await expectFitsWidth(b, look.width);

    // The terms say what the fee buys, and this site's fee.
    await b.goto('/terms-of-service');
    await expect(b.getByRole('heading', { name: look.termsHeading, level: 2 })).toBeVisible();
    await expect(b.getByTestId('terms-fee')).toContainText(look.termsFee);
    await expectFitsWidth(b, look.width);

    // The seller sees the rest released, and on their Payments page, with their Stripe dashboard.
    const s = seller.page;
    await s.goto(`/profile/${seller.id}/chats?room=${deal.roomId}`);
    await expect(paymentOf(s).getByText(look.released)).toBeVisible();
    await expect(s.getByTestId('deal-step').filter({ hasText: look.releasedStep })).toBeVisible();
    await s.goto(`/profile/${seller.id}/payments`);
    const money = s.getByTestId('payments-money');
    await expect(money).toContainText(look.sent);
    await expect(money).toContainText(look.refunded);
    await expectFitsWidth(s, look.width);
    const dashboard = await s.request.post('/api/payments/account/dashboard', {
      headers: { origin: originOf(s) },
    });
    expect(dashboard.status()).toBe(200);
    await s.getByRole('button', { name: look.dashboard }).click();
    await expect(s.getByRole('heading', { name: 'Express dashboard' })).toBeVisible();
    await expect(s.getByText(/Transfers received: 1, 9\.00 EUR/)).toBeVisible();
  });
}
