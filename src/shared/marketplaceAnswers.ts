import { z } from 'zod';
import {
  CONDITIONS,
  LISTING_STATUSES,
  LISTING_TYPES,
  MARKET_GENRES,
  type ShelfKey,
} from './marketplaceConstants';
import { workSummarySchema } from './works';

/** The marketplace's answers: listing cards and pages, shelves, catalogue books, profiles. */

export const sellerSummarySchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
});

export const listingCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  /** Always on our origin: /uploads/... or /api/covers/:bookId (remote covers are proxied). */
  coverUrl: z.string().nullable(),
  genre: z.enum(MARKET_GENRES),
  condition: z.enum(CONDITIONS),
  listingType: z.enum(LISTING_TYPES),
  price: z.number().nullable(),
  currency: z.string(),
  status: z.enum(LISTING_STATUSES),
  isActive: z.boolean(),
  description: z.string().nullable(),
  language: z.string().nullable(),
  createdAt: z.string(),
  /** The catalogue book listed (the wishlist heart adds it). */
  bookId: z.string(),
  /** The work (every edition of the book, any language): /books/:workId. */
  workId: z.string().nullable(),
  seller: sellerSummarySchema,
});
export type ListingCard = z.infer<typeof listingCardSchema>;

export const listingDetailSchema = listingCardSchema.extend({
  isbn: z.string().nullable(),
  location: z.string().nullable(),
  shippingCost: z.number().nullable(),
  isNegotiable: z.boolean(),
  images: z.array(z.string()),
  updatedAt: z.string(),
  /** What the catalogue knows of the book (each null when it does not). */
  book: z.object({
    synopsis: z.string().nullable(),
    publisher: z.string().nullable(),
    year: z.number().int().nullable(),
    isbn: z.string().nullable(),
  }),
  seller: sellerSummarySchema.extend({
    avatarUrl: z.string().nullable(),
    memberSince: z.string(),
  }),
});
export type ListingDetail = z.infer<typeof listingDetailSchema>;

const facetCount = <T extends z.ZodType>(value: T) =>
  z.array(z.object({ value, count: z.number().int() }));

export const facetsSchema = z.object({
  genres: facetCount(z.enum(MARKET_GENRES)),
  types: facetCount(z.enum(LISTING_TYPES)),
  conditions: facetCount(z.enum(CONDITIONS)),
  /** PRICE_BANDS: min inclusive, max exclusive (null: no upper bound), in whole units. */
  priceBands: z.array(
    z.object({ min: z.number(), max: z.number().nullable(), count: z.number().int() }),
  ),
  /** True when a count stopped at SEARCH_COUNT_CAP. */
  capped: z.boolean().optional(),
});
export type Facets = z.infer<typeof facetsSchema>;

export const listingPageSchema = z.object({
  items: z.array(listingCardSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  priceBounds: z.object({ min: z.number(), max: z.number() }),
  /** Set when q matched nothing and these are the results of q with its typos corrected. */
  correctedQ: z.string().optional(),
  /** True when a word search stopped counting at SEARCH_COUNT_CAP: "more than total". */
  totalCapped: z.boolean().optional(),
  /** The genres q's genre words mean ("fantascienza": sciFi): their listings match q too. */
  genres: z.array(z.enum(MARKET_GENRES)).optional(),
  /** How many available copies each work of the page's items has (its /books/:workId page). */
  workCopies: z.record(z.string(), z.number().int()).optional(),
  /** With facets=1: counts for the current search, each under every filter except its own. */
  facets: facetsSchema.optional(),
});
export type ListingPage = z.infer<typeof listingPageSchema>;

/** GET /api/listings/suggest: titles and authors that start with (or contain) what was typed. */
export const suggestionsSchema = z.object({
  items: z.array(
    z.object({
      kind: z.enum(['title', 'author']),
      text: z.string(),
    }),
  ),
});
export type Suggestions = z.infer<typeof suggestionsSchema>;

export const userListingPageSchema = listingPageSchema.omit({ priceBounds: true });
export type UserListingPage = z.infer<typeof userListingPageSchema>;

/**
 * One of the owner's own listings: `inOpenDeal` while an accepted offer's deal holds it, when it
 * changes only through the deal's steps (decision 0088).
 */
export const ownListingCardSchema = listingCardSchema.extend({ inOpenDeal: z.boolean() });
export type OwnListingCard = z.infer<typeof ownListingCardSchema>;

export const myListingsSchema = z.object({ items: z.array(ownListingCardSchema) });
export type MyListings = z.infer<typeof myListingsSchema>;

export const myListingStatsSchema = z.object({
  total: z.number().int(),
  available: z.number().int(),
  totalValue: z.number().int(),
});
export type MyListingStats = z.infer<typeof myListingStatsSchema>;

export const shelvesSchema = z.object({
  shelves: z.array(
    z.object({
      key: z.string() as z.ZodType<ShelfKey>,
      items: z.array(listingCardSchema),
    }),
  ),
});
export type Shelves = z.infer<typeof shelvesSchema>;

/** GET /api/listings/:id/related: the book page's two small lists. */
export const relatedListingsSchema = z.object({
  otherCopies: z.array(listingCardSchema),
  moreFromSeller: z.array(listingCardSchema),
  /** The listing's work and its other copies ("3 other copies from 6,00 €"); null: no work. */
  work: workSummarySchema.nullable(),
});
export type RelatedListings = z.infer<typeof relatedListingsSchema>;

export const catalogueBookSchema = z.object({
  id: z.string(),
  googleBooksId: z.string().nullable(),
  title: z.string(),
  authors: z.array(z.string()),
  author: z.string(),
  isbn10: z.string().nullable(),
  isbn13: z.string().nullable(),
  isbn: z.string().nullable(),
  publisher: z.string().nullable(),
  publishedDate: z.string().nullable(),
  description: z.string().nullable(),
  pageCount: z.number().int().nullable(),
  categories: z.array(z.string()),
  language: z.string().nullable(),
  /** Our origin: /api/covers/:id when the book has a cover, else null. */
  coverUrl: z.string().nullable(),
});
export type CatalogueBook = z.infer<typeof catalogueBookSchema>;

export const catalogueSearchResultSchema = z.object({
  source: z.enum(['google', 'local']),
  items: z.array(catalogueBookSchema),
});
export type CatalogueSearchResult = z.infer<typeof catalogueSearchResultSchema>;

export const publicProfileSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  avatarSeed: z.string(),
  /** What the member wrote about themselves, and where they are: each null when not given. */
  bio: z.string().nullable(),
  locationCity: z.string().nullable(),
  locationCountry: z.string().nullable(),
  memberSince: z.string(),
  /** The mean of the member's reviews (the rating rule, src/shared/rating.ts); null: a new member. */
  rating: z.number().nullable(),
  reviewCount: z.number().int(),
  booksListed: z.number().int(),
  totalTrades: z.number().int(),
  recentBooks: z.array(listingCardSchema),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

export const coverUploadSchema = z.object({ url: z.string() });
export type CoverUpload = z.infer<typeof coverUploadSchema>;
