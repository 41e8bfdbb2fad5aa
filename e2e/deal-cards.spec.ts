import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { test, expect, chooseLanguage, expectFitsWidth, uniqueWord, waitForLive } from './fixtures';
import { openMember, type OpenMember } from './members';
import { apiPost } from './api';
import { acceptedOffer } from './deals';

/**
 * Deal cards that do not mislead (issue 33 item 5), in Italian and English at 375 px: a sale by
 * post offers "Cancel the deal" only before the parcel leaves, and asks first; a cancelled deal's
 * parcel line says it was cancelled, not "Done"; the buyer's answers after shipping each say what
 * they do (the 2-day window of "received", "all fine" completing at once), and completing asks.
 * With payments off (the embedded default, issue 36) the card says so and how to pay safely.
 */
test.describe.configure({ timeout: 180_000 });

type Language = 'it' | 'en';
interface Texts {
  payments: {
    deal: { safeTitle: string; off: string; safe: string };
    page: { off: string; subtitle: string };
  };
  deals: {
    cancel: string;
    cancelHelp: string;
    cancelDialog: { title: string; body: string; confirm: string; keep: string };
    status: { open: string; completed: string; cancelled: string };
    post: {
      states: Record<string, string>;
      buyer: {
        received: string;
        confirm: string;
        problem: string;
        receivedHelp: string;
        confirmHelp: string;
        problemHelp: string;
        confirmDialog: { title: string; body: string; confirm: string; keep: string };
      };
    };
  };
}
const catalogue = (language: Language) =>
  JSON.parse(readFileSync(`src/web/locales/${language}.json`, 'utf8')) as Texts;

const members: OpenMember[] = [];
test.afterAll(async () => {
  for (const m of members) await m.context.close();
});

/** A seller and a buyer in `language` at 375 px, with a sale by post just accepted. */
async function postDeal(browser: Parameters<typeof openMember>[0], language: Language) {
  const seller = await openMember(browser);
  const buyer = await openMember(browser);
  members.push(seller, buyer);
  const { roomId, dealId } = await acceptedOffer(
    seller,
    buyer,
    {
      mode: 'full',
      title: `Il cavaliere inesistente ${uniqueWord('')}`,
      author: 'Italo Calvino',
      genre: 'fiction',
      condition: 'good',
      listingType: 'sell',
      price: 9,
      currency: 'EUR',
      shippingCost: 3.5,
      description: 'Edizione Einaudi.',
    },
    { content: 'Me lo spedisci?' },
  );
  for (const m of [seller, buyer]) {
    await chooseLanguage(m.page, language);
    await expect(m.page.locator('html')).toHaveAttribute('lang', language);
    await m.page.setViewportSize({ width: 375, height: 800 });
    await m.page.goto(`/profile/${m.id}/chats?room=${roomId}`);
    await expect(m.page.locator('html')).toHaveAttribute('lang', language);
  }
  return { seller, buyer, dealId };
}

const card = (page: Page) => page.getByTestId('deal-card').last();

async function giveAddressAndShip(seller: OpenMember, buyer: OpenMember, dealId: string) {
  await apiPost(buyer.page, `/api/deals/${dealId}/address`, {
    address: {
      name: 'Bruno Rossi',
      street: 'Via Roma 1',
      postalCode: '00184',
      city: 'Roma',
      country: 'IT',
    },
  });
  await apiPost(seller.page, `/api/deals/${dealId}/ship`, { carrier: 'brt', tracking: 'BRT-77' });
}

