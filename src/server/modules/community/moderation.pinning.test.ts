import { describe, expect, it } from 'vitest';
import { PINNED_MAX, type Post } from '@shared/schemas/community';
import { createPost } from '../../test/community';
import {
  t,
  call,
  admin,
  anna,
  bruno,
  carla,
  bookId,
  reason,
  ids,
  insertPost,
  useFixture,
} from './moderation.fixture';

useFixture();

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
