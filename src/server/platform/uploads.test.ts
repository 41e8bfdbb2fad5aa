import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createMember, type Member } from '../test/members';
import { uploadImage } from '../test/uploads';
import { caller, createBook } from '../test/community';
import { saleListing } from '../test/listings';

let t: TestApp;
let call: ReturnType<typeof caller>;
let anna: Member;
let book: string;

beforeAll(async () => {
  t = await createTestApp({
    config: { dataDir: mkdtempSync(join(tmpdir(), 'scaffale-uploads-')) },
  });
  call = caller(t);
  anna = await createMember(t, { username: 'anna_uploads', displayName: 'Anna Upload' });
  book = await createBook(t, 'Il barone rampante', 'Italo Calvino');
});

const served = async (url: string) => (await t.inject({ method: 'GET', url })).statusCode;
const listing = (coverUrl: string) => ({ ...saleListing, coverUrl });

describe('uploaded images nothing shows any more', () => {
  it('go when replaced or deleted, and stay while a listing, post or ad still shows them', async () => {
    const shared = await uploadImage(t, anna, '#aa3322');
    const created = await call(anna, 'POST', '/api/listings', listing(shared));
    expect(created.statusCode, created.body).toBe(201);
    const listingId = created.json().id as string;
    const post = await call(anna, 'POST', '/api/community/posts', {
      bookId: book,
      content: 'La copertina del mio libro in vendita',
      imageUrl: shared,
    });
    expect(post.statusCode, post.body).toBe(201);

    // The listing goes; the post still shows the file.
    expect((await call(anna, 'DELETE', `/api/listings/${listingId}`)).statusCode).toBe(204);
    expect(await served(shared)).toBe(200);

    // An ad shows it too; the post stops showing it: the ad keeps it.
    const ad = await call(anna, 'POST', '/api/ads', {
      title: 'Il barone rampante',
      description: 'Cosimo sale sugli alberi e non scende più.',
      genre: 'fiction',
      keywords: 'calvino, alberi',
      coverImageUrl: shared,
    });
    expect(ad.statusCode, ad.body).toBe(201);
    const adId = ad.json().ad.id as string;
    const other = await uploadImage(t, anna, '#2233aa');
    const edited = await call(anna, 'PATCH', `/api/community/posts/${post.json().id}`, {
      imageUrl: other,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await served(shared)).toBe(200);

    // The ad's cover is replaced: now nothing shows the first file.
    const third = await uploadImage(t, anna, '#22aa33');
    const adEdit = await call(anna, 'PATCH', `/api/ads/${adId}`, {
      coverImageUrl: third,
    });
    expect(adEdit.statusCode, adEdit.body).toBe(200);
    expect(await served(shared)).toBe(404);
    expect(await served(third)).toBe(200);

    // Deleting the ad deletes its cover; the post's image stays after the post is deleted
    // (moderators may still review a deleted post).
    expect((await call(anna, 'DELETE', `/api/ads/${adId}`)).statusCode).toBe(204);
    expect(await served(third)).toBe(404);
    expect((await call(anna, 'DELETE', `/api/community/posts/${post.json().id}`)).statusCode).toBe(
      204,
    );
    expect(await served(other)).toBe(200);
  });

  it('finds the images still shown on the partial indexes', async () => {
    await t.database.query('set enable_seqscan = off');
    try {
      const plan = await t.database.query<{ 'QUERY PLAN': string }>(
        `explain select 1 from book_listings
         where cover_url = any($1::text[]) and cover_url like '/uploads/%'`,
        [['/uploads/covers/x/y.webp']],
      );
      expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain(
        'book_listings_uploaded_cover_idx',
      );
    } finally {
      await t.database.query('set enable_seqscan = on');
    }
  });
});