for (const language of ['it', 'en'] as const) {
  const t = catalogue(language).deals;
  const pay = catalogue(language).payments.deal;
  const payPage = catalogue(language).payments.page;

  test(`cancelling asks first, and a cancelled deal reads as cancelled (${language}, 375 px)`, async ({
    browser,
  }) => {
    const { seller, buyer } = await postDeal(browser, language);
    const b = buyer.page;
    const deal = card(b);
    // Payments are off here (the embedded default, issue 36): the card says so, and how to pay
    // safely (in person, never by top-up or transfer to a stranger).
    const payment = deal.getByTestId('deal-payment');
    await expect(payment.getByText(pay.safeTitle, { exact: true })).toBeVisible();
    await expect(payment.getByText(pay.off, { exact: true })).toBeVisible();
    await expect(payment.getByText(pay.safe, { exact: true })).toBeVisible();
    await expect(card(seller.page).getByTestId('deal-payment')).toContainText(pay.off);
    const cancel = deal.getByRole('button', { name: t.cancel, exact: true });
    await expect(cancel).toHaveAccessibleDescription(t.cancelHelp);
    await expect(deal).toContainText(t.cancelHelp);
    await expectFitsWidth(b);

    // One click only asks; "keep" leaves the deal as it was.
    await cancel.click();
    const dialog = b.getByRole('dialog', { name: t.cancelDialog.title });
    await expect(dialog).toContainText(t.cancelDialog.body);
    await expectFitsWidth(b);
    await dialog.getByRole('button', { name: t.cancelDialog.keep, exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(deal).toContainText(t.status.open);

    // Confirmed: cancelled, and the parcel line does not say "Done" beside it.
    await cancel.click();
    await b
      .getByRole('dialog', { name: t.cancelDialog.title })
      .getByRole('button', { name: t.cancelDialog.confirm, exact: true })
      .click();
    await expect(deal).toContainText(t.status.cancelled);
    await expect(deal.getByTestId('post-state')).toHaveText(t.post.states.cancelled);
    await expect(deal).not.toContainText(t.post.states.ended);
    await expect(deal).not.toContainText(t.status.completed);
    await expect(deal.getByRole('button', { name: t.cancel, exact: true })).toHaveCount(0);

    // The seller's Payments page says payments are off and how to pay safely, and promises
    // nothing this site does not do.
    const s = seller.page;
    await s.goto(`/profile/${seller.id}/payments`);
    const off = s.getByTestId('payments-off');
    await expect(off).toContainText(payPage.off);
    await expect(off).toContainText(pay.safe);
    await expect(s.getByText(payPage.subtitle)).toHaveCount(0);
    await expectFitsWidth(s);
  });

  test(`after shipping: no cancel, the buyer's answers say what they do, completing asks (${language}, 375 px)`, async ({
    browser,
  }) => {
    const { seller, buyer, dealId } = await postDeal(browser, language);
    const s = seller.page;
    const b = buyer.page;
    await waitForLive(b);
    await giveAddressAndShip(seller, buyer, dealId);
    const buyerDeal = card(b);
    const sellerDeal = card(s);
    await s.reload();
    await expect(sellerDeal.getByTestId('post-state')).toHaveText(t.post.states.shipped);
    await expect(buyerDeal.getByTestId('post-state')).toHaveText(t.post.states.shipped);

    // Neither side is offered a cancel the server would refuse.
    for (const deal of [buyerDeal, sellerDeal])
      await expect(deal.getByRole('button', { name: t.cancel, exact: true })).toHaveCount(0);

    // Each answer carries its explanation.
    const received = buyerDeal.getByRole('button', { name: t.post.buyer.received, exact: true });
    const confirm = buyerDeal.getByRole('button', { name: t.post.buyer.confirm, exact: true });
    const problem = buyerDeal.getByRole('button', { name: t.post.buyer.problem, exact: true });
    await expect(received).toHaveAccessibleDescription(t.post.buyer.receivedHelp);
    await expect(confirm).toHaveAccessibleDescription(t.post.buyer.confirmHelp);
    await expect(problem).toHaveAccessibleDescription(t.post.buyer.problemHelp);
    for (const help of [
      t.post.buyer.receivedHelp,
      t.post.buyer.confirmHelp,
      t.post.buyer.problemHelp,
    ])
      await expect(buyerDeal.getByText(help, { exact: true })).toBeVisible();
    await expectFitsWidth(b);

    // "Received" once: then only "all fine" and a problem remain.
    await received.click();
    await expect(buyerDeal.getByTestId('post-state')).toHaveText(t.post.states.received);
    await expect(received).toHaveCount(0);
    await expect(confirm).toBeVisible();

    // Completing asks first; "not yet" leaves it open.
    await confirm.click();
    const dialog = b.getByRole('dialog', { name: t.post.buyer.confirmDialog.title });
    await expect(dialog).toContainText(t.post.buyer.confirmDialog.body);
    await dialog
      .getByRole('button', { name: t.post.buyer.confirmDialog.keep, exact: true })
      .click();
    await expect(dialog).toHaveCount(0);
    await expect(buyerDeal).toContainText(t.status.open);
    await confirm.click();
    await b
      .getByRole('dialog', { name: t.post.buyer.confirmDialog.title })
      .getByRole('button', { name: t.post.buyer.confirmDialog.confirm, exact: true })
      .click();
    await expect(buyerDeal).toContainText(t.status.completed);
    await expect(sellerDeal).toContainText(t.status.completed);
    await expect(buyerDeal.getByRole('button')).toHaveCount(0);
  });
}
