import { describe, expect, it } from 'vitest';
import type { Post } from '@shared/schemas/community';
import { befriend } from '../../test/members';
import { createBook, createPost } from '../../test/community';
import { t, call, anna, bruno, carla, calvino, eco, useFixture } from './routes.fixture';

useFixture();

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
