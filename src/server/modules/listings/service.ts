import {
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
import { AppError, badRequest, conflict, validationFailed } from '../../platform/errors';
import { listingNotFound } from '../../platform/reach';
import { genreOfBook, resolveBook } from './books';
import { bookLanguageName } from '@shared/bookLanguage';
import { isOwnCoverUpload } from '@shared/urls';
import { findListingDetail, isUuid } from './queries';
import { isBlockedBetween } from '../../platform/moderation';
import { inTransaction, type Query } from '../../db/tx';
import { refuseBooksInOpenDeal } from './deal-lock';

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

/** As a missing listing: one answer for every listing a member may not reach (platform/reach.ts). */
export { listingNotFound };

/** A cover the listing may keep: one of this member's uploads. Anything else is not stored. */
function ownUpload(userId: string, url: string | undefined): string | null {
  if (!url) return null;
  return isOwnCoverUpload(userId, url) ? url : null;
}

export const alreadyCompleted = () =>
  new AppError(409, 'conflict', 'listings.errors.alreadyCompleted');

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
        // The catalogue's book when one was chosen (its genre, language and ISBN come with it).
        const book = await resolveBook(database, {
          title: input.title,
          author: input.author,
          bookId: input.bookId,
          googleBooksId: input.googleBooksId,
          isbn: input.isbn,
        });
        values = {
          bookId: book.id,
          title: input.title,
          author: input.author,
          genre: await genreOfBook(database, book),
          language: bookLanguageName(input.language ?? book.language),
          isbn: input.isbn ?? book.isbn_13 ?? book.isbn_10,
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
        await refuseBooksInOpenDeal(query, [id]);
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
      await inTransaction(database, async (q) => {
        const [own] = await q<{ status: ListingStatus }>(
          'select status from book_listings where id = $1 and user_id = $2 for no key update',
          [id, userId],
        );
        if (!own) throw listingNotFound();
        await refuseBooksInOpenDeal(q, [id]);
        // A sold or traded book is gone: it is never put back on sale (nor taken off) by hand.
        if (own.status === 'sold' || own.status === 'traded') throw alreadyCompleted();
        await q(`update book_listings set status = $2, updated_at = now() where id = $1`, [
          id,
          status,
        ]);
      });
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
      return inTransaction(database, async (q) => {
        const [own] = await q<{ cover_url: string | null }>(
          'select cover_url from book_listings where id = $1 and user_id = $2 for update',
          [id, userId],
        );
        if (!own) throw listingNotFound();
        await refuseBooksInOpenDeal(q, [id]);
        // Offers go with the listing, as they always did, except those that opened a deal: the
        // deal, its parcel, its case and its books as agreed stay (offers.listing_id set null).
        await q(
          `delete from offers o where o.listing_id = $1
             and not exists (select 1 from deals d where d.offer_id = o.id)`,
          [id],
        );
        await q('delete from book_listings where id = $1', [id]);
        return { coverUrl: own.cover_url };
      });
    },
  };
}

export type ListingService = ReturnType<typeof createListingService>;
export type { CreateListingInput };
