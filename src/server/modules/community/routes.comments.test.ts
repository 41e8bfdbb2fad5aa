import { describe, expect, it } from 'vitest';
import { COMMENTS_PER_HOUR, type Comment } from '@shared/schemas/community';
import { befriend } from '../../test/members';
import { createPost } from '../../test/community';
import { t, call, anna, bruno, carla, calvino, eco, useFixture } from './routes.fixture';

useFixture();

describe('comments', () => {
  it('members comment and reply (one level), visitors read them oldest first', async () => {
    const post = await createPost(t, anna, calvino, 'Discutiamone');
    const first = await call(bruno, 'POST', `/api/community/posts/${post.id}/comments`, {
      content: ' Primo! ',
    });
    expect(first.statusCode, first.body).toBe(201);
    const top = first.json() as Comment;
    expect(top).toMatchObject({
      postId: post.id,
      content: 'Primo!',
      parentCommentId: null,
      author: { id: bruno.id },
      likeCount: 0,
      likedByMe: false,
      isOwner: true,
      isEdited: false,
    });
    const reply = (
      await call(carla, 'POST', `/api/community/posts/${post.id}/comments`, {
        content: 'Risposta',
        parentCommentId: top.id,
      })
    ).json() as Comment;
    expect(reply.parentCommentId).toBe(top.id);
    // A reply to a reply answers the top comment.
    const deep = (
      await call(anna, 'POST', `/api/community/posts/${post.id}/comments`, {
        content: 'Risposta alla risposta',
        parentCommentId: reply.id,
      })
    ).json() as Comment;
    expect(deep.parentCommentId).toBe(top.id);

    const list = await call(null, 'GET', `/api/community/posts/${post.id}/comments`);
    expect(list.json()).toMatchObject({ page: 1, pageSize: 50, total: 3 });
    expect(list.json().items.map((c: Comment) => c.content)).toEqual([
      'Primo!',
      'Risposta',
      'Risposta alla risposta',
    ]);
    expect((await call(null, 'GET', `/api/community/posts/${post.id}`)).json().commentCount).toBe(
      3,
    );

    const orphan = await call(bruno, 'POST', `/api/community/posts/${post.id}/comments`, {
      content: 'x',
      parentCommentId: '00000000-0000-4000-8000-000000000000',
    });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json().error.fields.parentCommentId).toBe(
      'The comment you are replying to no longer exists',
    );
  });

  it('validates comments and refuses visitors', async () => {
    const post = await createPost(t, anna, calvino, 'Commentami');
    const url = `/api/community/posts/${post.id}/comments`;
    const empty = await call(bruno, 'POST', url, { content: '  ' }, 'it');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.content).toBe('Scrivi qualcosa prima di pubblicare');
    const long = await call(bruno, 'POST', url, { content: 'z'.repeat(2001) });
    expect(long.json().error.fields.content).toBe('A comment can be at most 2,000 characters long');
    expect((await call(null, 'POST', url, { content: 'ciao' })).statusCode).toBe(401);
    expect(
      (
        await call(
          bruno,
          'POST',
          '/api/community/posts/00000000-0000-4000-8000-000000000000/comments',
          { content: 'x' },
        )
      ).statusCode,
    ).toBe(404);
    expect((await call(null, 'GET', url)).json().total).toBe(0);
  });

  it('pages 50 at a time, oldest first', async () => {
    const post = await createPost(t, anna, calvino, 'Tanti commenti');
    await t.database.query(
      `insert into post_comments (post_id, user_id, content, created_at)
       select $1, $2, 'Commento ' || i, now() - interval '1 hour' + i * interval '1 second'
       from generate_series(1, 55) as i`,
      [post.id, bruno.id],
    );
    const one = (await call(null, 'GET', `/api/community/posts/${post.id}/comments`)).json();
    expect(one).toMatchObject({ total: 55, pageSize: 50 });
    expect(one.items).toHaveLength(50);
    expect(one.items[0].content).toBe('Commento 1');
    expect(one.items[49].content).toBe('Commento 50');
    const two = (await call(null, 'GET', `/api/community/posts/${post.id}/comments?page=2`)).json();
    expect(two.items.map((c: Comment) => c.content)).toEqual([
      'Commento 51',
      'Commento 52',
      'Commento 53',
      'Commento 54',
      'Commento 55',
    ]);
    expect((await call(null, 'GET', `/api/community/posts/${post.id}`)).json().commentCount).toBe(
      55,
    );
  });

  it('the owner edits and deletes a comment; others get 401/403 and nothing changes', async () => {
    const post = await createPost(t, anna, calvino, 'Post');
    const url = `/api/community/posts/${post.id}/comments`;
    const top = (await call(bruno, 'POST', url, { content: 'Mio commento' })).json() as Comment;
    await call(carla, 'POST', url, { content: 'Risposta di Carla', parentCommentId: top.id });
    const other = (await call(carla, 'POST', url, { content: 'Altro' })).json() as Comment;

    expect(
      (await call(null, 'PATCH', `/api/community/comments/${top.id}`, { content: 'x' })).statusCode,
    ).toBe(401);
    const foreign = await call(anna, 'PATCH', `/api/community/comments/${top.id}`, {
      content: 'x',
    });
    expect(foreign.statusCode).toBe(403);
    expect((await call(anna, 'DELETE', `/api/community/comments/${top.id}`)).statusCode).toBe(403);
    expect((await call(null, 'DELETE', `/api/community/comments/${top.id}`)).statusCode).toBe(401);

    const edited = await call(bruno, 'PATCH', `/api/community/comments/${top.id}`, {
      content: 'Corretto ',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ content: 'Corretto', isEdited: true });

    // Deleting a top comment hides its reply too; the count follows.
    expect((await call(bruno, 'DELETE', `/api/community/comments/${top.id}`)).statusCode).toBe(204);
    const list = (await call(null, 'GET', url)).json();
    expect(list.items.map((c: Comment) => c.id)).toEqual([other.id]);
    expect((await call(null, 'GET', `/api/community/posts/${post.id}`)).json().commentCount).toBe(
      1,
    );
    expect(
      (await call(bruno, 'PATCH', `/api/community/comments/${top.id}`, { content: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await call(bruno, 'DELETE', `/api/community/comments/${top.id}`)).statusCode).toBe(404);
    expect((await call(anna, 'PUT', `/api/community/comments/${top.id}/like`)).statusCode).toBe(
      404,
    );
  });

  it('allows 60 comments an hour, then 429 in both languages', async () => {
    const post = await createPost(t, anna, calvino, 'Post affollato');
    await t.database.query(
      `insert into post_comments (post_id, user_id, content)
       select $1, $2, 'c' || i from generate_series(1, $3::int) as i`,
      [post.id, carla.id, COMMENTS_PER_HOUR - 1],
    );
    const url = `/api/community/posts/${post.id}/comments`;
    expect((await call(carla, 'POST', url, { content: 'sessantesimo' })).statusCode).toBe(201);
    const res = await call(carla, 'POST', url, { content: 'di troppo' });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toBe(
      'You can write at most 60 comments an hour. Please try again later.',
    );
    const it = await call(carla, 'POST', url, { content: 'di troppo' }, 'it');
    expect(it.json().error.message).toBe(
      "Puoi scrivere al massimo 60 commenti all'ora. Riprova più tardi.",
    );
    expect((await call(null, 'GET', `/api/community/posts/${post.id}`)).json().commentCount).toBe(
      COMMENTS_PER_HOUR,
    );
    expect((await call(bruno, 'POST', url, { content: 'io sì' })).statusCode).toBe(201);
  });
});

