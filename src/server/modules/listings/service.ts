import {
  normalizeIsbn,
  type CreateListingInput,
  type Genre,
  type ListingDetail,
  listingRuleIssues,
  type ListingStatus,
  type ListingType,
  type UpdateListing,
} from '@shared/marketplace';
import type { z } from 'zod';
import type { createListingSchema } from '@shared/marketplace';
import type { Database } from '../../db/client';
import { AppError, badRequest, conflict, notFound, validationFailed } from '../../platform/errors';
import {
  findBookByGoogleId,
  findBookById,
  findBookByIsbn,
  genreFromCategories,
  type BookRow,
} from '../catalogue/queries';
import { bookLanguageName } from '@shared/bookLanguage';
import { isOwnCoverUpload } from '@shared/urls';
import { findListingDetail, isUuid } from './queries';
import { isBlockedBetween } from '../../platform/moderation';
import { inTransaction, type Query } from '../../db/tx';

type CreateListing = z.output<typeof createListingSchema>;

/** The columns a partial edit merges with what it is sent (numeric columns arrive as text). */
type CurrentListing = {
  title: string;
  author: string;
  genre: string;
  language: string | null;
  isbn: string | null;
  cover_url: string | null;
  listing_type: ListingType;
  condition: string;
  price: string | null;
  currency: string;
  description: string;
  location: string | null;
  shipping_cost: string | null;
  is_negotiable: boolean;
};

export const listingNotFound = () => notFound('listings.errors.notFound');

/** A cover the listing may keep: one of this member's uploads. Anything else is not stored. */
function ownUpload(userId: string, url: string | undefined): string | null {
  if (!url) return null;
  return isOwnCoverUpload(userId, url) ? url : null;
}

function isbnParts(isbn: string | undefined): { isbn10: string | null; isbn13: string | null } {
  if (!isbn) return { isbn10: null, isbn13: null };
  const s = normalizeIsbn(isbn);
  return s.length === 13 ? { isbn10: null, isbn13: s } : { isbn10: s, isbn13: null };
}

async function insertBook(
  database: Database,
  b: { title: string; author: string; isbn?: string; language?: string },
): Promise<BookRow> {
  const { isbn10, isbn13 } = isbnParts(b.isbn);
  const authors = b.author
    .split(/\s*,\s*/)
    .map((a) => a.trim())
    .filter(Boolean);
  const [row] = await database.query<BookRow>(
    `insert into books (title, authors, author, isbn_10, isbn_13, language)
     values ($1, $2, $3, $4, $5, $6)
     returning id, google_books_id, title, authors, author, isbn_10, isbn_13, publisher,
       published_date, description, page_count, categories, language, cover_url`,
    [b.title, authors, authors.join(', '), isbn10, isbn13, b.language ?? null],
  );
  return row;
}

/**
 * The catalogue row a new listing points at: the one chosen (our id or Google's), else the one
 * with this ISBN, else one with the very same title and author, else a new one. Other members'
 * listings show its cover, so nothing a member sends ever sets it: only the catalogue does.
 */
async function resolveBook(
  database: Database,
  input: {
    title: string;
    author: string;
    bookId?: string;
    googleBooksId?: string;
    isbn?: string;
    language?: string;
  },
): Promise<BookRow> {
  let book: BookRow | null = null;
  if (input.bookId && isUuid(input.bookId)) book = await findBookById(database, input.bookId);
  if (!book && input.googleBooksId) book = await findBookByGoogleId(database, input.googleBooksId);
  if (!book && input.isbn) book = await findBookByIsbn(database, normalizeIsbn(input.isbn));
  if (!book && !input.isbn) {
    const [same] = await database.query<BookRow>(
      `select id, google_books_id, title, authors, author, isbn_10, isbn_13, publisher,
         published_date, description, page_count, categories, language, cover_url
       from books where lower(title) = lower($1) and lower(author) = lower($2)
       order by (google_books_id is not null) desc, created_at limit 1`,
      [input.title, input.author],
    );
    book = same ?? null;
  }
  if (!book) {
    return insertBook(database, {
      title: input.title,
      author: input.author,
      isbn: input.isbn,
      language: input.language,
    });
  }
  return book;
}

