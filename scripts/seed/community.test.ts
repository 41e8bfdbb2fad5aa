import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../src/server/test/helpers';
import { signIn } from '../../src/server/test/members';
import { DEMO_PASSWORD, runSeed } from '../seed-demo';
import { demoPosts } from './community';

describe('seed:demo community step', async () => {
  const testApp = await createTestApp();
  const { database, config, inject } = testApp;
  const quiet = () => {};

  it('adds posts, likes and comments once, so both tabs have content', async () => {
    await runSeed({ config, database, log: quiet });
    await runSeed({ config, database, log: quiet });
    const [{ n }] = await database.query<{ n: number }>(
      'select count(*)::int as n from community_posts',
    );
    expect(n).toBe(demoPosts.length);

    // Popular this week, for visitors: a full first page, most liked first, with books.
    const popular = (await inject({ method: 'GET', url: '/api/community/posts/popular' })).json();
    expect(popular.total).toBe(demoPosts.length);
    expect(popular.items).toHaveLength(10);
    const likes = popular.items.map((p: { likeCount: number }) => p.likeCount);
    expect(likes).toEqual([...likes].sort((a, b) => b - a));
    expect(popular.items[0]).toMatchObject({
      author: { username: 'marco_rossi' },
      likeCount: 4,
      commentCount: 3,
      book: { title: 'SPQR. Storia dell’antica Roma' },
    });
    expect(popular.items.every((p: { book: unknown }) => p.book !== null)).toBe(true);

    // Giulia's friends (Marco, Francesca, Emily) have posted.
    const cookie = await signIn(testApp, 'giulia.bianchi@example.org', DEMO_PASSWORD);
    const friends = (
      await inject({ method: 'GET', url: '/api/community/posts/friends', headers: { cookie } })
    ).json();
    const authors = new Set(
      friends.items.map((p: { author: { username: string } }) => p.author.username),
    );
    expect([...authors].sort()).toEqual(['emily_reads', 'fra_esposito', 'marco_rossi']);

    // The comments are threaded and oldest first.
    const comments = (
      await inject({ method: 'GET', url: `/api/community/posts/${popular.items[0].id}/comments` })
    ).json();
    expect(comments.items.map((c: { content: string }) => c.content)[0]).toMatch(/Cicerone/);
    expect(comments.items[1].parentCommentId).toBe(comments.items[0].id);
    expect(comments.items[0].likeCount).toBe(1);
  }, 120_000);
});