describe('likes', () => {
  it('members like and unlike posts and comments, once each, idempotently', async () => {
    const post = await createPost(t, anna, calvino, 'Mi piace?');
    const url = `/api/community/posts/${post.id}/like`;
    expect((await call(bruno, 'PUT', url)).json()).toEqual({ liked: true, likeCount: 1 });
    expect((await call(bruno, 'PUT', url)).json()).toEqual({ liked: true, likeCount: 1 });
    expect((await call(carla, 'PUT', url)).json()).toEqual({ liked: true, likeCount: 2 });
    expect((await call(bruno, 'GET', `/api/community/posts/${post.id}`)).json()).toMatchObject({
      likeCount: 2,
      likedByMe: true,
    });
    expect((await call(bruno, 'DELETE', url)).json()).toEqual({ liked: false, likeCount: 1 });
    expect((await call(bruno, 'DELETE', url)).json()).toEqual({ liked: false, likeCount: 1 });

    const comment = (
      await call(anna, 'POST', `/api/community/posts/${post.id}/comments`, { content: 'Grazie' })
    ).json() as Comment;
    const curl = `/api/community/comments/${comment.id}/like`;
    expect((await call(bruno, 'PUT', curl)).json()).toEqual({ liked: true, likeCount: 1 });
    expect((await call(bruno, 'PUT', curl)).json()).toEqual({ liked: true, likeCount: 1 });
    const listed = (await call(bruno, 'GET', `/api/community/posts/${post.id}/comments`)).json();
    expect(listed.items[0]).toMatchObject({ likeCount: 1, likedByMe: true });
    expect((await call(bruno, 'DELETE', curl)).json()).toEqual({ liked: false, likeCount: 0 });
  });

  it('visitors get 401 and nothing is counted', async () => {
    const post = await createPost(t, anna, calvino, 'Solo membri');
    const res = await call(null, 'PUT', `/api/community/posts/${post.id}/like`, undefined, 'it');
    expect(res.statusCode).toBe(401);
    expect((await call(null, 'DELETE', `/api/community/posts/${post.id}/like`)).statusCode).toBe(
      401,
    );
    expect((await call(null, 'GET', `/api/community/posts/${post.id}`)).json().likeCount).toBe(0);
  });

  it("feed both members' interaction count on the friends page", async () => {
    await befriend(t, anna, bruno);
    await befriend(t, anna, carla);
    const annaPost = await createPost(t, anna, calvino, 'Di Anna');
    const brunoPost = await createPost(t, bruno, calvino, 'Di Bruno');
    const brunoPost2 = await createPost(t, bruno, eco, 'Di Bruno 2');
    await call(bruno, 'PUT', `/api/community/posts/${annaPost.id}/like`);
    await call(anna, 'PUT', `/api/community/posts/${brunoPost.id}/like`);
    await call(anna, 'PUT', `/api/community/posts/${brunoPost2.id}/like`);
    const friends = (await call(anna, 'GET', '/api/connections')).json();
    expect(friends.items[0]).toMatchObject({
      member: { id: bruno.id },
      reactions: 3,
      interactions: 3,
    });
    expect(friends.items[1]).toMatchObject({ member: { id: carla.id }, reactions: 0 });
    const ofBruno = (await call(bruno, 'GET', '/api/connections')).json();
    expect(ofBruno.items[0]).toMatchObject({ member: { id: anna.id }, reactions: 3 });
    // A hidden post's likes no longer count.
    await call(bruno, 'DELETE', `/api/community/posts/${brunoPost2.id}`);
    expect((await call(anna, 'GET', '/api/connections')).json().items[0].reactions).toBe(2);
  });
});

describe('OpenAPI', () => {
  it('documents every community route with its errors', async () => {
    const doc = (await call(null, 'GET', '/api/openapi.json')).json();
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/community'));
    expect(paths.sort()).toEqual([
      '/api/community/comments/{commentId}',
      '/api/community/comments/{commentId}/like',
      '/api/community/posts',
      '/api/community/posts/friends',
      '/api/community/posts/popular',
      '/api/community/posts/search',
      '/api/community/posts/{postId}',
      '/api/community/posts/{postId}/comments',
      '/api/community/posts/{postId}/like',
      '/api/community/users/{userId}/posts',
    ]);
    expect(Object.keys(doc.paths['/api/community/posts'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '429']),
    );
    expect(Object.keys(doc.paths['/api/community/posts/{postId}'].patch.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404']),
    );
  });
});
