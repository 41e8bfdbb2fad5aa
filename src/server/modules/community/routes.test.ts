import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  COMMENTS_PER_HOUR,
  POSTS_PER_HOUR,
  POST_MAX,
  type Comment,
  type Post,
} from '@shared/schemas/community';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, type Member } from '../../test/members';
import { befriend, caller, createBook, createPost } from './test-support';

let t: TestApp;
let call: ReturnType<typeof caller>;
let anna: Member;
let bruno: Member;
let carla: Member;
let calvino: string;
let eco: string;

beforeAll(async () => {
  t = await createTestApp();
  call = caller(t);
  [anna, bruno, carla] = await Promise.all([
    createMember(t, { username: 'anna_c', displayName: 'Anna Conti' }),
    createMember(t, { username: 'bruno_b', displayName: 'Bruno Bianchi' }),
    createMember(t, { username: 'carla_c', displayName: 'Carla Càrdone' }),
  ]);
  calvino = await createBook(t, 'Il barone rampante', 'Italo Calvino');
  eco = await createBook(t, 'Il nome della rosa', 'Umberto Eco');
});

beforeEach(async () => {
  await t.database.query('delete from community_posts');
  await t.database.query('delete from connections');
});

const postCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from community_posts'))[0].n;

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

describe('the feeds', () => {
  it("popular: this week's posts, most likes first then newest, 10 a page, for everyone", async () => {
    const old = await createPost(t, anna, calvino, 'Vecchio ma amato');
    await t.database.query(
      `update community_posts set created_at = now() - interval '8 days' where id = $1`,
      [old.id],
    );
    const quiet = await createPost(t, anna, calvino, 'Nessuno mi ama');
    const loved = await createPost(t, bruno, calvino, 'Amatissimo');
    const liked = await createPost(t, carla, eco, 'Un like');
    for (const who of [anna, carla])
      await call(who, 'PUT', `/api/community/posts/${loved.id}/like`);
    await call(anna, 'PUT', `/api/community/posts/${liked.id}/like`);
    for (const who of [anna, bruno, carla])
      await call(who, 'PUT', `/api/community/posts/${old.id}/like`);
    const newer = await createPost(t, bruno, eco, 'Appena scritto');

    const res = await call(null, 'GET', '/api/community/posts/popular');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 1, pageSize: 10, total: 4 });
    expect(page.items.map((p: Post) => p.id)).toEqual([loved.id, liked.id, newer.id, quiet.id]);
    expect(page.items[0]).toMatchObject({ likeCount: 2, likedByMe: false });

    const mine = (await call(anna, 'GET', '/api/community/posts/popular')).json();
    expect(mine.items[0]).toMatchObject({ id: loved.id, likedByMe: true });

    for (let i = 0; i < 9; i++) await createPost(t, carla, eco, `Riempitivo ${i}`);
    const second = (await call(null, 'GET', '/api/community/posts/popular?page=2')).json();
    expect(second).toMatchObject({ page: 2, pageSize: 10, total: 13 });
    expect(second.items).toHaveLength(3);
    expect((await call(null, 'GET', '/api/community/posts/popular?page=0')).statusCode).toBe(400);
  });

  it("friends: only accepted friends' posts, newest first; 401 for visitors", async () => {
    await befriend(t, anna, bruno);
    await t.database.query(
      `insert into connections (requester_id, addressee_id, status) values ($1, $2, 'pending')`,
      [anna.id, carla.id],
    );
    const b1 = await createPost(t, bruno, calvino, 'Bruno uno');
    await createPost(t, carla, calvino, 'Carla (solo richiesta)');
    await createPost(t, anna, calvino, 'Anna stessa');
    const b2 = await createPost(t, bruno, eco, 'Bruno due');
    const res = await call(anna, 'GET', '/api/community/posts/friends');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ page: 1, pageSize: 50, total: 2 });
    expect(res.json().items.map((p: Post) => p.id)).toEqual([b2.id, b1.id]);
    // Either side of the friendship.
    const bruno_ = (await call(bruno, 'GET', '/api/community/posts/friends')).json();
    expect(bruno_.items.map((p: Post) => p.content)).toEqual(['Anna stessa']);

    const visitor = await call(null, 'GET', '/api/community/posts/friends', undefined, 'it');
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().error.code).toBe('unauthorized');
  });

  it("a member's profile posts: newest first, 20 a page, public; 404 for no such member", async () => {
    for (let i = 0; i < 3; i++) await createPost(t, carla, calvino, `Carla ${i}`);
    await createPost(t, anna, calvino, 'Anna');
    const res = await call(null, 'GET', `/api/community/users/${carla.id}/posts`);
    expect(res.json()).toMatchObject({ page: 1, pageSize: 20, total: 3 });
    expect(res.json().items.map((p: Post) => p.content)).toEqual(['Carla 2', 'Carla 1', 'Carla 0']);
    expect((await call(null, 'GET', '/api/community/users/nobody/posts')).statusCode).toBe(404);
  });

  it('a post whose author is suspended disappears (issue 12: suspended members vanish)', async () => {
    const post = await createPost(t, carla, calvino, 'Chi sono?');
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [
      carla.id,
    ]);
    try {
      const res = await call(null, 'GET', `/api/community/posts/${post.id}`);
      expect(res.statusCode).toBe(404);
      const mine = await call(null, 'GET', `/api/community/users/${carla.id}/posts`);
      expect(mine.json().items.map((p: { id: string }) => p.id)).not.toContain(post.id);
    } finally {
      await t.database.query(`update users set account_status = 'active' where id = $1`, [
        carla.id,
      ]);
    }
  });
});

