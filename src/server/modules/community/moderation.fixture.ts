import { beforeAll, beforeEach, expect } from 'vitest';
import { type Comment } from '@shared/schemas/community';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, randomClientIp, type Member } from '../../test/members';
import { createRecordingRealtime } from '../../test/realtime';
import { grantAdmin } from '../moderation';
import { caller, createBook } from '../../test/community';

/**
 * Moderation of the community (issue 12): posts and comments are reportable; a moderator's hide
 * takes them out of every list, count, search, page and comment list (404 for everyone but
 * admins), restore brings them back; admins pin posts (at most PINNED_MAX) first in the popular
 * tab, and every action is in the audit log.
 */
export let t: TestApp;
export let call: ReturnType<typeof caller>;
export let live: ReturnType<typeof createRecordingRealtime>;
export let admin: Member;
export let anna: Member;
export let bruno: Member;
export let carla: Member;
export let bookId: string;

export const reason = (text: string) => ({ reason: text });
/** A visitor's report, from an address of its own (visitors may send 5 in 10 minutes). */
export const visitorReport = (body: object, ip = randomClientIp()) =>
  t.inject({
    method: 'POST',
    url: '/api/reports',
    remoteAddress: ip,
    headers: { 'accept-language': 'en' },
    payload: body,
  });
export const ids = (res: { json: () => { items: { id: string }[] } }) =>
  res.json().items.map((p) => p.id);

/** A post written straight into the table (the hourly limit is for people, not set-ups). */
export async function insertPost(who: Member, content: string, createdAt = new Date()) {
  const [row] = await t.database.query<{ id: string }>(
    `insert into community_posts (user_id, book_id, content, created_at) values ($1, $2, $3, $4)
     returning id`,
    [who.id, bookId, content, createdAt],
  );
  return row.id;
}

export async function comment(
  who: Member,
  postId: string,
  content: string,
  parentCommentId?: string,
) {
  const res = await call(who, 'POST', `/api/community/posts/${postId}/comments`, {
    content,
    ...(parentCommentId ? { parentCommentId } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Comment;
}

export const outboxFor = (email: string) =>
  t.database.query<{ subject: string; text: string }>(
    'select subject, text from mail_outbox where "to" = $1 order by id desc',
    [email],
  );

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
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
}
