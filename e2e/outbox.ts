import { expect, type Page } from '@playwright/test';

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

/** Reads the development outbox (the e2e server has no SMTP_URL). */
export async function outbox(page: Page): Promise<OutboxMail[]> {
  const res = await page.request.get('/api/dev/mail');
  expect(res.ok()).toBeTruthy();
  return res.json();
}

/** The newest e-mail to an address whose text holds a link matching `pattern`, and that link. */
export async function linkFromOutbox(page: Page, to: string, pattern: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const mail = (await outbox(page)).find((m) => m.to === to && pattern.test(m.text));
      link = mail?.text.match(/https?:\/\/\S+/g)?.find((l) => pattern.test(l));
      return link;
    })
    .toBeTruthy();
  return link!;
}
