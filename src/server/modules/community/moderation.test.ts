import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PINNED_MAX, type Comment, type Post } from '@shared/schemas/community';
import { notificationText } from '../../platform/notifications';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, randomClientIp, type Member } from '../../test/members';
import { createRecordingRealtime } from '../chats/test-support';
import { grantAdmin } from '../moderation/roles';
import { befriend, caller, createBook, createPost } from './test-support';

/**
 * Moderation of the community (issue 12): posts and comments are reportable; a moderator's hide
 * takes them out of every list, count, search, page and comment list (404 for everyone but
 * admins), restore brings them back; admins pin posts (at most PINNED_MAX) first in the popular
 * tab, and every action is in the audit log.
 */
let t: TestApp;
let call: ReturnType<typeof caller>;
let live: ReturnType<typeof createRecordingRealtime>;
let admin: Member;
let anna: Member;
let bruno: Member;
let carla: Member;
let bookId: string;

beforeAll(async () => {
  live = createRecordingRealtime();
  t = await createTestApp({ deps: { realtime: live.realtime } });
  call = caller(t);
  [admin, anna, bruno, carla] = await Promise.all([
    createMember(t, { displayName: 'Ada Admin' }),
    createMember(t, { username: 'anna_m', displayName: 'Anna Autrice' }),
    createMember(t, { username: 'bruno_m', displayName: 'Bruno Lettore' }),
    createMember(t, { username: 'carla_m', displayName: 'Carla Lettrice' }),
  ]);
  expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
  bookId = await createBook(t, 'La coscienza di Zeno', 'Italo Svevo');
}, 120_000);

beforeEach(async () => {
  await t.database.query('delete from community_posts');
  await t.database.query('delete from reports');
  live.clear();
});

const reason = (text: string) => ({ reason: text });
/** A visitor's report, from an address of its own (visitors may send 5 in 10 minutes). */
const visitorReport = (body: object, ip = randomClientIp()) =>
  t.inject({
    method: 'POST',
    url: '/api/reports',
    remoteAddress: ip,
    headers: { 'accept-language': 'en' },
    payload: body,
  });
const ids = (res: { json: () => { items: { id: string }[] } }) => res.json().items.map((p) => p.id);

/** A post written straight into the table (the hourly limit is for people, not set-ups). */
async function insertPost(who: Member, content: string, createdAt = new Date()) {
  const [row] = await t.database.query<{ id: string }>(
    `insert into community_posts (user_id, book_id, content, created_at) values ($1, $2, $3, $4)
     returning id`,
    [who.id, bookId, content, createdAt],
  );
  return row.id;
}