describe('search', () => {
  it('finds posts by a word of their text, title or book, accents and case ignored, in both languages', async () => {
    const perche = await createPost(
      t,
      anna,
      calvino,
      'Perché leggere i classici? Città invisibili',
      {
        title: 'Letture estive',
      },
    );
    const english = await createPost(
      t,
      bruno,
      eco,
      'A gripping medieval mystery in an abbey library',
    );
    await createPost(t, carla, calvino, 'Niente da vedere qui');

    const ids = async (q: string) =>
      (await call(null, 'GET', `/api/community/posts/search?q=${encodeURIComponent(q)}`))
        .json()
        .items.map((p: Post) => p.id);
    expect(await ids('perche')).toEqual([perche.id]);
    expect(await ids('PERCHÉ')).toEqual([perche.id]);
    expect(await ids('citta invisibili')).toEqual([perche.id]);
    expect(await ids('estive')).toEqual([perche.id]);
    expect(await ids('medieval abbey')).toEqual([english.id]);
    expect(await ids('myst')).toEqual([english.id]);
    // The book's title and author.
    expect(await ids('umberto')).toEqual([english.id]);
    expect(await ids('rosa')).toEqual([english.id]);
    expect((await ids('calvino')).sort()).toHaveLength(2);
    expect(await ids('zanzibar')).toEqual([]);
    // Query syntax is only words.
    expect(await ids("') | !x:* & (")).toEqual([]);

    const short = await call(null, 'GET', '/api/community/posts/search?q=a', undefined, 'it');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.q).toBe('Scrivi almeno 2 caratteri per cercare');
  });

  it('reindexes a post when it is edited or its book is renamed', async () => {
    const post = await createPost(t, anna, calvino, 'Prima stesura');
    await call(anna, 'PATCH', `/api/community/posts/${post.id}`, {
      content: 'Seconda stesura ramificata',
    });
    const search = async (q: string) =>
      (await call(null, 'GET', `/api/community/posts/search?q=${q}`)).json().total;
    expect(await search('ramificata')).toBe(1);
    expect(await search('prima')).toBe(0);
    const book = await createBook(t, 'Titolo provvisorio', 'Autrice Ignota');
    await call(anna, 'PATCH', `/api/community/posts/${post.id}`, { bookId: book });
    await t.database.query(`update books set title = 'Lessico famigliare' where id = $1`, [book]);
    expect(await search('lessico')).toBe(1);
  });
});

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
