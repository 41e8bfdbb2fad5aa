import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { SaveImageOptions, Storage, StoredImage } from './storage';

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
  union select unnest(images) from book_listings where images && $1::text[]
  union select image_url from community_posts
    where image_url = any($1::text[]) and image_url like '/uploads/%'
  union select avatar_url from users where avatar_url = any($1::text[]) and avatar_url like '/uploads/%'
  union select cover_url from deal_books where cover_url = any($1::text[])`;

/**
 * The storage the app's modules use: every image saved is recorded with the member who uploaded
 * it (table `uploads`), since only that member may ever have it deleted.
 */
export interface OwnedStorage extends Omit<Storage, 'saveImage'> {
  saveImage(options: SaveImageOptions & { owner: string }): Promise<StoredImage>;
}

export function createOwnedStorage(deps: { database: Database; storage: Storage }): OwnedStorage {
  const { database, storage } = deps;
  return {
    async saveImage({ owner, ...options }) {
      const saved = await storage.saveImage(options);
      try {
        await database.query('insert into uploads (url, owner_id, bytes) values ($1, $2, $3)', [
          saved.url,
          owner,
          saved.bytes,
        ]);
      } catch (err) {
        // A file nobody owns could never be released: it does not stay.
        await storage.delete(saved.url).catch(() => false);
        throw err;
      }
      return saved;
    },
    async delete(url) {
      const deleted = await storage.delete(url);
      await database.query('delete from uploads where url = $1', [url]);
      return deleted;
    },
    deleteFolder: (folder) => storage.deleteFolder(folder),
    register: (app) => storage.register(app),
  };
}

/**
 * Called with the uploaded images a change by member `ownerId` stopped showing (a replaced or
 * removed cover, a deleted ad's pictures): deletes the files that member uploaded and nothing else
 * shows any more, so replaced images do not pile up on disk. A file another member uploaded is
 * never touched, whatever this member's records pointed at; one that another listing, ad, post
 * or avatar still shows is kept. Answers the URLs deleted. Never throws: a file that cannot be
 * deleted is logged and left.
 */
export type ReleaseUploads = (
  ownerId: string,
  urls: ReadonlyArray<string | null | undefined>,
) => Promise<string[]>;

export function createUploadReleaser(deps: {
  database: Database;
  storage: Pick<Storage, 'delete'>;
  log?: FastifyBaseLogger;
}): ReleaseUploads {
  return async (ownerId, urls) => {
    const uploads = [...new Set(urls.filter((u): u is string => !!u && u.startsWith('/uploads/')))];
    if (!uploads.length) return [];
    try {
      // Removing the ownership row is the claim: two releases at once delete a file only once.
      const released = await deps.database.query<{ url: string }>(
        `with used as (${IN_USE})
         delete from uploads u
         where u.url = any($1::text[]) and u.owner_id = $2
           and not exists (select 1 from used where used.url = u.url)
         returning u.url`,
        [uploads, ownerId],
      );
      const unused = released.map((r) => r.url);
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
