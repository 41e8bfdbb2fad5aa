import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Post } from '@shared/schemas/community';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { uploadImage } from '../../test/uploads';
import { caller, createBook, createPost } from '../../test/community';

let t: TestApp;
let call: ReturnType<typeof caller>;
let anna: Member;
let bruno: Member;
let book: string;

beforeAll(async () => {
  t = await createTestApp({
    config: { dataDir: mkdtempSync(join(tmpdir(), 'scaffale-community-img-')) },
  });
  call = caller(t);
  [anna, bruno] = await Promise.all([
    createMember(t, { username: 'anna_img', displayName: 'Anna Immagine' }),
    createMember(t, { username: 'bruno_img', displayName: 'Bruno Immagine' }),
  ]);
  book = await createBook(t, 'Le città invisibili', 'Italo Calvino');
});

beforeEach(async () => {
  await t.database.query('delete from community_posts');
});

const upload = (who: Member) => uploadImage(t, who);

const storedImage = async (id: string) =>
  (
    await t.database.query<{ image_url: string | null }>(
      'select image_url from community_posts where id = $1',
      [id],
    )
  )[0]?.image_url;
const postCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from community_posts'))[0].n;

describe('a post image', () => {
  it("stores the member's own upload with a title, type and tags, and answers it everywhere", async () => {
    const url = await upload(anna);
    const res = await call(anna, 'POST', '/api/community/posts', {
      bookId: book,
      content: 'Marco Polo racconta città.',
      title: '  Città sottili ',
      postType: 'review',
      tags: ['calvino', ' viaggi ', ''],
      imageUrl: url,
    });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json() as Post;
    expect(post).toMatchObject({
      title: 'Città sottili',
      postType: 'review',
      tags: ['calvino', 'viaggi'],
      imageUrl: url,
    });
    expect(await storedImage(post.id)).toBe(url);
    const read = await call(null, 'GET', `/api/community/posts/${post.id}`);
    expect(read.json().imageUrl).toBe(url);
    const feed = await call(null, 'GET', `/api/community/users/${anna.id}/posts`);
    expect(feed.json().items[0].imageUrl).toBe(url);
    expect((await t.inject({ method: 'GET', url })).statusCode).toBe(200);
  });

  it("refuses another member's upload and outside URLs, in both languages, storing nothing", async () => {
    const brunos = await upload(bruno);
    const outside = [
      brunos,
      'https://evil.example/cat.png',
      '//evil.example/cat.png',
      `/uploads/covers/${anna.id}/../${bruno.id}/${'a'.repeat(32)}.webp`,
      `/uploads/avatars/${'a'.repeat(32)}.webp`,
      'javascript:alert(1)',
    ];
    for (const imageUrl of outside) {
      const res = await call(anna, 'POST', '/api/community/posts', {
        bookId: book,
        content: 'Con una foto non mia',
        imageUrl,
      });
      expect(res.statusCode, imageUrl).toBe(400);
      expect(res.json().error.fields.imageUrl).toBe(
        'Choose an image you uploaded yourself: other images and links are not accepted',
      );
    }
    const it = await call(
      anna,
      'POST',
      '/api/community/posts',
      { bookId: book, content: 'x', imageUrl: brunos },
      'it',
    );
    expect(it.statusCode).toBe(400);
    expect(it.json().error.message).toBe(
      'Scegli un’immagine caricata da te: altre immagini e link non sono accettati',
    );
    expect(await postCount()).toBe(0);

    // PATCH: the same rule, and the stored image stays.
    const mine = await upload(anna);
    const post = await createPost(t, anna, book, 'Con la mia foto', { imageUrl: mine });
    const patch = await call(anna, 'PATCH', `/api/community/posts/${post.id}`, {
      imageUrl: brunos,
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().error.fields.imageUrl).toMatch(/uploaded yourself/);
    expect(await storedImage(post.id)).toBe(mine);
  });

  it('PATCH sets, replaces and removes (null) the image; only the owner may', async () => {
    const first = await upload(anna);
    const second = await upload(anna);
    const post = await createPost(t, anna, book, 'Senza foto');
    expect(await storedImage(post.id)).toBeNull();

    const set = await call(anna, 'PATCH', `/api/community/posts/${post.id}`, { imageUrl: first });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ imageUrl: first, isEdited: true, content: 'Senza foto' });

    const anon = await call(null, 'PATCH', `/api/community/posts/${post.id}`, { imageUrl: null });
    expect(anon.statusCode).toBe(401);
    const other = await call(bruno, 'PATCH', `/api/community/posts/${post.id}`, {
      imageUrl: null,
    });
    expect(other.statusCode).toBe(403);
    expect(await storedImage(post.id)).toBe(first);

    const replaced = await call(anna, 'PATCH', `/api/community/posts/${post.id}`, {
      imageUrl: second,
    });
    expect(replaced.json().imageUrl).toBe(second);
    // The replaced upload is shown nowhere else: its file goes.
    expect((await t.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: second })).statusCode).toBe(200);

    const removed = await call(anna, 'PATCH', `/api/community/posts/${post.id}`, {
      imageUrl: null,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().imageUrl).toBeNull();
    expect(await storedImage(post.id)).toBeNull();
    expect((await t.inject({ method: 'GET', url: second })).statusCode).toBe(404);
  });
});