async function comment(who: Member, postId: string, content: string, parentCommentId?: string) {
  const res = await call(who, 'POST', `/api/community/posts/${postId}/comments`, {
    content,
    ...(parentCommentId ? { parentCommentId } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Comment;
}

const outboxFor = (email: string) =>
  t.database.query<{ subject: string; text: string }>(
    'select subject, text from mail_outbox where "to" = $1 order by id desc',
    [email],
  );

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

describe('pinning posts', () => {
  it('is for admins only: 401 for visitors, 404 for members, even with bad input', async () => {
    const post = await createPost(t, anna, bookId, 'Da mettere in evidenza');
    for (const method of ['PUT', 'DELETE'] as const) {
      const url = `/api/admin/posts/${post.id}/pin`;
      expect((await call(null, method, url)).statusCode).toBe(401);
      expect((await call(anna, method, url)).statusCode).toBe(404);
      expect((await call(anna, method, url, { reason: 'x'.repeat(5000) })).statusCode).toBe(404);
    }
    expect((await call(null, 'GET', '/api/admin/me')).statusCode).toBe(401);
    expect((await call(anna, 'GET', '/api/admin/me')).statusCode).toBe(404);
    expect((await call(admin, 'GET', '/api/admin/me')).json()).toEqual({ admin: true });
    const popular = (await call(null, 'GET', '/api/community/posts/popular')).json();
    expect(popular.items[0]).toMatchObject({ id: post.id, isPinned: false });
  });

  it('puts pinned posts first in the popular tab, whatever their age, at most three', async () => {
    const old = await insertPost(
      bruno,
      'Un classico di un mese fa',
      new Date(Date.now() - 30 * 864e5),
    );
    const liked = await createPost(t, anna, bookId, 'Il più amato');
    await call(bruno, 'PUT', `/api/community/posts/${liked.id}/like`);
    const plain = await createPost(t, anna, bookId, 'Un post qualunque');
    const popular = async (page = 1) =>
      (await call(carla, 'GET', `/api/community/posts/popular?page=${page}`)).json() as {
        items: Post[];
        total: number;
      };
    expect((await popular()).items.map((p) => p.id)).toEqual([liked.id, plain.id]);

    const pinOld = await call(admin, 'PUT', `/api/admin/posts/${old}/pin`, {
      reason: 'Il libro del mese',
    });
    expect(pinOld.statusCode, pinOld.body).toBe(200);
    expect(pinOld.json()).toMatchObject({ id: old, isPinned: true });
    const pinPlain = await call(admin, 'PUT', `/api/admin/posts/${plain.id}/pin`);
    expect(pinPlain.statusCode).toBe(200);
    // Pinning again changes nothing (and logs nothing).
    expect((await call(admin, 'PUT', `/api/admin/posts/${plain.id}/pin`)).statusCode).toBe(200);
    const now = await popular();
    expect(now.items.map((p) => [p.id, p.isPinned])).toEqual([
      [plain.id, true],
      [old, true],
      [liked.id, false],
    ]);
    expect(now.total).toBe(3);
    // The friends tab, a profile and search do not reorder.
    expect(ids(await call(null, 'GET', `/api/community/users/${anna.id}/posts`))).toEqual([
      plain.id,
      liked.id,
    ]);

    // At most PINNED_MAX: one more than that is refused with a clear 409.
    const extra = [];
    for (let i = 0; i < PINNED_MAX - 1; i++) extra.push(await insertPost(carla, `Extra ${i}`));
    expect((await call(admin, 'PUT', `/api/admin/posts/${extra[0]}/pin`)).statusCode).toBe(200);
    const tooMany = await call(admin, 'PUT', `/api/admin/posts/${extra[1]}/pin`);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error.message).toBe(
      `At most ${PINNED_MAX} posts can be pinned at once: unpin one first.`,
    );

    // Unpinned: back in its place (an old one leaves the week's tab).
    const unpin = await call(admin, 'DELETE', `/api/admin/posts/${old}/pin`);
    expect(unpin.statusCode).toBe(200);
    expect(unpin.json()).toMatchObject({ isPinned: false });
    expect((await popular()).items.map((p) => p.id)).not.toContain(old);

    // A removed post is unpinned and leaves its place.
    await call(admin, 'POST', `/api/admin/items/post/${plain.id}/hide`, reason('Spam'));
    expect((await popular()).items.filter((p) => p.isPinned).map((p) => p.id)).toEqual([extra[0]]);

    const log = (await call(admin, 'GET', '/api/admin/log')).json();
    const pins = log.items
      .filter((e: { action: string }) => e.action === 'pin' || e.action === 'unpin')
      .map((e: { action: string; itemId: string; reason: string }) => [
        e.action,
        e.itemId,
        e.reason,
      ]);
    expect(pins).toEqual([
      ['unpin', old, 'Unpinned'],
      ['pin', extra[0], 'Pinned in the community feed'],
      ['pin', plain.id, 'Pinned in the community feed'],
      ['pin', old, 'Il libro del mese'],
    ]);
    expect(
      (await call(admin, 'PUT', '/api/admin/posts/00000000-0000-4000-8000-000000000000/pin'))
        .statusCode,
    ).toBe(404);
  });

  it('pages the popular tab with the pinned posts first and none repeated', async () => {
    const all: string[] = [];
    for (let i = 0; i < 12; i++)
      all.push(await insertPost(i % 2 ? anna : bruno, `Post ${i}`, new Date(Date.now() - i * 6e4)));
    await call(admin, 'PUT', `/api/admin/posts/${all[11]}/pin`);
    await call(admin, 'PUT', `/api/admin/posts/${all[5]}/pin`);
    const first = (await call(null, 'GET', '/api/community/posts/popular?page=1')).json();
    const second = (await call(null, 'GET', '/api/community/posts/popular?page=2')).json();
    expect(first.total).toBe(12);
    const seen = [...first.items, ...second.items].map((p: Post) => p.id);
    expect(seen.slice(0, 2)).toEqual([all[5], all[11]]);
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    expect(first.items).toHaveLength(10);
  });
});