const alreadyCompleted = () => new AppError(409, 'conflict', 'listings.errors.alreadyCompleted');

export interface CompletionResult {
  /** 'completed' with the member's accepted offer; 'pending' until they confirm. */
  outcome: 'completed' | 'pending';
  transactionId: string;
  counterpartId: string;
  /** The accepted offer the sale completed, if any. */
  offerId: string | null;
  listing: ListingDetail;
}

/**
 * Marks the seller's listing sold or traded and records the completed, agreed transaction, in
 * one statement so neither exists without the other. 404 for someone else's listing, 409 when
 * it was already sold or traded.
 */
export async function recordAgreedSale(
  q: Query,
  sellerId: string,
  listingId: string,
  kind: 'sale' | 'trade',
  buyerId: string,
): Promise<string> {
  const [done] = await q<{ id: string }>(
    `with done as (
       update book_listings set status = $3, updated_at = now()
       where id = $1 and user_id = $2 and status not in ('sold', 'traded')
       returning id, user_id)
     insert into transactions (listing_id, buyer_id, seller_id, kind, status, agreed_at)
     select id, $4, user_id, $5, 'completed', now() from done
     returning id`,
    [listingId, sellerId, kind === 'sale' ? 'sold' : 'traded', buyerId, kind],
  );
  if (done) return done.id;
  const [own] = await q('select 1 from book_listings where id = $1 and user_id = $2', [
    listingId,
    sellerId,
  ]);
  if (!own) throw listingNotFound();
  throw alreadyCompleted();
}

export interface ListingServiceDeps {
  database: Database;
}

