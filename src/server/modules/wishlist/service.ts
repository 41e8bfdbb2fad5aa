import {
  WISHLIST_MAX_ITEMS,
  isWishlistUuid,
  type WishlistItem,
  type WishlistMembership,
} from '@shared/schemas/wishlist';
import type { Database } from '../../db/client';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors';
import { findItem, getOrCreateDefaultWishlist, type WishlistRow } from './queries';

export const itemNotFound = () => notFound('wishlist.errors.itemNotFound');
const bookNotFound = () => notFound('wishlist.errors.bookNotFound');

export function createWishlistService({ database }: { database: Database }) {
  return {
    /**
     * The wishlist of `ownerId` as `me` may see it: wishlists are private to their owner (see
     * docs/decisions.md), so anyone else is refused with 403 'Could not access this wishlist'.
     */
    async listFor(me: string, ownerId: string): Promise<WishlistRow> {
      if (me !== ownerId) throw forbidden('wishlist.errors.noAccess');
      try {
        return await getOrCreateDefaultWishlist(database, me);
      } catch {
        throw new AppError(500, 'wishlist_unavailable', 'wishlist.errors.getOrCreate');
      }
    },

    /** Adds a catalogue book to the member's default list; the same book twice is a 409. */
    async add(me: string, bookId: string): Promise<WishlistItem> {
      if (!isWishlistUuid(bookId)) throw bookNotFound();
      const list = await getOrCreateDefaultWishlist(database, me);
      const [full] = await database.query<{ full: boolean }>(
        'select count(*) >= $2 as full from wishlist_items where wishlist_id = $1',
        [list.id, WISHLIST_MAX_ITEMS],
      );
      if (full.full) throw new AppError(409, 'wishlist_full', 'wishlist.errors.full');
      // One statement: the book's own title, author and ISBNs are copied; the unique
      // (wishlist_id, book_id) decides between two adds of the same book at once.
      const [row] = await database.query<{ id: string }>(
        `insert into wishlist_items (wishlist_id, user_id, book_id, title, author, isbn_13, isbn_10)
         select $1, $2, b.id, b.title, b.author, b.isbn_13, b.isbn_10 from books b where b.id = $3
         on conflict (wishlist_id, book_id) do nothing
         returning id`,
        [list.id, me, bookId],
      );
      if (!row) {
        const [book] = await database.query('select 1 from books where id = $1', [bookId]);
        if (!book) throw bookNotFound();
        throw conflict('wishlist.errors.duplicate');
      }
      return (await findItem(database, row.id))!;
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
