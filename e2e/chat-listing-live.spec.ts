import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { test, expect, chooseLanguage, expectFitsWidth, uniqueWord } from './fixtures';
import { openMember } from './members';
import { apiPost } from './api';

/**
 * What the page says is true, in a conversation: a buyer offers €7.50 on a book; the seller reads
 * the offer in their notifications in their language's money format ("7,50 €" in Italian,
 * "€7.50" in English), opens the conversation and accepts; both confirm the exchange; the buyer, who keeps the
 * conversation open, sees the listing's card turn reserved and then sold without reloading. Italian at 375 px, English at 1280 px.
 */
test.describe.configure({ timeout: 150_000 });

type Language = 'it' | 'en';
const catalogue = (language: Language) =>
  JSON.parse(readFileSync(`src/web/locales/${language}.json`, 'utf8')) as {
    statuses: Record<'reserved' | 'sold', string>;
    chats: { messagesLabel: string; offer: { accept: string } };
    deals: {
      meeting: {
        title: string;
        confirm: string;
        confirmDialog: { title: string; confirm: string };
      };
    };
  };

const cases: { language: Language; width: number; money: RegExp; offered: string }[] = [
  { language: 'it', width: 375, money: /7,50\s€/, offered: 'ha offerto' },
  { language: 'en', width: 1280, money: /€7\.50/, offered: 'offered' },
];

const card = (page: Page) => page.getByTestId('chat-listing-card');

for (const { language, width, money, offered } of cases) {
  test(`the chat's listing card turns sold live; the offer reads in ${language} money (${width} px)`, async ({
    browser,
  }) => {
    const texts = catalogue(language);
    const seller = await openMember(browser);
    const buyer = await openMember(browser);
    try {
      for (const m of [seller, buyer]) {
        // The switcher sits in the header on a desktop; a phone then keeps the choice.
        await chooseLanguage(m.page, language);
        await expect(m.page.locator('html')).toHaveAttribute('lang', language);
        await m.page.setViewportSize({ width, height: 800 });
      }
      const title = `Le città invisibili ${uniqueWord('')}`;
      const listing = (await apiPost(seller.page, '/api/listings', {
        mode: 'quickSell',
        title,
        author: 'Italo Calvino',
        price: 9,
      })) as { id: string };
      const { roomId } = (await apiPost(buyer.page, '/api/chats/contact', {
        listingId: listing.id,
        content: language === 'it' ? 'È ancora disponibile?' : 'Is it still available?',
      })) as { roomId: string };
      await apiPost(buyer.page, `/api/chats/rooms/${roomId}/offers`, {
        listingId: listing.id,
        amount: 7.5,
      });

      // The seller reads the offer in their notifications, in their language's money format.
      await seller.page.goto(`/profile/${seller.id}/notifications`);
      const notice = seller.page.getByRole('main').getByText(new RegExp(`${offered} .*${title}`));
      await expect(notice).toBeVisible();
      await expect(notice).toHaveText(money);
      await expect(notice).not.toHaveText(/EUR/);

      // The buyer keeps the conversation open: the card shows the book as it is now.
      await buyer.page.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
      await expect(card(buyer.page)).toContainText(title);
      await expect(card(buyer.page)).not.toContainText(texts.statuses.sold);
      await expectFitsWidth(buyer.page, width);
      // Marks this document: a reload would lose it.
      await buyer.page.evaluate(() => {
        (window as unknown as { stillHere: boolean }).stillHere = true;
      });

      // The seller accepts the offer in the conversation: the buyer's card says reserved.
      await seller.page.goto(`/profile/${seller.id}/chats?room=${roomId}`);
      const offer = seller.page.getByTestId('chat-offer');
      await expect(offer).toHaveText(money);
      await offer.getByRole('button', { name: texts.chats.offer.accept }).click();
      await expect(card(buyer.page)).toContainText(texts.statuses.reserved);

      // Both confirm the exchange in the deal's card (decision 0083): the seller first, then the
      // buyer in the page kept open; the buyer's card says sold, with no reload.
      const confirm = (page: Page) =>
        page
          .getByRole('log', { name: texts.chats.messagesLabel })
          .getByRole('group', { name: texts.deals.meeting.title })
          .getByRole('button', { name: texts.deals.meeting.confirm });
      // Confirming asks first (it cannot be undone): the dialog's own button confirms.
      const confirmed = async (page: Page) => {
        await confirm(page).click();
        await page
          .getByRole('dialog', { name: texts.deals.meeting.confirmDialog.title })
          .getByRole('button', { name: texts.deals.meeting.confirmDialog.confirm })
          .click();
      };
      await confirmed(seller.page);
      await expect(confirm(seller.page)).toHaveCount(0);
      await expect(card(buyer.page)).toContainText(texts.statuses.reserved);
      await confirmed(buyer.page);
      await expect(card(buyer.page)).toContainText(texts.statuses.sold);
      await expect(card(buyer.page)).not.toContainText(texts.statuses.reserved);
      expect(
        await buyer.page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere),
      ).toBe(true);
    } finally {
      await seller.context.close();
      await buyer.context.close();
    }
  });
}