export function createListingService({ database }: ListingServiceDeps) {
  return {
    async create(userId: string, input: CreateListing): Promise<ListingDetail> {
      let values: {
        bookId: string;
        title: string;
        author: string;
        genre: Genre;
        language: string | null;
        isbn: string | null;
        coverUrl: string | null;
        listingType: string;
        condition: string;
        price: number | null;
        currency: string;
        description: string | null;
        location: string | null;
        shippingCost: number | null;
        isNegotiable: boolean;
      };
      if (input.mode === 'full') {
        const book = await resolveBook(database, {
          title: input.title,
          author: input.author,
          isbn: input.isbn,
          language: input.language,
        });
        values = {
          bookId: book.id,
          title: input.title,
          author: input.author,
          genre: input.genre,
          language: bookLanguageName(input.language ?? book.language),
          isbn: input.isbn ?? book.isbn_13 ?? book.isbn_10,
          coverUrl: ownUpload(userId, input.coverUrl),
          listingType: input.listingType,
          condition: input.condition,
          price: input.price ?? null,
          currency: input.currency,
          description: input.description,
          location: input.location ?? null,
          shippingCost: input.shippingCost ?? null,
          isNegotiable: input.isNegotiable,
        };
      } else {
        const trade = input.mode === 'quickTrade' ? input : undefined;
        const book = await resolveBook(database, {
          title: input.title,
          author: input.author,
          bookId: trade?.bookId,
          googleBooksId: trade?.googleBooksId,
          isbn: trade?.isbn,
        });
        values = {
          bookId: book.id,
          title: input.title,
          author: input.author,
          genre: genreFromCategories(book.categories),
          language: bookLanguageName(input.language ?? book.language),
          isbn: trade?.isbn ?? book.isbn_13 ?? book.isbn_10,
          coverUrl: ownUpload(userId, trade?.coverUrl),
          listingType: input.mode === 'quickSell' ? 'sell' : 'trade',
          condition: 'good',
          price: input.mode === 'quickSell' ? input.price : null,
          currency: 'EUR',
          description: null,
          location: null,
          shippingCost: null,
          isNegotiable: false,
        };
      }
      const [row] = await database.query<{ id: string }>(
        `insert into book_listings (book_id, user_id, title, author, genre, language, isbn,
           cover_url, images, listing_type, condition, price, currency, description, location,
           shipping_cost, is_negotiable)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         returning id`,
        [
          values.bookId,
          userId,
          values.title,
          values.author,
          values.genre,
          values.language,
          values.isbn,
          values.coverUrl,
          values.coverUrl ? [values.coverUrl] : [],
          values.listingType,
          values.condition,
          values.price,
          values.currency,
          values.description,
          values.location,
          values.shippingCost,
          values.isNegotiable,
        ],
      );
      return (await findListingDetail(database, row.id))!;
    },

    /**
     * Owner only: the row is matched by id AND user_id, so others change nothing (404). Only the
     * fields sent change; the cross-field rules are checked on the listing as it will be.
     */
    async update(
      userId: string,
      id: string,
      input: UpdateListing,
    ): Promise<{ listing: ListingDetail; previousCover: string | null }> {
      if (!isUuid(id)) throw listingNotFound();
      const previousCover = await inTransaction(database, async (query) => {
        const [old] = await query<CurrentListing>(
          `select title, author, genre, language, isbn, cover_url, listing_type, condition,
             price, currency, description, location, shipping_cost, is_negotiable
           from book_listings where id = $1 and user_id = $2 for update`,
          [id, userId],
        );
        if (!old) throw listingNotFound();
        const sent = <T, C>(value: T | undefined, current: C): T | C =>
          value === undefined ? current : value;
        const next = {
          listingType: sent(input.listingType, old.listing_type),
          price: sent(input.price, old.price),
        };
        const issues = listingRuleIssues({
          listingType: next.listingType,
          price: next.price === null ? null : Number(next.price),
        });
        if (Object.keys(issues).length > 0) throw validationFailed(issues);
        // An upload replaces the cover; an empty field removes it; a remote address keeps it.
        const cover = input.coverUrl === null ? null : ownUpload(userId, input.coverUrl);
        const coverChanges =
          input.coverUrl !== undefined && (cover !== null || input.coverUrl === null);
        await query(
          `update book_listings set title = $3, author = $4, genre = $5, language = $6, isbn = $7,
             cover_url = case when $16::boolean then $8 else cover_url end,
             images = case when $16::boolean then
               (case when $8::text is null then '{}'::text[] else array[$8::text] end) else images end,
             listing_type = $9, condition = $10, price = $11, currency = $12, description = $13,
             location = $14, shipping_cost = $15, is_negotiable = $17, updated_at = now()
           where id = $1 and user_id = $2`,
          [
            id,
            userId,
            sent(input.title, old.title),
            sent(input.author, old.author),
            sent(input.genre, old.genre),
            input.language === undefined ? old.language : bookLanguageName(input.language),
            sent(input.isbn, old.isbn),
            cover,
            next.listingType,
            sent(input.condition, old.condition),
            next.price,
            sent(input.currency, old.currency),
            sent(input.description, old.description),
            sent(input.location, old.location),
            sent(input.shippingCost, old.shipping_cost),
            coverChanges,
            sent(input.isNegotiable, old.is_negotiable),
          ],
        );
        return old.cover_url;
      });
      const listing = (await findListingDetail(database, id))!;
      return {
        listing,
        previousCover: previousCover && previousCover !== listing.coverUrl ? previousCover : null,
      };
    },

    async setStatus(userId: string, id: string, status: ListingStatus): Promise<ListingDetail> {
      if (!isUuid(id)) throw listingNotFound();
      const rows = await database.query<{ id: string }>(
        `update book_listings set status = $3, updated_at = now()
         where id = $1 and user_id = $2 returning id`,
        [id, userId, status],
      );
      if (rows.length === 0) throw listingNotFound();
      return (await findListingDetail(database, id))!;
    },

    /**
     * The seller says the listing went to a member. That member's accepted offer on it is their
     * agreement, and the sale completes now. Otherwise nothing is recorded as done: a pending
     * transaction (replacing an earlier one of this listing) waits for that member to confirm,
     * and only then does it count and allow reviews.
     */
    async complete(
      userId: string,
      id: string,
      kind: 'sale' | 'trade',
      counterpartUsername: string,
    ): Promise<CompletionResult> {
      if (!isUuid(id)) throw listingNotFound();
      const [counterpart] = await database.query<{ id: string }>(
        `select id from users where username = $1::citext and account_status <> 'deleted'`,
        [counterpartUsername.replace(/^@/, '')],
      );
      const unknownMember = () =>
        badRequest('listings.errors.userNotFound', {
          counterpartUsername: 'listings.errors.userNotFound',
        });
      if (!counterpart) throw unknownMember();
      if (counterpart.id === userId)
        throw badRequest('listings.errors.selfTransaction', {
          counterpartUsername: 'listings.errors.selfTransaction',
        });
      // Blocked members cannot reach each other, not even with a request to confirm a sale.
      if (await isBlockedBetween((t, p) => database.query(t, p), userId, counterpart.id))
        throw unknownMember();
      const result = await inTransaction(database, async (q) => {
        const [listing] = await q<{ status: string }>(
          'select status from book_listings where id = $1 and user_id = $2 for no key update',
          [id, userId],
        );
        if (!listing) throw listingNotFound();
        if (listing.status === 'sold' || listing.status === 'traded') throw alreadyCompleted();
        // A book in an open deal (an accepted offer, alone or in a bundle: decision 0072)
        // completes through the deal's steps (by post the buyer's receipt, by hand both confirming
        // the exchange), never by the seller alone (decision 0083).
        const [deal] = await q(
          `select 1 from deals d join offer_listings ol on ol.offer_id = d.offer_id
           where ol.listing_id = $1 and d.status = 'open'`,
          [id],
        );
        if (deal) throw conflict('listings.errors.completeInDeal');
        await q(
          `update transactions set status = 'cancelled' where listing_id = $1 and status = 'pending'`,
          [id],
        );
        const [offer] = await q<{ id: string }>(
          `select id from offers where listing_id = $1 and buyer_id = $2 and status = 'accepted'
           for update`,
          [id, counterpart.id],
        );
        if (offer) {
          const transactionId = await recordAgreedSale(q, userId, id, kind, counterpart.id);
          await q(
            `update offers set status = 'completed', answered_at = coalesce(answered_at, now())
             where id = $1`,
            [offer.id],
          );
          return { outcome: 'completed' as const, transactionId, offerId: offer.id };
        }
        const [pending] = await q<{ id: string }>(
          `insert into transactions (listing_id, buyer_id, seller_id, kind, status)
           values ($1, $2, $3, $4, 'pending') returning id`,
          [id, counterpart.id, userId, kind],
        );
        return { outcome: 'pending' as const, transactionId: pending.id, offerId: null };
      });
      return {
        ...result,
        counterpartId: counterpart.id,
        listing: (await findListingDetail(database, id))!,
      };
    },

    /** Deletes the owner's listing; returns its uploaded cover so the caller can remove the file. */
    async remove(userId: string, id: string): Promise<{ coverUrl: string | null }> {
      if (!isUuid(id)) throw listingNotFound();
      const rows = await database.query<{ cover_url: string | null }>(
        'delete from book_listings where id = $1 and user_id = $2 returning cover_url',
        [id, userId],
      );
      if (rows.length === 0) throw listingNotFound();
      return { coverUrl: rows[0].cover_url };
    },
  };
}

export type ListingService = ReturnType<typeof createListingService>;
export type { CreateListingInput };
