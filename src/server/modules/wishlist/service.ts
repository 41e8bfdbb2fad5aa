import {
  WISHLIST_MAX_ITEMS,
  isWishlistUuid,
  type WishlistItem,
  type WishlistMembership,
} from '@shared/schemas/wishlist';
import type { Database } from '../../db/client';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors';
import { findItem } from './items';
import { getOrCreateDefaultWishlist, type WishlistRow } from './queries';

export const itemNotFound = () => notFound('wishlist.errors.itemNotFound');
const bookNotFound = () => notFound('wishlist.errors.bookNotFound');
const workNotFound = () => notFound('wishlist.errors.workNotFound');

/** What a member wishes: a catalogue book, or a work (any copy of any edition, issue 35). */
export type Wish = { bookId: string; workId?: undefined } | { workId: string; bookId?: undefined };

export function createWishlistService({ database }: { database: Database }) {
  return {
    /**
     * The wishlist of `ownerId` as `me` may see it: wishlists are private to their owner (decision
     * 0014), so anyone else is refused with 403 'Could not access this wishlist'.
     */
    async listFor(me: string, ownerId: string): Promise<WishlistRow> {
      if (me !== ownerId) throw forbidden('wishlist.errors.noAccess');
      try {
        return await getOrCreateDefaultWishlist(database, me);
      } catch {
        throw new AppError(500, 'wishlist_unavailable', 'wishlist.errors.getOrCreate');
      }
    },

    /**
     * Adds a catalogue book, or a work, to the member's default list; the same one twice is a 409.
     * A work's item keeps its title in `language` (the reader's) and its author.
     */
    async add(me: string, wish: Wish, language = 'en'): Promise<WishlistItem> {
      const id = wish.workId ?? wish.bookId;
      const missing = wish.workId !== undefined ? workNotFound : bookNotFound;
      if (!isWishlistUuid(id)) throw missing();
      const list = await getOrCreateDefaultWishlist(database, me);
      const [full] = await database.query<{ full: boolean }>(
        'select count(*) >= $2 as full from wishlist_items where wishlist_id = $1',
        [list.id, WISHLIST_MAX_ITEMS],
      );
      if (full.full) throw new AppError(409, 'wishlist_full', 'wishlist.errors.full');
      // One statement: the book's own title, author and ISBNs are copied (a work's title and
      // author); the unique (wishlist_id, book_id), or (wishlist_id, work_id), decides between
      // two adds of the same one at once.
      const [row] = await database.query<{ id: string }>(
        wish.workId !== undefined
          ? `insert into wishlist_items (wishlist_id, user_id, work_id, title, author)
             select $1, $2, w.id,
               (select t.title from work_titles t where t.work_id = w.id
                order by t.language = $4 desc, t.language limit 1), w.author
             from works w where w.id = $3
             on conflict (wishlist_id, work_id) where work_id is not null do nothing
             returning id`
          : `insert into wishlist_items (wishlist_id, user_id, book_id, title, author, isbn_13, isbn_10)
             select $1, $2, b.id, b.title, b.author, b.isbn_13, b.isbn_10 from books b where b.id = $3
             on conflict (wishlist_id, book_id) do nothing
             returning id`,
        wish.workId !== undefined ? [list.id, me, id, language] : [list.id, me, id],
      );
      if (!row) {
        const [found] = await database.query(
          wish.workId !== undefined
            ? 'select 1 from works where id = $1'
            : 'select 1 from books where id = $1',
          [id],
        );
        if (!found) throw missing();
        throw conflict(
          wish.workId !== undefined ? 'wishlist.errors.workDuplicate' : 'wishlist.errors.duplicate',
        );
      }
      return (await findItem(database, row.id, language))!;
    },

    /** Removes one of the member's items; anyone else's is not found (and stays). */
    async remove(me: string, itemId: string): Promise<void> {
      if (!isWishlistUuid(itemId)) throw itemNotFound();
      const rows = await database.query(
        'delete from wishlist_items where id = $1 and user_id = $2 returning id',
        [itemId, me],
      );
      if (rows.length === 0) throw itemNotFound();
    },

    /** The heart's removal: the member's item of this book. */
    async removeBook(me: string, bookId: string): Promise<void> {
      if (!isWishlistUuid(bookId)) throw itemNotFound();
      const rows = await database.query(
        'delete from wishlist_items where user_id = $1 and book_id = $2 returning id',
        [me, bookId],
      );
      if (rows.length === 0) throw itemNotFound();
    },

    /** The work's removal from its page: the member's item of this work. */
    async removeWork(me: string, workId: string): Promise<void> {
      if (!isWishlistUuid(workId)) throw itemNotFound();
      const rows = await database.query(
        'delete from wishlist_items where user_id = $1 and work_id = $2 returning id',
        [me, workId],
      );
      if (rows.length === 0) throw itemNotFound();
    },

    /** Is this work on the member's wishlist? A missing row (or work) is simply "no". */
    async workMembership(me: string, workId: string): Promise<WishlistMembership> {
      if (!isWishlistUuid(workId)) return { wished: false, itemId: null };
      const [row] = await database.query<{ id: string }>(
        'select id from wishlist_items where user_id = $1 and work_id = $2 limit 1',
        [me, workId],
      );
      return { wished: !!row, itemId: row?.id ?? null };
    },

    /** Is this book on the member's wishlist? A missing row is simply "no". */
    async membership(me: string, bookId: string): Promise<WishlistMembership> {
      if (!isWishlistUuid(bookId)) return { wished: false, itemId: null };
      const [row] = await database.query<{ id: string }>(
        'select id from wishlist_items where user_id = $1 and book_id = $2 limit 1',
        [me, bookId],
      );
      return { wished: !!row, itemId: row?.id ?? null };
    },
  };
}

export type WishlistService = ReturnType<typeof createWishlistService>;
