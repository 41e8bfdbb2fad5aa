import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { test, expect, chooseLanguage, expectFitsWidth, uniqueWord } from './fixtures';
import { openMember } from './members';
import { apiPost } from './api';

/**
 * The blocked state, as the blocker sees it: a seller and a buyer talk about a book; the seller
 * blocks the buyer from the buyer's profile. The profile then says "You blocked …" with Unblock
 * and offers no friend request; the conversation says so too, in place of the composer and the
 * offer; the buyer, whose conversation is open, no longer sees the seller online. Unblock in the
 * conversation gives everything back. Italian at 375 px, English at 1280 px.
 */
test.describe.configure({ timeout: 150_000 });

type Language = 'it' | 'en';
interface Texts {
  blocks: { block: string; unblock: string; confirm: string; confirmTitle: string };
  connections: { control: { addFriend: string } };
  chats: { composer: { label: string }; presence: { online: string; offline: string } };
}
const catalogue = (language: Language) =>
  JSON.parse(readFileSync(`src/web/locales/${language}.json`, 'utf8')) as Texts;

const blockedNotice = { it: 'Hai bloccato', en: 'You blocked' };

const cases: { language: Language; width: number }[] = [
  { language: 'it', width: 375 },
  { language: 'en', width: 1280 },
];

const notice = (page: Page) => page.getByTestId('blocked-notice');

for (const { language, width } of cases) {
  test(`after blocking, the profile and the conversation show it, with Unblock (${language}, ${width} px)`, async ({
    browser,
  }) => {
    const t = catalogue(language);
    const seller = await openMember(browser);
    const buyer = await openMember(browser);
    try {
      for (const m of [seller, buyer]) {
        await chooseLanguage(m.page, language);
        await expect(m.page.locator('html')).toHaveAttribute('lang', language);
        await m.page.setViewportSize({ width, height: 800 });
      }
      const listing = (await apiPost(seller.page, '/api/listings', {
        mode: 'quickSell',
        title: `Il visconte dimezzato ${uniqueWord('')}`,
        author: 'Italo Calvino',
        price: 8,
      })) as { id: string };
      const { roomId } = (await apiPost(buyer.page, '/api/chats/contact', {
        listingId: listing.id,
        content: 'Ciao!',
      })) as { roomId: string };

      // The buyer's conversation is open and shows the seller online (their page is open too).
      const b = buyer.page;
      await b.goto(`/profile/${buyer.id}/chats?room=${roomId}`);
      await expect(b.getByTestId('conversation-status')).toHaveText(t.chats.presence.online);

      // The seller blocks the buyer from the buyer's profile.
      const s = seller.page;
      await s.goto(`/user/${buyer.id}`);
      await expect(s.getByRole('button', { name: t.connections.control.addFriend })).toBeVisible();
      await s.getByRole('button', { name: t.blocks.block, exact: true }).click();
      const dialog = s.getByRole('dialog', {
        name: t.blocks.confirmTitle.replace('{{name}}', buyer.name),
      });
      await dialog.getByRole('button', { name: t.blocks.confirm, exact: true }).click();
      await expect(dialog).toHaveCount(0);

      // The profile says so, with Unblock, and asks for no friendship that cannot work.
      await expect(notice(s)).toContainText(`${blockedNotice[language]} ${buyer.name}`);
      await expect(notice(s).getByRole('button', { name: t.blocks.unblock })).toBeVisible();
      await expect(s.getByRole('button', { name: t.connections.control.addFriend })).toHaveCount(0);
      await expectFitsWidth(s, width);

      // The buyer, still in the conversation, no longer sees the seller online.
      await expect(b.getByTestId('conversation-status')).toHaveText(t.chats.presence.offline);

      // The conversation says so too: no composer, no offer; Unblock gives them back.
      await s.goto(`/profile/${seller.id}/chats?room=${roomId}`);
      await expect(notice(s)).toContainText(`${blockedNotice[language]} ${buyer.name}`);
      await expect(s.getByRole('textbox', { name: t.chats.composer.label })).toHaveCount(0);
      await expectFitsWidth(s, width);
      await notice(s).getByRole('button', { name: t.blocks.unblock }).click();
      await expect(notice(s)).toHaveCount(0);
      await expect(s.getByRole('textbox', { name: t.chats.composer.label })).toBeVisible();
      // And the buyer sees the seller as they are again.
      await expect(b.getByTestId('conversation-status')).toHaveText(t.chats.presence.online);

      await s.goto(`/user/${buyer.id}`);
      await expect(s.getByRole('button', { name: t.connections.control.addFriend })).toBeVisible();
      await expect(notice(s)).toHaveCount(0);
    } finally {
      await seller.context.close();
      await buyer.context.close();
    }
  });
}
