import type { Page } from '@playwright/test';
import { test, expect, expectAccessible, expectFitsWidth, uniqueWord } from './fixtures';
import { dismissCookieBanner, openMember, uniqueEmail, type OpenMember } from './members';

/**
 * The community: Ada writes a post about a book; Bruno, her friend, finds it under friends
 * activity, likes and comments it while Ada watches both arrive live on the post's page; Ada
 * edits it (marked edited) and deletes it (gone from the feed and her profile). A visitor reads
 * the popular tab only and is sent to sign in to like; the search finds a post by a word of its
 * text; a stored script payload shows as the text it is.
 */
test.use({ locale: 'en-US' });
test.describe.configure({ mode: 'serial' });

type Member = OpenMember;

const ROSA = 'Il nome della rosa';
let suffix = '';
/** A word only Ada's post holds, so the search can find it. */
let WORD = '';
let CONTENT = '';
let XSS = '';

let ada: Member;
let bruno: Member;
let postUrl = '';

const origin = (page: Page) => ({ origin: new URL(page.url()).origin });

/** Friends through the API, as the friends page does it. */
async function befriend(a: Member, b: Member) {
  const sent = await a.page.request.post('/api/connections', {
    headers: origin(a.page),
    data: { userId: b.id },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const { id } = (await sent.json()) as { id: string };
  const accepted = await b.page.request.post(`/api/connections/${id}/accept`, {
    headers: origin(b.page),
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
}

const card = (page: Page, text: string) =>
  page
    .getByRole('article')
    .filter({ has: page.getByTestId('user-text').filter({ hasText: text }) });

const likeButton = (scope: ReturnType<Page['getByRole']>, what: 'post' | 'comment') =>
  scope.getByRole('button', { name: new RegExp(`^Like ${what}, likes: \\d+$`) });

test.beforeAll(async ({ browser }) => {
  suffix = uniqueWord('');
  WORD = `zibaldone${suffix}`;
  CONTENT = `Rereading it after years: the library scenes are still the best.\nMore on ${WORD} at https://example.org/rosa.`;
  XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> ${suffix}`;
  ada = await openMember(browser, { email: uniqueEmail(`ada_${suffix}`) });
  bruno = await openMember(browser, { email: uniqueEmail(`bruno_${suffix}`) });
  await befriend(ada, bruno);
});

test.afterAll(async () => {
  await ada?.context.close();
  await bruno?.context.close();
});

test('Ada writes a post about a book from the community page', async () => {
  const { page } = ada;
  await page.goto('/community');
  await expect(page.getByRole('heading', { level: 1, name: 'Community' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Popular this week' })).toBeVisible();
  await page.getByRole('button', { name: 'Create post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write a post' });
  await expect(dialog).toBeVisible();

  // Nothing chosen, nothing written: the dialog says what is missing.
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog.getByText('Please choose a book')).toBeVisible();
  await expect(dialog.getByText('Write something before posting')).toBeVisible();

  // The counter: orange above 1,800 characters, refused above 2,000.
  const content = dialog.getByRole('textbox', { name: 'Your post' });
  const counter = dialog.getByTestId('content-counter');
  await content.fill('a'.repeat(1800));
  await expect(counter).toHaveText('1,800 / 2,000 characters');
  await expect(counter).toHaveAttribute('data-state', 'ok');
  await content.fill('a'.repeat(1801));
  await expect(counter).toHaveAttribute('data-state', 'warn');
  await content.fill('a'.repeat(2001));
  await expect(counter).toHaveAttribute('data-state', 'over');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog.getByText('A post can be at most 2,000 characters long')).toBeVisible();

  // Cancel closes without posting.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Create post' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Your post' })).toHaveValue('');

  const search = dialog.getByRole('searchbox', { name: 'Book' });
  await search.fill(ROSA);
  await dialog
    .getByRole('list', { name: 'Books found' })
    .getByRole('button', { name: new RegExp(`^${ROSA}`) })
    .first()
    .click();
  await expect(dialog.getByTestId('picked-book')).toHaveText(ROSA);
  await dialog.getByRole('textbox', { name: 'Your post' }).fill(`  ${CONTENT}  `);
  await expectAccessible(page);

  // A refusal from the server (here its hourly limit) shows in the dialog, which stays open.
  const create = '**/api/community/posts';
  await page.route(create, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 429,
          contentType: 'application/json',
          body: JSON.stringify({
            error: {
              code: 'rate_limited',
              message: 'You can publish at most 10 posts an hour. Please try again later.',
            },
          }),
        })
      : route.fallback(),
  );
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(
    dialog.getByRole('alert').filter({ hasText: 'You can publish at most 10 posts an hour.' }),
  ).toBeVisible();
  await page.unroute(create);
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toBeHidden();

  // On top of the feed, as plain text with its line break and a safe link.
  const post = page.getByRole('list', { name: 'Popular this week' }).getByRole('listitem').first();
  await expect(post.getByTestId('user-text')).toHaveText(CONTENT);
  await expect(post.getByRole('link', { name: ada.name })).toHaveAttribute(
    'href',
    `/user/${ada.id}`,
  );
  await expect(post.getByRole('link', { name: ROSA })).toBeVisible();
  const link = post.getByRole('link', { name: 'https://example.org/rosa' });
  await expect(link).toHaveAttribute('rel', 'noopener nofollow ugc');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(post.getByText('just now')).toBeVisible();
  await expectAccessible(page);

  await post.getByRole('link', { name: 'Open post' }).click();
  await expect(page).toHaveURL(/\/community\/posts\/[^/]+$/);
  postUrl = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1, name: `Post by ${ada.name}` })).toBeVisible();
  await expect(page.getByText('No comments yet. Start the conversation.')).toBeVisible();
  await expectAccessible(page);
});

test('the search finds the post by a word of its text', async () => {
  const { page } = bruno;
  await page.goto('/community');
  const search = page.getByRole('searchbox', { name: 'Search posts' });
  await search.fill(WORD.toUpperCase());
  await expect(
    page.getByRole('heading', { level: 2, name: `Results for “${WORD.toUpperCase()}”` }),
  ).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`q=${WORD.toUpperCase()}`));
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results.getByTestId('user-text')).toHaveText(CONTENT);

  await search.fill(`nothing${suffix}matches`);
  await expect(page.getByText('No posts found')).toBeVisible();
  await page.getByRole('button', { name: 'Back to the feed' }).click();
  await expect(search).toHaveValue('');
  await expect(page.getByRole('heading', { level: 2, name: 'Popular this week' })).toBeVisible();
});

test('Bruno sees it under friends activity, likes and comments it; Ada sees both live', async () => {
  // Ada keeps the post's page open: no reload from here on. Her socket's frames are recorded to
  // see the notifications the server pushes her (the bell itself comes with the notifications
  // branch; its list is checked there).
  const unread: number[] = [];
  // What Ada's bell already counts (the friend request Bruno accepted, say).
  const counted = await ada.page.request.get('/api/notifications/unread-count');
  expect(counted.ok()).toBeTruthy();
  const before = ((await counted.json()) as { unread: number }).unread;
  ada.page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      try {
        const frame = JSON.parse(String(payload)) as { type?: string; unread?: number };
        if (frame.type === 'notification.new' && typeof frame.unread === 'number')
          unread.push(frame.unread);
      } catch {
        // not JSON: not ours
      }
    }),
  );
  await ada.page.goto(postUrl);
  const adaPost = ada.page.getByRole('article').first();
  await expect(likeButton(adaPost, 'post')).toHaveAccessibleName('Like post, likes: 0');
  await expect(ada.page.getByRole('heading', { level: 2, name: 'Comments (0)' })).toBeVisible();

  const { page } = bruno;
  await page.goto('/community');
  await page.getByRole('tab', { name: 'Friends' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Friends activity' })).toBeVisible();
  const post = card(page, WORD);
  await expect(post).toBeVisible();
  const like = likeButton(post, 'post');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like).toHaveAccessibleName('Like post, likes: 1');
  await expect(likeButton(adaPost, 'post')).toHaveAccessibleName('Like post, likes: 1');

  await post.getByRole('link', { name: 'Open post' }).click();
  await expect(page).toHaveURL(postUrl);
  await page
    .getByRole('textbox', { name: 'Write a comment' })
    .fill('The labyrinth!\nUnforgettable.');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  const comments = page.getByRole('list', { name: 'Comments' });
  await expect(comments.getByTestId('user-text')).toHaveText('The labyrinth!\nUnforgettable.');
  await expect(page.getByRole('textbox', { name: 'Write a comment' })).toHaveValue('');

  // Live on Ada's page: the comment and the count, then a reply and a like on her comment.
  const adaComments = ada.page.getByRole('list', { name: 'Comments' });
  await expect(adaComments.getByText('The labyrinth!')).toBeVisible();
  await expect(ada.page.getByRole('heading', { level: 2, name: 'Comments (1)' })).toBeVisible();
  // Notified of the like and of the comment: two more unread notifications.
  await expect.poll(() => Math.max(0, ...unread)).toBe(before + 2);
  const brunoComment = adaComments.getByRole('article', { name: bruno.name });
  await brunoComment.getByRole('button', { name: 'Reply' }).click();
  await ada.page.getByRole('textbox', { name: `Reply to ${bruno.name}` }).fill('Indeed.');
  await ada.page.getByRole('button', { name: 'Reply', exact: true }).last().click();
  const replies = page.getByRole('list', { name: `Replies to ${bruno.name}` });
  await expect(replies.getByText('Indeed.')).toBeVisible();
  await likeButton(replies.getByRole('article', { name: ada.name }), 'comment').click();
  await expect(
    likeButton(
      ada.page.getByRole('list', { name: `Replies to ${bruno.name}` }).getByRole('article'),
      'comment',
    ),
  ).toHaveAccessibleName('Like comment, likes: 1');
  await expectAccessible(page);

  // Bruno edits his comment (marked edited, live on Ada's page too); Ada's reply has no menu for
  // him. He deletes his comment after confirming, and its reply goes with it.
  const mine = comments.getByRole('article', { name: bruno.name });
  await mine.getByRole('button', { name: 'Comment actions' }).first().click();
  await page.getByRole('menuitem', { name: 'Edit comment' }).click();
  await page.getByRole('textbox', { name: 'Edit your comment' }).fill('The labyrinth, of course!');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(mine.getByTestId('comment-edited').first()).toHaveText('edited');
  await expect(adaComments.getByText('The labyrinth, of course!')).toBeVisible();
  await expect(
    replies
      .getByRole('article', { name: ada.name })
      .getByRole('button', { name: 'Comment actions' }),
  ).toHaveCount(0);
  await mine.getByRole('button', { name: 'Comment actions' }).first().click();
  await page.getByRole('menuitem', { name: 'Delete comment' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this comment?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('No comments yet. Start the conversation.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Comments (0)' })).toBeVisible();
  await expect(ada.page.getByRole('heading', { level: 2, name: 'Comments (0)' })).toBeVisible();
  // The author's bell: Bruno's like is there; his comment, now deleted, took its notification.
  await ada.page.getByRole('button', { name: /^Notifications/ }).click();
  const popover = ada.page.getByRole('dialog', { name: 'Notifications' });
  const list = popover.getByRole('list', { name: 'Your notifications' });
  await expect(list).toContainText(`${bruno.name} liked your post`);
  await expect(list).not.toContainText('commented on your post');
  await ada.page.keyboard.press('Escape');
});

test('Ada edits her post (marked edited) and deletes it (gone from feed and profile)', async () => {
  const { page } = ada;
  await page.goto(postUrl);
  const post = page.getByRole('article').first();
  await post.getByRole('button', { name: 'Post actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit post' });
  await expect(dialog.getByTestId('picked-book')).toHaveText(ROSA);
  const content = dialog.getByRole('textbox', { name: 'Your post' });
  await expect(content).toHaveValue(CONTENT);
  await content.fill(`${CONTENT}\nEdited: even better the second time.`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(post.getByTestId('user-text')).toContainText('Edited: even better');
  await expect(post.getByTestId('post-edited')).toHaveText('edited');

  // On her profile too, with the add-post button that only she has.
  await page.goto(`/user/${ada.id}`);
  const recent = page.getByRole('region', { name: 'Recent posts' });
  await expect(card(page, WORD).getByTestId('post-edited')).toBeVisible();
  await expect(recent.getByRole('button', { name: 'Add post' })).toBeVisible();
  await bruno.page.goto(`/user/${ada.id}`);
  await expect(card(bruno.page, WORD)).toBeVisible();
  await expect(bruno.page.getByRole('button', { name: 'Add post' })).toHaveCount(0);

  await page.goto(postUrl);
  await post.getByRole('button', { name: 'Post actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete post' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this post?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await post.getByRole('button', { name: 'Post actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete post' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL('/community');
  await expect(page.getByRole('heading', { level: 2, name: 'Popular this week' })).toBeVisible();
  await expect(card(page, WORD)).toHaveCount(0);
  await page.goto(`/user/${ada.id}`);
  await expect(page.getByText('No posts yet.')).toBeVisible();
  await expect(card(page, WORD)).toHaveCount(0);
  // Its address now answers "not found".
  await page.goto(postUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Post not found' })).toBeVisible();
  await bruno.page.goto('/community?tab=friends');
  await expect(bruno.page.getByRole('heading', { name: 'Friends activity' })).toBeVisible();
  await expect(card(bruno.page, WORD)).toHaveCount(0);
});

test('a stored script payload shows as plain text and never runs', async () => {
  const { page } = bruno;
  await page.goto('/community');
  await page.getByRole('button', { name: 'Create post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write a post' });
  await dialog.getByRole('searchbox', { name: 'Book' }).fill('Harry Potter');
  await dialog
    .getByRole('list', { name: 'Books found' })
    .getByRole('button', { name: /^Harry Potter/ })
    .first()
    .click();
  await dialog.getByRole('textbox', { name: 'Your post' }).fill(XSS);
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toBeHidden();

  // Bruno on the popular tab, Ada (his friend) under friends activity and on the post's page.
  for (const [viewer, path] of [
    [bruno.page, '/community'],
    [ada.page, '/community?tab=friends'],
  ] as const) {
    await viewer.goto(path);
    const text = card(viewer, suffix).getByTestId('user-text');
    await expect(text).toHaveText(XSS);
    await expect(text.locator('img, script')).toHaveCount(0);
    expect(await viewer.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  }
  await card(ada.page, suffix).getByRole('link', { name: 'Open post' }).click();
  await expect(ada.page.getByTestId('user-text').first()).toHaveText(XSS);
  await expect(ada.page.getByTestId('user-text').first().locator('img, script')).toHaveCount(0);
  expect(await ada.page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
});

test('a visitor reads the popular tab only and is sent to sign in to like', async ({ page }) => {
  await page.goto('/community');
  await dismissCookieBanner(page);
  await expect(page.getByRole('tab', { name: 'Popular' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Friends' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create post' })).toHaveCount(0);
  const post = card(page, suffix);
  await expect(post).toBeVisible();
  await expectAccessible(page);
  // For a visitor 'like' is a link to sign in, which comes back here.
  await post.getByRole('link', { name: /^Like post, likes: \d+$/ }).click();
  await expect(page).toHaveURL(`/login?redirect_to=${encodeURIComponent('/community')}`);
  // ?tab=friends is not honoured for a visitor.
  await page.goto('/community?tab=friends');
  await expect(page.getByRole('heading', { level: 2, name: 'Popular this week' })).toBeVisible();
});

test('at 375 px the feed and a post page fit; a failed load offers try again', async () => {
  const { page } = bruno;
  await page.setViewportSize({ width: 375, height: 740 });
  const feed = '**/api/community/posts/popular?page=1';
  await page.route(feed, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'unavailable', message: 'Down' } }),
    }),
  );
  await page.goto('/community');
  const failure = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
  await expect(failure.getByText('Failed to load posts. Please try again.')).toBeVisible();
  await page.unroute(feed);
  await failure.getByRole('button', { name: 'Try again' }).click();
  await expect(failure).toHaveCount(0);
  const post = card(page, suffix);
  await expect(post).toBeVisible();
  await expectFitsWidth(page);
  await post.getByRole('link', { name: 'Open post' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Comments/ })).toBeVisible();
  await expectFitsWidth(page);
  await expectAccessible(page);
});
