import { describe, expect, it } from 'vitest';
import { notificationText } from '../../platform/notifications';
import { befriend } from '../../test/members';
import { createPost } from '../../test/community';
import {
  t,
  call,
  live,
  admin,
  anna,
  bruno,
  carla,
  bookId,
  reason,
  ids,
  comment,
  outboxFor,
  useFixture,
} from './moderation.fixture';

useFixture();

describe('hiding and restoring a post', () => {
  it('takes it out of every tab, search, profile and page for readers; admins still read it', async () => {
    await befriend(t, bruno, anna);
    const post = await createPost(t, anna, bookId, 'Sigarette e psicoanalisi triestina');
    await comment(bruno, post.id, 'Bellissimo');
    await call(bruno, 'POST', '/api/reports', { kind: 'post', id: post.id, reason: 'offensive' });

    const lists = [
      '/api/community/posts/popular',
      '/api/community/posts/friends',
      '/api/community/posts/search?q=triestina',
      `/api/community/users/${anna.id}/posts`,
    ];
    for (const url of lists) expect(ids(await call(bruno, 'GET', url)), url).toContain(post.id);

    // A member cannot hide: 404, nothing changes.
    const byMember = await call(bruno, 'POST', `/api/admin/items/post/${post.id}/hide`, {
      reason: 'x',
    });
    expect(byMember.statusCode).toBe(404);
    expect((await call(null, 'GET', `/api/community/posts/${post.id}`)).statusCode).toBe(200);

    const hidden = await call(
      admin,
      'POST',
      `/api/admin/items/post/${post.id}/hide`,
      reason('Insults other readers (rule 2).'),
    );
    expect(hidden.statusCode, hidden.body).toBe(200);
    for (const url of lists) {
      const res = await call(bruno, 'GET', url);
      expect(ids(res), url).not.toContain(post.id);
      expect(res.json().total, url).toBe(0);
    }
    for (const who of [null, bruno, anna]) {
      const page = await call(who, 'GET', `/api/community/posts/${post.id}`);
      expect(page.statusCode).toBe(404);
      expect(page.json().error.message).toBe('This post does not exist or has been removed.');
      expect((await call(who, 'GET', `/api/community/posts/${post.id}/comments`)).statusCode).toBe(
        404,
      );
    }
    // Nobody can like, comment on, edit or delete it any more.
    expect((await call(bruno, 'PUT', `/api/community/posts/${post.id}/like`)).statusCode).toBe(404);
    expect(
      (await call(bruno, 'POST', `/api/community/posts/${post.id}/comments`, { content: 'x' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(anna, 'PATCH', `/api/community/posts/${post.id}`, { content: 'x' })).statusCode,
    ).toBe(404);
    // The admin reads it (the queue's link), marked removed, with its comments.
    const asAdmin = await call(admin, 'GET', `/api/community/posts/${post.id}`);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toMatchObject({ status: 'removed' });
    expect(
      (await call(admin, 'GET', `/api/community/posts/${post.id}/comments`)).json().total,
    ).toBe(1);

    // Live readers of the post are told; the queue no longer lists it.
    expect(live.toTopic.map((e) => e.event)).toContainEqual({
      type: 'community.post',
      postId: post.id,
      action: 'removed',
    });
    const queue = (await call(admin, 'GET', '/api/admin/reports')).json();
    expect(queue.items.map((e: { itemId: string }) => e.itemId)).not.toContain(post.id);

    // Its author has the statement of reasons, by e-mail and under the bell.
    const [mail] = await outboxFor(anna.email);
    expect(mail.subject).toMatch(/Il tuo post è stato rimosso|Your post was removed/);
    expect(mail.text).toContain('Insults other readers (rule 2).');
    const bell = (await call(anna, 'GET', '/api/notifications')).json();
    const note = bell.items.find((n: { type: string }) => n.type === 'moderation.action');
    expect(note).toMatchObject({ subject: { type: 'post', id: post.id } });
    expect(notificationText('en', { ...note, actorName: null })).toBe(
      'The moderators removed “La coscienza di Zeno”: the e-mail we sent you gives the reasons',
    );
    const log = (await call(admin, 'GET', '/api/admin/log')).json();
    expect(log.items[0]).toMatchObject({
      action: 'hide',
      kind: 'post',
      itemId: post.id,
      targetUserId: anna.id,
      reason: 'Insults other readers (rule 2).',
    });

    // Restored: back everywhere, and readers are told.
    live.clear();
    const restored = await call(
      admin,
      'POST',
      `/api/admin/items/post/${post.id}/restore`,
      reason('Reviewed again: within the rules.'),
    );
    expect(restored.statusCode, restored.body).toBe(200);
    for (const url of lists) expect(ids(await call(bruno, 'GET', url)), url).toContain(post.id);
    expect((await call(null, 'GET', `/api/community/posts/${post.id}`)).json()).toMatchObject({
      status: 'published',
      commentCount: 1,
    });
    expect(live.toTopic.map((e) => e.event)).toContainEqual({
      type: 'community.post',
      postId: post.id,
      action: 'restored',
    });
  });

  it('never restores a post its author deleted', async () => {
    const post = await createPost(t, anna, bookId, 'Cancellato da me');
    await call(anna, 'DELETE', `/api/community/posts/${post.id}`);
    const res = await call(admin, 'POST', `/api/admin/items/post/${post.id}/restore`, reason('x'));
    expect(res.statusCode).toBe(404);
    expect((await call(null, 'GET', `/api/community/posts/${post.id}`)).statusCode).toBe(404);
  });
});

describe('hiding and restoring a comment', () => {
  it('takes a comment and its replies out of the list and the count, and brings back only those', async () => {
    const post = await createPost(t, anna, bookId, 'Discutiamone');
    const top = await comment(bruno, post.id, 'Un commento fuori luogo');
    const reply = await comment(carla, post.id, 'Una risposta', top.id);
    const other = await comment(carla, post.id, 'Un altro commento');
    // A reply to `top` that its author deleted before: a restore must not bring it back.
    const deleted = await comment(anna, post.id, 'Cancellata', top.id);
    await call(anna, 'DELETE', `/api/community/comments/${deleted.id}`);
    await call(carla, 'POST', '/api/reports', { kind: 'comment', id: top.id, reason: 'offensive' });
    const count = async () =>
      (await call(null, 'GET', `/api/community/posts/${post.id}`)).json().commentCount as number;
    const listed = async () =>
      ids(await call(null, 'GET', `/api/community/posts/${post.id}/comments`));
    expect(await count()).toBe(3);

    const res = await call(
      admin,
      'POST',
      `/api/admin/items/comment/${top.id}/hide`,
      reason('Rude.'),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await listed()).toEqual([other.id]);
    expect(await count()).toBe(1);
    expect((await call(bruno, 'PUT', `/api/community/comments/${top.id}/like`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(bruno, 'PATCH', `/api/community/comments/${top.id}`, { content: 'x' }))
        .statusCode,
    ).toBe(404);
    expect(live.toTopic.map((e) => e.event)).toContainEqual({
      type: 'community.comment',
      postId: post.id,
      commentId: top.id,
      action: 'hidden',
      commentCount: 1,
    });
    const [mail] = await outboxFor(bruno.email);
    expect(mail.subject).toMatch(/commento è stato rimosso|comment was removed/);
    expect(mail.text).toContain('Rude.');

    const back = await call(
      admin,
      'POST',
      `/api/admin/items/comment/${top.id}/restore`,
      reason('ok'),
    );
    expect(back.statusCode).toBe(200);
    expect(await listed()).toEqual([top.id, reply.id, other.id]);
    expect(await count()).toBe(3);
  });
});
