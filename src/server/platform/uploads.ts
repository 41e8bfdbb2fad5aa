import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { Storage } from './storage';

/**
 * Every place an uploaded image can be shown, in any status: a post its author deleted or a
 * moderator removed keeps its image for the moderators' review. Partial indexes on uploaded URLs
 * (migration 0020) keep each lookup off the big tables' rows.
 */
const IN_USE = `
  select cover_url as url from book_listings
    where cover_url = any($1::text[]) and cover_url like '/uploads/%'
  union select cover_url from books where cover_url = any($1::text[]) and cover_url like '/uploads/%'
  union select cover_image_url from book_advertisements
    where cover_image_url = any($1::text[]) and cover_image_url like '/uploads/%'
  union select unnest(promotional_images) from book_advertisements
    where promotional_images && $1::text[]
  union select image_url from community_posts
    where image_url = any($1::text[]) and image_url like '/uploads/%'
  union select avatar_url from users where avatar_url = any($1::text[]) and avatar_url like '/uploads/%'`;

/**
 * Called with the uploaded images a change stopped showing (a replaced or removed cover, a deleted
 * ad's pictures): deletes the files nothing else shows any more, so replaced images do not pile up
 * on disk, and a file another listing, ad, post or avatar still shows is kept. Answers the URLs
 * deleted. Never throws: a file that cannot be deleted is logged and left.
 */
export type ReleaseUploads = (urls: ReadonlyArray<string | null | undefined>) => Promise<string[]>;

export function createUploadReleaser(deps: {
  database: Database;
  storage: Pick<Storage, 'delete'>;
  log?: FastifyBaseLogger;
}): ReleaseUploads {
  return async (urls) => {
    const uploads = [...new Set(urls.filter((u): u is string => !!u && u.startsWith('/uploads/')))];
    if (!uploads.length) return [];
    try {
      const used = await deps.database.query<{ url: string }>(IN_USE, [uploads]);
      const kept = new Set(used.map((u) => u.url));
      const unused = uploads.filter((url) => !kept.has(url));
      for (const url of unused)
        await deps.storage.delete(url).catch((err: unknown) => {
          deps.log?.warn({ err, url }, 'an unused upload could not be deleted');
        });
      return unused;
    } catch (err) {
      deps.log?.warn({ err, urls: uploads }, 'unused uploads were not released');
      return [];
    }
  };
}
