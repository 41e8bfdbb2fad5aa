import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { createRealtime } from '../../platform/realtime';
import { mustOpen, wait } from '../../platform/realtime/testing';
import { caller, createBook, createPost } from '../../test/community';

/** The real realtime service over real sockets: what a reader's and the author's tabs receive. */
const ORIGIN = 'http://localhost:3000';
let t: TestApp;
let call: ReturnType<typeof caller>;
let base: string;
let anna: Member;
let bruno: Member;
let carla: Member;
let bookId: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  const realtime = createRealtime({ database, trustedOrigins: testConfig().trustedOrigins });
  t = await createTestApp({ database, deps: { realtime } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  call = caller(t);
  [anna, bruno, carla] = await Promise.all([
    createMember(t, { displayName: 'Anna' }),
    createMember(t, { displayName: 'Bruno' }),
    createMember(t, { displayName: 'Carla' }),
  ]);
  bookId = await createBook(t, 'La storia', 'Elsa Morante');
});

describe('a post followed live', () => {
  it("delivers new comments and likes to the post's readers, and a notification to its author", async () => {
    const post = await createPost(t, anna, bookId, 'Seguitemi');
    const reader = await mustOpen(base, { cookie: carla.cookie, origin: ORIGIN });
    const author = await mustOpen(base, { cookie: anna.cookie, origin: ORIGIN });
    try {
      reader.send({ type: 'subscribe', topic: `post:${post.id}` });
      expect(await reader.next((f) => f.type !== 'presence')).toEqual({
        type: 'subscribed',
        topic: `post:${post.id}`,
      });

      const comment = (
        await call(bruno, 'POST', `/api/community/posts/${post.id}/comments`, {
          content: 'Che bello',
        })
      ).json();
      expect(await reader.next((f) => f.type === 'community.comment')).toEqual({
        type: 'community.comment',
        postId: post.id,
        commentId: comment.id,
        action: 'created',
        commentCount: 1,
      });
      await call(bruno, 'PUT', `/api/community/posts/${post.id}/like`);
      expect(await reader.next((f) => f.type === 'community.reaction')).toEqual({
        type: 'community.reaction',
        postId: post.id,
        commentId: null,
        likeCount: 1,
      });
      // The author's bell: pushed by the notification service (comment, then like).
      const pushed = await author.next((f) => f.type === 'notification.new');
      expect(pushed.unread).toBeGreaterThanOrEqual(1);
      // The author did not follow the post: no post events on that socket.
      await wait(50);
      expect(author.frames.some((f) => String(f.type).startsWith('community.'))).toBe(false);
    } finally {
      reader.ws.close();
      author.ws.close();
    }
  });

  it('refuses to follow a hidden or missing post', async () => {
    const post = await createPost(t, anna, bookId, 'Sparirò');
    await call(anna, 'DELETE', `/api/community/posts/${post.id}`);
    const reader = await mustOpen(base, { cookie: carla.cookie, origin: ORIGIN });
    try {
      for (const topic of [`post:${post.id}`, 'post:nope']) {
        reader.send({ type: 'subscribe', topic });
        expect(await reader.next((f) => f.topic === topic)).toEqual({
          type: 'error',
          status: 403,
          topic,
        });
      }
    } finally {
      reader.ws.close();
    }
  });
});
