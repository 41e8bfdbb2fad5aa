import { z } from 'zod';
import { isUuid, memberSummarySchema, pageNumber } from './common';

/**
 * Wishlist and trade matches. Messages are locale keys under `wishlist.*`; the server and the web
 * app translate them alike.
 */

/** Items per page of a wishlist, and members per page of the trade matches. */
export const WISHLIST_PAGE_SIZE = 24;
export const TRADE_MATCHES_PAGE_SIZE = 10;
/** Books shown per side of a trade match (the counts say how many there are in all). */
export const TRADE_MATCH_BOOKS = 3;
/** A wishlist holds at most this many books (the heart reads every wished id at once). */
export const WISHLIST_MAX_ITEMS = 1000;
/** The default list's stored name and description (shown translated in the app). */
export const DEFAULT_WISHLIST_NAME = 'My Wishlist';
export const DEFAULT_WISHLIST_DESCRIPTION = 'Books I want to read or acquire';

export const isWishlistUuid = isUuid;

export const pageQuerySchema = z.object({ page: pageNumber('wishlist.validation.pageInvalid') });

const wishedId = z
  .string({ error: 'wishlist.validation.bookRequired' })
  .trim()
  .min(1, { error: 'wishlist.validation.bookRequired' })
  .refine(isWishlistUuid, { error: 'wishlist.validation.bookRequired' });

/**
 * POST /api/me/wishlist/items: a catalogue book (the catalogue search stores every result), or a
 * work (issue 35: any copy of any of its editions, in any language), one of the two.
 */
export const addWishlistItemSchema = z
  .object({ bookId: wishedId.optional(), workId: wishedId.optional() })
  .refine((b) => (b.bookId === undefined) !== (b.workId === undefined), {
    error: 'wishlist.validation.bookRequired',
    path: ['bookId'],
  });
export type AddWishlistItemInput = z.input<typeof addWishlistItemSchema>;

export const wishlistSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});
export type Wishlist = z.infer<typeof wishlistSchema>;

export const wishlistItemSchema = z.object({
  id: z.string(),
  wishlistId: z.string(),
  title: z.string(),
  author: z.string(),
  createdAt: z.string(),
  /** The wished catalogue book; null for a wished work. */
  book: z
    .object({
      id: z.string(),
      title: z.string(),
      author: z.string(),
      /** Our origin: /api/covers/:bookId when the book has a cover, else null (a generated one). */
      coverUrl: z.string().nullable(),
      isbn: z.string().nullable(),
      genre: z.string().nullable(),
    })
    .nullable(),
  /**
   * The wished work (issue 35), its title in the reader's language; null for a wished book. Its
   * copies are every available listing of any of its editions by other members.
   */
  work: z
    .object({
      id: z.string(),
      title: z.string(),
      author: z.string(),
      coverUrl: z.string().nullable(),
      /** The lowest total (price plus shipping) of its copies; null when none has a price. */
      from: z.number().nullable(),
      currency: z.string().nullable(),
    })
    .nullable(),
  /** Available listings of this book (or work) by other members right now, and the newest. */
  availableListings: z.number().int(),
  newestListingId: z.string().nullable(),
});
export type WishlistItem = z.infer<typeof wishlistItemSchema>;

export const wishlistPageSchema = z.object({
  wishlist: wishlistSchema,
  items: z.array(wishlistItemSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type WishlistPage = z.infer<typeof wishlistPageSchema>;

/** Every book id on the signed-in member's wishlist (for the hearts of a page of cards). */
export const wishedBookIdsSchema = z.object({ bookIds: z.array(z.string()) });
export type WishedBookIds = z.infer<typeof wishedBookIdsSchema>;

/** Membership of one book (the heart on the book detail). */
export const wishlistMembershipSchema = z.object({
  wished: z.boolean(),
  itemId: z.string().nullable(),
});
export type WishlistMembership = z.infer<typeof wishlistMembershipSchema>;

export const tradeBookSchema = z.object({
  listingId: z.string(),
  title: z.string(),
  author: z.string(),
  coverUrl: z.string().nullable(),
  listingType: z.enum(['trade', 'both']),
  createdAt: z.string(),
});
export type TradeBook = z.infer<typeof tradeBookSchema>;

export const tradeMatchSchema = z.object({
  member: memberSummarySchema,
  /** Their available trade listings of books on my wishlist, newest first. */
  theirBooks: z.array(tradeBookSchema),
  theirCount: z.number().int(),
  /** My available trade listings of books on their wishlist, newest first. */
  myBooks: z.array(tradeBookSchema),
  myCount: z.number().int(),
  /** The newest listing on either side. */
  latestAt: z.string(),
});
export type TradeMatch = z.infer<typeof tradeMatchSchema>;

export const tradeMatchPageSchema = z.object({
  items: z.array(tradeMatchSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type TradeMatchPage = z.infer<typeof tradeMatchPageSchema>;
