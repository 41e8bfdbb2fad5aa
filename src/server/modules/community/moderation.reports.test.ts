import { describe, expect, it } from 'vitest';
import { createPost } from '../../test/community';
import {
  t,
  call,
  admin,
  anna,
  bruno,
  carla,
  bookId,
  reason,
  visitorReport,
  comment,
  useFixture,
} from './moderation.fixture';

useFixture();

describe('reporting posts and comments', () => {
  it('takes one open report per member and post; 404 for posts the reporter cannot see', async () => {
    const post = await createPost(t, anna, bookId, 'Zeno fuma la sua ultima sigaretta');
    const first = await call(bruno, 'POST', '/api/reports', {
      kind: 'post',
      id: post.id,
      reason: 'spam',
    });
    expect(first.statusCode, first.body).toBe(201);
    const again = await call(bruno, 'POST', '/api/reports', {
      kind: 'post',
      id: post.id,
      reason: 'offensive',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(
      'You have already reported this; the moderators have not decided yet.',
    );
    // Another member may report it too; its author may not.
    expect(
      (await call(carla, 'POST', '/api/reports', { kind: 'post', id: post.id, reason: 'other' }))
        .statusCode,
    ).toBe(201);
    const own = await call(anna, 'POST', '/api/reports', {
      kind: 'post',
      id: post.id,
      reason: 'spam',
    });
    expect(own.statusCode).toBe(400);

    // Missing, deleted by its author, or not a uuid: 404.
    const deleted = await createPost(t, anna, bookId, 'Poi cancellato');
    await call(anna, 'DELETE', `/api/community/posts/${deleted.id}`);
    for (const id of [deleted.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await call(bruno, 'POST', '/api/reports', { kind: 'post', id, reason: 'spam' });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error.message).toBe('This content does not exist or is no longer visible');
    }
  });

  it('lets a visitor report an illegal post or comment with a name and e-mail, once', async () => {
    const post = await createPost(t, anna, bookId, 'Un post da segnalare');
    const c = await comment(bruno, post.id, 'Un commento da segnalare');
    for (const [kind, id] of [
      ['post', post.id],
      ['comment', c.id],
    ]) {
      const spam = await visitorReport({ kind, id, reason: 'spam' });
      expect(spam.statusCode).toBe(401);
      const body = {
        kind,
        id,
        reason: 'illegal',
        name: 'Vera Visitatrice',
        email: 'v@example.com',
      };
      const ok = await visitorReport(body);
      expect(ok.statusCode, ok.body).toBe(201);
      expect((await visitorReport(body)).statusCode).toBe(409);
      const noEmail = await visitorReport({ ...body, email: '' });
      expect(noEmail.statusCode).toBe(400);
    }
    const queue = (await call(admin, 'GET', '/api/admin/reports')).json();
    const entry = queue.items.find((e: { itemId: string }) => e.itemId === c.id);
    expect(entry.reports[0].reporter).toBe('Vera Visitatrice <v@example.com>');
  });

  it('takes one open report per member and comment; 404 for comments of a removed post', async () => {
    const post = await createPost(t, anna, bookId, 'Commentate pure');
    const c = await comment(bruno, post.id, 'Un commento offensivo');
    const first = await call(carla, 'POST', '/api/reports', {
      kind: 'comment',
      id: c.id,
      reason: 'offensive',
      text: 'Insulta gli altri lettori',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(
      (await call(carla, 'POST', '/api/reports', { kind: 'comment', id: c.id, reason: 'spam' }))
        .statusCode,
    ).toBe(409);
    // The queue shows it as readers see it: the text, its author, the post's page.
    const queue = (await call(admin, 'GET', '/api/admin/reports')).json();
    expect(queue.items.find((e: { itemId: string }) => e.itemId === c.id)).toMatchObject({
      kind: 'comment',
      count: 1,
      item: {
        title: 'La coscienza di Zeno',
        excerpt: 'Un commento offensivo',
        authorId: bruno.id,
        authorName: 'Bruno Lettore',
        link: `/community/posts/${post.id}`,
        hidden: false,
        rejectable: false,
      },
    });
    await call(admin, 'POST', `/api/admin/items/post/${post.id}/hide`, reason('Spam.'));
    const gone = await call(anna, 'POST', '/api/reports', {
      kind: 'comment',
      id: c.id,
      reason: 'spam',
    });
    expect(gone.statusCode).toBe(404);
  });
});
