import type { Page } from '@playwright/test';
import { test, expect, expectAccessible, uniqueWord } from './fixtures';
import { createConfirmedMember, dismissCookieBanner, grantAdmin } from './members';
import { outbox } from './outbox';

/**
 * Moderation of the community, as people walk it: a member reports a post from the feed; an
 * admin (granted with `npm run admin -- grant`, as in safety.spec.ts) opens /admin and hides it
 * from the queue with a reason; the post is gone from the feed and its page; its author finds the
 * statement of reasons in their notifications, and the e-mail is in the outbox.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ timeout: 150_000 });

const origin = (page: Page) => ({ origin: new URL(page.url()).origin });

/** A post about a catalogue book, written through the API (the form has its own journey). */
async function writePost(page: Page, content: string, title: string): Promise<string> {
  const books = await page.request.get('/api/catalogue/search?q=Il%20nome%20della%20rosa&limit=1');
  expect(books.ok(), await books.text()).toBeTruthy();
  const bookId = (await books.json()).items[0].id as string;
  const res = await page.request.post('/api/community/posts', {
    headers: origin(page),
    data: { bookId, content, title },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id as string;
}

test('a member reports a post; an admin hides it; its author gets the reasons', async ({
  browser,
}) => {
  const stamp = uniqueWord('');
  const OFFENSIVE = `Only idiots read this book ${stamp}`;
  const TITLE = `A rant ${stamp}`;
  const contexts = await Promise.all([1, 2, 3].map(() => browser.newContext({ locale: 'en-US' })));
  const [author, reader, admin] = await Promise.all(
    contexts.map(async (context) => {
      const page = await context.newPage();
      await page.goto('/');
      await dismissCookieBanner(page);
      const who = await createConfirmedMember(page);
      return { ...who, page };
    }),
  );
  const postId = await writePost(author.page, OFFENSIVE, TITLE);

  // The reader finds it in the feed and reports it from the post's menu.
  const r = reader.page;
  await r.goto('/community');
  const card = r.getByTestId('post-card').filter({ hasText: OFFENSIVE });
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Post actions' }).click();
  await r.getByRole('menuitem', { name: 'Report' }).click();
  const dialog = r.getByRole('dialog', { name: 'Report this post' });
  await dialog.getByRole('radio', { name: 'Offensive' }).check();
  await dialog.getByLabel('Details (optional)').fill('Insults everyone who likes the book.');
  await expectAccessible(r);
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(r.getByText('Thank you: your report was sent to the moderators.')).toBeVisible();

  // The admin, granted from the command line, hides it from the queue with a reason.
  expect(grantAdmin(admin.email)).toContain(`${admin.email} is now an admin.`);
  const a = admin.page;
  await a.goto('/admin');
  await expect(a.getByRole('heading', { name: 'Moderation', level: 1 })).toBeVisible();
  const entry = a.getByTestId('queue-entry').filter({ hasText: OFFENSIVE });
  await expect(entry).toContainText('post');
  await expect(entry).toContainText('Offensive');
  await expect(entry).toContainText('Insults everyone who likes the book.');
  await expect(entry.getByRole('link', { name: 'Open the page' })).toHaveAttribute(
    'href',
    `/community/posts/${postId}`,
  );
  await expectAccessible(a);
  await entry.getByRole('button', { name: 'Hide' }).click();
  const hide = a.getByRole('dialog', { name: 'Hide this item' });
  await hide.getByLabel('Reason').fill('Insults other readers: community rule 2.');
  await hide.getByRole('button', { name: 'Confirm' }).click();
  await expect(hide).toHaveCount(0);
  await expect(a.getByTestId('queue-entry').filter({ hasText: OFFENSIVE })).toHaveCount(0);
  await a.getByRole('tab', { name: 'Audit log' }).click();
  await expect(a.getByTestId('audit-log')).toContainText(
    'Insults other readers: community rule 2.',
  );

  // Gone from the feed, and its page is a 404 for readers.
  await r.goto('/community');
  await expect(r.getByRole('heading', { level: 2, name: 'Popular this week' })).toBeVisible();
  await expect(r.getByText(OFFENSIVE)).toHaveCount(0);
  await r.goto(`/community/posts/${postId}`);
  await expect(r.getByText('This post does not exist or has been removed.')).toBeVisible();

  // Its author has the statement of reasons under the bell and by e-mail.
  const p = author.page;
  await p.goto(`/profile/${author.id}/notifications`);
  const notes = p.getByRole('list', { name: 'Your notifications' });
  await expect(notes).toContainText(
    `The moderators removed “${TITLE}”: the e-mail we sent you gives the reasons`,
  );
  await expectAccessible(p);
  await expect
    .poll(async () => (await outbox(p)).find((m) => m.to === author.email)?.subject)
    .toBe('Your post was removed');
  const mail = (await outbox(p)).find((m) => m.to === author.email)!;
  expect(mail.text).toContain('Insults other readers: community rule 2.');

  await Promise.all(contexts.map((c) => c.close()));
});
