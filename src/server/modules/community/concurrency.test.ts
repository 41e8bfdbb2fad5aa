import { beforeAll, describe, expect, it } from 'vitest';
import { POSTS_PER_HOUR } from '@shared/schemas/community';
import type { SessionResolver } from '../../platform/auth';
import { createTestApp, createTestDatabase, type TestApp } from '../../test/app';
import { createBook } from '../../test/community';

/**
 * Many members at once. Signing up 100 members through better-auth would cost most of the run in
 * password hashing, so this file's app resolves a member from an `x-test-member` header: a double
 * of the session seam only; every route, rule and count below is the real one.
 */
let t: TestApp;
let members: string[];
let bookId: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  const sessions: SessionResolver = {
    async resolve(request) {
      const id = request.headers['x-test-member'];
      if (typeof id !== 'string') return null;
      const [row] = await database.query<{ id: string; email: string; display_name: string }>(
        'select id, email::text as email, display_name from users where id = $1',
        [id],
      );
      return row
        ? {
            id: row.id,
            email: row.email,
            displayName: row.display_name,
            username: null,
            emailVerified: true,
          }
        : null;
    },
  };
  t = await createTestApp({ database, deps: { sessions } });
  members = (
    await database.query<{ id: string }>(
      `insert into users (id, email, display_name)
       select 'crowd-' || i, 'crowd-' || i || '@example.com', 'Lettore ' || i
       from generate_series(1, 101) as i returning id`,
    )
  ).map((r) => r.id);
  bookId = await createBook(t, 'Se una notte d’inverno un viaggiatore', 'Italo Calvino');
});

const as = (
  member: string,
  method: 'POST' | 'PUT' | 'DELETE' | 'GET',
  url: string,
  payload?: object,
) =>
  t.inject({
    method,
    url,
    headers: { 'x-test-member': member, 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });

async function newPost(author: string) {
  const res = await as(author, 'POST', '/api/community/posts', { bookId, content: 'Folla!' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

describe('counts under concurrency', () => {
  it('100 members liking at once give exactly 100 likes; 100 unlikes give 0', async () => {
    const postId = await newPost(members[0]);
    const likers = members.slice(1, 101);
    const liked = await Promise.all(
      likers.map((m) => as(m, 'PUT', `/api/community/posts/${postId}/like`)),
    );
    expect(liked.map((r) => r.statusCode)).toEqual(likers.map(() => 200));
    // And every member liking twice at once changes nothing more.
    await Promise.all(likers.map((m) => as(m, 'PUT', `/api/community/posts/${postId}/like`)));
    const post = (await as(members[0], 'GET', `/api/community/posts/${postId}`)).json();
    expect(post.likeCount).toBe(100);
    const [stored] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from post_reactions where post_id = $1',
      [postId],
    );
    expect(stored.n).toBe(100);

    await Promise.all(likers.map((m) => as(m, 'DELETE', `/api/community/posts/${postId}/like`)));
    expect((await as(members[0], 'GET', `/api/community/posts/${postId}`)).json().likeCount).toBe(
      0,
    );
    // 300 requests: PGlite serves them one query at a time, slow on a busy machine.
  }, 120_000);

  it('50 comments at once give a comment count of exactly 50', async () => {
    const postId = await newPost(members[1]);
    const res = await Promise.all(
      members
        .slice(2, 52)
        .map((m) => as(m, 'POST', `/api/community/posts/${postId}/comments`, { content: 'Io!' })),
    );
    expect(res.every((r) => r.statusCode === 201)).toBe(true);
    expect(
      (await as(members[1], 'GET', `/api/community/posts/${postId}`)).json().commentCount,
    ).toBe(50);
  }, 60_000);

  it('a member sending 15 posts at once gets exactly 10 through (the rest 429)', async () => {
    const author = members[100];
    const res = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        as(author, 'POST', '/api/community/posts', { bookId, content: `Raffica ${i}` }),
      ),
    );
    const codes = res.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(POSTS_PER_HOUR);
    expect(codes.filter((c) => c === 429)).toHaveLength(15 - POSTS_PER_HOUR);
  });
});
