import { describe, expect, it } from 'vitest';
import { POSTS_PER_HOUR, POST_MAX, type Post } from '@shared/schemas/community';
import { befriend } from '../../test/members';
import { createPost } from '../../test/community';
import { t, call, anna, bruno, carla, calvino, eco, postCount, useFixture } from './routes.fixture';

useFixture();

describe('writing a post', () => {
  it('stores a post about a book and answers it whole, trimmed, with its book and author', async () => {
    const res = await call(anna, 'POST', '/api/community/posts', {
      bookId: calvino,
      content: '  Cosimo sale sugli alberi e non scende più.\r\nChe libro!  ',
      tags: ['#calvino', 'Calvino', ' classici '],
    });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json() as Post;
    expect(post).toMatchObject({
      author: { id: anna.id, displayName: 'Anna Conti', username: 'anna_c' },
      book: { id: calvino, title: 'Il barone rampante', author: 'Italo Calvino' },
      content: 'Cosimo sale sugli alberi e non scende più.\nChe libro!',
      postType: 'discussion',
      tags: ['calvino', 'classici'],
      title: null,
      likeCount: 0,
      commentCount: 0,
      likedByMe: false,
      isOwner: true,
      isPinned: false,
      isEdited: false,
      status: 'published',
    });
    expect(post.book?.isbn).toMatch(/^978\d{10}$/);

    const read = await call(null, 'GET', `/api/community/posts/${post.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: post.id, isOwner: false, likedByMe: false });
    expect(read.headers['cache-control']).toContain('public');
  });

  it('refuses an empty post, a post over 2,000 characters and a post without a book, in both languages', async () => {
    const cases: Array<[object, string, string, string]> = [
      [
        { bookId: calvino, content: '   \n\t ' },
        'content',
        'Write something before posting',
        'Scrivi qualcosa prima di pubblicare',
      ],
      [
        { bookId: calvino },
        'content',
        'Write something before posting',
        'Scrivi qualcosa prima di pubblicare',
      ],
      [
        { bookId: calvino, content: 'x'.repeat(POST_MAX + 1) },
        'content',
        'A post can be at most 2,000 characters long',
        'Un post può avere al massimo 2.000 caratteri',
      ],
      [{ content: 'Un bel libro' }, 'bookId', 'Please choose a book', 'Scegli un libro'],
      [
        { bookId: '', content: 'Un bel libro' },
        'bookId',
        'Please choose a book',
        'Scegli un libro',
      ],
      [
        { bookId: '00000000-0000-4000-8000-000000000000', content: 'Un bel libro' },
        'bookId',
        'Please choose a book',
        'Scegli un libro',
      ],
      [
        { bookId: 'not-a-book', content: 'Un bel libro' },
        'bookId',
        'Please choose a book',
        'Scegli un libro',
      ],
    ];
    for (const [body, field, en, it] of cases) {
      const res = await call(anna, 'POST', '/api/community/posts', body, 'en');
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json().error.fields[field]).toBe(en);
      const italian = await call(anna, 'POST', '/api/community/posts', body, 'it');
      expect(italian.statusCode).toBe(400);
      expect(italian.json().error.fields[field]).toBe(it);
    }
    expect(await postCount()).toBe(0);
  });

  it('accepts exactly 2,000 characters (after trimming) and strips control characters', async () => {
    const content = `  ${'a'.repeat(POST_MAX)}  `;
    const post = await createPost(t, anna, calvino, content);
    expect((post as unknown as Post).content).toHaveLength(POST_MAX);
    const res = await call(anna, 'POST', '/api/community/posts', {
      bookId: calvino,
      content: 'bell\u0008o\u0007 libro\u001b[31m\ttab',
    });
    expect(res.json().content).toBe('bello libro[31m\ttab');
    // A NUL byte is refused by the platform's one text check, and nothing is stored.
    const nul = await call(anna, 'POST', '/api/community/posts', {
      bookId: calvino,
      content: 'bell\u0000o',
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.fields.content).toMatch(/not allowed/);
  });

  it('keeps HTML as text: stored and answered exactly as typed, never as markup', async () => {
    const payload = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const post = await createPost(t, anna, calvino, payload);
    const read = await call(null, 'GET', `/api/community/posts/${post.id}`);
    expect(read.headers['content-type']).toContain('application/json');
    expect(read.json().content).toBe(payload);
  });

  it('is for members only: a visitor gets 401 and nothing is stored', async () => {
    const res = await call(null, 'POST', '/api/community/posts', {
      bookId: calvino,
      content: 'Ciao',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Unauthorized. Please login.');
    expect(await postCount()).toBe(0);
  });

  it('allows 10 posts an hour, then answers 429 with a clear message in both languages', async () => {
    for (let i = 0; i < POSTS_PER_HOUR; i++) await createPost(t, bruno, calvino, `Post ${i}`);
    const res = await call(bruno, 'POST', '/api/community/posts', {
      bookId: calvino,
      content: 'Uno di troppo',
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toBe(
      'You can publish at most 10 posts an hour. Please try again later.',
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
    const it = await call(
      bruno,
      'POST',
      '/api/community/posts',
      { bookId: calvino, content: 'Uno di troppo' },
      'it',
    );
    expect(it.statusCode).toBe(429);
    expect(it.json().error.message).toBe(
      "Puoi pubblicare al massimo 10 post all'ora. Riprova più tardi.",
    );
    expect(await postCount()).toBe(POSTS_PER_HOUR);

    // Deleting does not give a post back; another member is not affected.
    const [first] = (await call(bruno, 'GET', `/api/community/users/${bruno.id}/posts`)).json()
      .items;
    expect((await call(bruno, 'DELETE', `/api/community/posts/${first.id}`)).statusCode).toBe(204);
    expect(
      (await call(bruno, 'POST', '/api/community/posts', { bookId: calvino, content: 'Ancora?' }))
        .statusCode,
    ).toBe(429);
    await createPost(t, carla, calvino, 'Io posso');

    // An hour later the window has moved on.
    await t.database.query(
      `update community_posts set created_at = created_at - interval '61 minutes' where user_id = $1`,
      [bruno.id],
    );
    await createPost(t, bruno, calvino, 'Di nuovo qui');
  });
});

describe('editing and deleting a post', () => {
  it('the owner edits only the fields sent, and the post is marked edited', async () => {
    const post = await createPost(t, anna, calvino, 'Prima versione', {
      title: 'Il mio Calvino',
      tags: ['classici'],
    });
    const res = await call(anna, 'PATCH', `/api/community/posts/${post.id}`, {
      content: '  Seconda versione ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      content: 'Seconda versione',
      title: 'Il mio Calvino',
      tags: ['classici'],
      isEdited: true,
      book: { id: calvino },
    });
    const moved = await call(anna, 'PATCH', `/api/community/posts/${post.id}`, {
      bookId: eco,
      title: '',
    });
    expect(moved.json()).toMatchObject({
      content: 'Seconda versione',
      title: null,
      book: { id: eco },
    });

    const bad = await call(anna, 'PATCH', `/api/community/posts/${post.id}`, { content: ' ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.content).toBe('Write something before posting');
    const empty = await call(anna, 'PATCH', `/api/community/posts/${post.id}`, {});
    expect(empty.statusCode).toBe(400);
    const tooLong = await call(anna, 'PATCH', `/api/community/posts/${post.id}`, {
      content: 'y'.repeat(2001),
    });
    expect(tooLong.json().error.fields.content).toBe('A post can be at most 2,000 characters long');
  });

  it('a visitor gets 401 and another member 403, and nothing changes', async () => {
    const post = await createPost(t, anna, calvino, 'Intoccabile');
    const before = (await call(anna, 'GET', `/api/community/posts/${post.id}`)).json();
    expect(
      (await call(null, 'PATCH', `/api/community/posts/${post.id}`, { content: 'x' })).statusCode,
    ).toBe(401);
    expect((await call(null, 'DELETE', `/api/community/posts/${post.id}`)).statusCode).toBe(401);
    const edit = await call(bruno, 'PATCH', `/api/community/posts/${post.id}`, {
      content: 'hackerato',
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().error.message).toBe('Only the author can change or delete this.');
    expect((await call(bruno, 'DELETE', `/api/community/posts/${post.id}`)).statusCode).toBe(403);
    const after = (await call(anna, 'GET', `/api/community/posts/${post.id}`)).json();
    expect(after).toEqual(before);
  });

  it('deleting hides the post from every list, the search and its page', async () => {
    await befriend(t, anna, bruno);
    const post = await createPost(t, anna, calvino, 'Una riflessione sugli alberi');
    const keep = await createPost(t, anna, eco, 'Una riflessione sulla biblioteca');
    const lists = [
      '/api/community/posts/popular',
      '/api/community/posts/friends',
      `/api/community/users/${anna.id}/posts`,
      '/api/community/posts/search?q=riflessione',
    ];
    for (const url of lists) {
      const ids = (await call(bruno, 'GET', url)).json().items.map((p: Post) => p.id);
      expect(ids, url).toContain(post.id);
    }
    expect((await call(anna, 'DELETE', `/api/community/posts/${post.id}`)).statusCode).toBe(204);
    for (const url of lists) {
      const page = (await call(bruno, 'GET', url)).json();
      expect(
        page.items.map((p: Post) => p.id),
        url,
      ).toEqual([keep.id]);
      expect(page.total, url).toBe(1);
    }
    const gone = await call(null, 'GET', `/api/community/posts/${post.id}`, undefined, 'it');
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe('Questo post non esiste o è stato rimosso.');
    expect((await call(null, 'GET', `/api/community/posts/${post.id}/comments`)).statusCode).toBe(
      404,
    );
    expect((await call(bruno, 'PUT', `/api/community/posts/${post.id}/like`)).statusCode).toBe(404);
    expect(
      (await call(anna, 'PATCH', `/api/community/posts/${post.id}`, { content: 'x' })).statusCode,
    ).toBe(404);
    expect((await call(anna, 'DELETE', `/api/community/posts/${post.id}`)).statusCode).toBe(404);
    // Stored, hidden (soft delete).
    const [row] = await t.database.query<{ status: string }>(
      'select status from community_posts where id = $1',
      [post.id],
    );
    expect(row.status).toBe('hidden');
  });

  it('answers 404 for a post that does not exist, whatever its id looks like', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '1']) {
      expect((await call(null, 'GET', `/api/community/posts/${id}`)).statusCode).toBe(404);
      expect(
        (await call(anna, 'PATCH', `/api/community/posts/${id}`, { content: 'x' })).statusCode,
      ).toBe(404);
    }
  });
});
