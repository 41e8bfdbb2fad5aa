import { describe, expect, it } from 'vitest';
import type { Post } from '@shared/schemas/community';
import { createPost } from '../../test/community';
import { t, call, anna, bruno, carla, calvino, useFixture } from './routes.fixture';

useFixture();

/** A listing of the Calvino book by `who`, through the listings route; its id. */
async function listCalvino(who: typeof anna) {
  const res = await call(who, 'POST', '/api/listings', {
    mode: 'quickTrade',
    bookId: calvino,
    title: 'Il barone rampante',
    author: 'Italo Calvino',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const bookOf = async (viewer: typeof anna | null, postId: string) => {
  const res = await call(viewer, 'GET', `/api/community/posts/${postId}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as Post).book;
};

describe("a post's book leads to its listing", () => {
  it('names the newest available listing of the book, or none, for the post and in the feed', async () => {
    await t.database.query('delete from book_listings');
    const post = await createPost(t, anna, calvino, 'Un classico da rileggere');
    // Nobody lists it: no listing, the web app links to the library's search instead.
    expect(await bookOf(null, post.id)).toMatchObject({ id: calvino, listingId: null });

    const first = await listCalvino(bruno);
    expect(await bookOf(null, post.id)).toMatchObject({ listingId: first });
    const newer = await listCalvino(carla);
    expect(await bookOf(anna, post.id)).toMatchObject({ listingId: newer });
    const feed = (await call(null, 'GET', '/api/community/posts/popular')).json();
    expect(feed.items.find((p: Post) => p.id === post.id)?.book.listingId).toBe(newer);

    // Sold, or hidden by a moderator: the next available one, then none.
    const sold = await call(carla, 'POST', `/api/listings/${newer}/status`, { status: 'sold' });
    expect(sold.statusCode, sold.body).toBe(200);
    expect(await bookOf(null, post.id)).toMatchObject({ listingId: first });
    await t.database.query('update book_listings set hidden_at = now() where id = $1', [first]);
    expect(await bookOf(null, post.id)).toMatchObject({ listingId: null });
  });

  it('never leads a member to the listing of someone a block stands between', async () => {
    await t.database.query('delete from book_listings');
    const post = await createPost(t, anna, calvino, 'Chi lo vende?');
    const listing = await listCalvino(bruno);
    const blocked = await call(carla, 'PUT', `/api/blocks/${bruno.id}`);
    expect([200, 201, 204]).toContain(blocked.statusCode);
    expect(await bookOf(carla, post.id)).toMatchObject({ listingId: null });
    expect(await bookOf(anna, post.id)).toMatchObject({ listingId: listing });
    await call(carla, 'DELETE', `/api/blocks/${bruno.id}`);
  });
});
