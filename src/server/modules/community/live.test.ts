import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notificationText, type NotificationService } from '../../platform/notifications';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { createTestNotifications } from '../../test/notifications';
import { createRecordingRealtime } from '../../test/realtime';
import { caller, createBook, createPost } from '../../test/community';

let t: TestApp;
let call: ReturnType<typeof caller>;
let live: ReturnType<typeof createRecordingRealtime>;
let notifications: NotificationService;
let anna: Member;
let bruno: Member;
let carla: Member;
let dario: Member;
let bookId: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  live = createRecordingRealtime();
  notifications = createTestNotifications({ database, realtime: live.realtime });
  t = await createTestApp({ database, deps: { realtime: live.realtime, notifications } });
  call = caller(t);
  [anna, bruno, carla, dario] = await Promise.all([
    createMember(t, { username: 'anna_l', displayName: 'Anna' }),
    createMember(t, { username: 'bruno_l', displayName: 'Bruno' }),
    createMember(t, { username: 'carla_l', displayName: 'Carla' }),
    createMember(t, { username: 'dario_l', displayName: 'Dario' }),
  ]);
  bookId = await createBook(t, 'Lessico famigliare', 'Natalia Ginzburg');
});

beforeEach(() => live.clear());

/** The member's community notifications about one post. */
const communityOf = async (member: Member, postId: string) =>
  (await notifications.list(member.id)).items.filter(
    (n) => n.type.startsWith('community.') && n.link === `/community/posts/${postId}`,
  );
const topicEvents = (postId: string) =>
  live.toTopic.filter((e) => e.topic === `post:${postId}`).map((e) => e.event);

describe('the live topic post:<id>', () => {
  it('lets anyone who may read the post follow it, and nobody follow a hidden or missing one', async () => {
    const authorize = live.topics.get('post')!;
    expect(authorize).toBeDefined();
    const post = await createPost(t, anna, bookId, 'Si segue dal vivo');
    expect(await authorize(bruno.id, post.id)).toBe(true);
    expect(await authorize(bruno.id, 'not-a-uuid')).toBe(false);
    expect(await authorize(bruno.id, '00000000-0000-4000-8000-000000000000')).toBe(false);
    await call(anna, 'DELETE', `/api/community/posts/${post.id}`);
    expect(await authorize(bruno.id, post.id)).toBe(false);
  });

  it('carries new, edited and deleted comments with the count, and likes with theirs', async () => {
    const post = await createPost(t, anna, bookId, 'Eventi');
    const comment = (
      await call(bruno, 'POST', `/api/community/posts/${post.id}/comments`, { content: 'Ciao' })
    ).json();
    await call(bruno, 'PATCH', `/api/community/comments/${comment.id}`, { content: 'Ciao!' });
    await call(carla, 'PUT', `/api/community/posts/${post.id}/like`);
    await call(carla, 'PUT', `/api/community/posts/${post.id}/like`); // no change, no event
    await call(anna, 'PUT', `/api/community/comments/${comment.id}/like`);
    await call(bruno, 'DELETE', `/api/community/comments/${comment.id}`);
    await call(carla, 'DELETE', `/api/community/posts/${post.id}/like`);

    expect(topicEvents(post.id)).toEqual([
      {
        type: 'community.comment',
        postId: post.id,
        commentId: comment.id,
        action: 'created',
        commentCount: 1,
      },
      {
        type: 'community.comment',
        postId: post.id,
        commentId: comment.id,
        action: 'updated',
        commentCount: 1,
      },
      { type: 'community.reaction', postId: post.id, commentId: null, likeCount: 1 },
      { type: 'community.reaction', postId: post.id, commentId: comment.id, likeCount: 1 },
      {
        type: 'community.comment',
        postId: post.id,
        commentId: comment.id,
        action: 'hidden',
        commentCount: 0,
      },
      { type: 'community.reaction', postId: post.id, commentId: null, likeCount: 0 },
    ]);
    // Events carry ids and counts, never text.
    expect(JSON.stringify(topicEvents(post.id))).not.toContain('Ciao');
  });
});

describe('notifications to the author', () => {
  it('a comment notifies the post author (not for their own), linking to the post', async () => {
    const post = await createPost(t, anna, bookId, 'Commentate pure');
    await call(anna, 'POST', `/api/community/posts/${post.id}/comments`, { content: 'Io stessa' });
    expect(await communityOf(anna, post.id)).toEqual([]);
    const comment = (
      await call(bruno, 'POST', `/api/community/posts/${post.id}/comments`, { content: 'Bello' })
    ).json();
    const [n] = await communityOf(anna, post.id);
    expect(n).toMatchObject({
      type: 'community.comment',
      actor: { id: bruno.id, displayName: 'Bruno' },
      subject: { type: 'comment', id: comment.id },
      link: `/community/posts/${post.id}`,
      read: false,
    });
    expect(
      notificationText('en', { type: n.type, actorName: 'Bruno', actorCount: 1, data: n.data }),
    ).toBe('Bruno commented on your post');
    // Deleting the comment takes its notification away.
    await call(bruno, 'DELETE', `/api/community/comments/${comment.id}`);
    expect(await communityOf(anna, post.id)).toEqual([]);
  });

  it('likes fold into one notification per post: "Dario and 2 others liked your post"', async () => {
    const post = await createPost(t, anna, bookId, 'Mettete mi piace');
    for (const who of [bruno, carla, dario])
      await call(who, 'PUT', `/api/community/posts/${post.id}/like`);
    await call(dario, 'PUT', `/api/community/posts/${post.id}/like`); // repeat: nothing new
    await call(anna, 'PUT', `/api/community/posts/${post.id}/like`); // one's own: nothing
    const likes = (await communityOf(anna, post.id)).filter((n) => n.type === 'community.reaction');
    expect(likes).toHaveLength(1);
    expect(likes[0]).toMatchObject({
      actor: { id: dario.id },
      actorCount: 3,
      subject: { type: 'post', id: post.id },
      link: `/community/posts/${post.id}`,
    });
    const text = (lang: 'en' | 'it') =>
      notificationText(lang, {
        type: 'community.reaction',
        actorName: 'Dario',
        actorCount: 3,
        data: likes[0].data,
      });
    expect(text('en')).toBe('Dario and 2 others liked your post');
    expect(text('it')).toBe('Dario e altre 2 persone hanno messo mi piace al tuo post');

    // Deleting the post takes its notifications away.
    await call(anna, 'DELETE', `/api/community/posts/${post.id}`);
    expect(await communityOf(anna, post.id)).toEqual([]);
  });
});
