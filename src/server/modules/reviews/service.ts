import { memberRating, type MemberRating } from '@shared/rating';
import {
  REVIEW_EDIT_DAYS,
  REVIEW_WINDOW_DAYS,
  REVIEWS_PAGE_SIZE,
  type Review,
  type Trade,
} from '@shared/reviews';
import type { Database } from '../../db/client';
import { conflict, forbidden, notFound } from '../../platform/errors';
import { activeMember } from '../../platform/moderation';
import { inTransaction, sqlState } from '../../db/tx';
import { isUuid } from '@shared/schemas/common';
import { toIso } from '../../db/rows';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A transaction of listing `p` (when not null): the one it names or, a trade's, any book of its deal. */
const ofListing = (p: string) => `(${p}::uuid is null or t.listing_id = ${p} or exists (
    select 1 from deal_books db where db.deal_id = t.deal_id and db.listing_id = ${p}))`;

/**
 * What each side gave in a trade (issue 33 item 8): a trade deal's books by their owner; a trade
 * recorded outside a deal names one book, its seller's.
 */
function tradeBooks(
  r: {
    buyer_id: string;
    listing_title: string | null;
    given: string[] | null;
    received: string[] | null;
  },
  userId: string,
): NonNullable<Trade['books']> {
  if (r.given || r.received) return { given: r.given ?? [], received: r.received ?? [] };
  const title = r.listing_title === null ? [] : [r.listing_title];
  return r.buyer_id === userId ? { given: [], received: title } : { given: title, received: [] };
}
const EDIT_WINDOW_MS = REVIEW_EDIT_DAYS * DAY_MS;
const WINDOW_MS = REVIEW_WINDOW_DAYS * DAY_MS;

/**
 * The one rule every read of other people's reviews goes through (decision 0073): a review is
 * shown from its `published_at` on. `at` is the parameter holding the service's `now`.
 */
export const publishedReview = (alias: string, at: string) => `${alias}.published_at <= ${at}`;

interface ReviewRow {
  id: string;
  transaction_id: string;
  rating: number;
  text: string;
  author_id: string;
  author_name: string;
  author_username: string | null;
  subject_id: string;
  listing_title: string | null;
  kind: 'sale' | 'trade';
  created_at: Date;
  updated_at: Date;
  published_at: Date;
}

const REVIEW_SELECT = `select r.id, r.transaction_id, r.rating, r.text, r.author_id,
    a.display_name as author_name, a.username::text as author_username, r.subject_id,
    l.title as listing_title, t.kind, r.created_at, r.updated_at, r.published_at
  from reviews r
  join users a on a.id = r.author_id
  join transactions t on t.id = r.transaction_id
  left join book_listings l on l.id = t.listing_id`;

function toReview(row: ReviewRow, at: Date): Review {
  const publishedAt = new Date(row.published_at).getTime();
  const editWindowEnds = new Date(row.created_at).getTime() + EDIT_WINDOW_MS;
  return {
    id: row.id,
    transactionId: row.transaction_id,
    rating: Number(row.rating),
    text: row.text,
    author: { id: row.author_id, displayName: row.author_name, username: row.author_username },
    subjectId: row.subject_id,
    listingTitle: row.listing_title,
    kind: row.kind,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    // Published, it is final: an edit after reading the other's review would be the retaliation
    // the blind prevents.
    editableUntil: new Date(Math.min(editWindowEnds, publishedAt)).toISOString(),
    published: publishedAt <= at.getTime(),
    publishedAt: toIso(row.published_at),
  };
}

/**
 * What a member's published reviews add up to: the count and the mean, one decimal (null without
 * any). Pending reviews (double-blind) count for nothing yet.
 */
export async function reviewSummary(
  database: Database,
  userId: string,
  at: Date,
): Promise<{ count: number; average: number | null }> {
  const [row] = await database.query<{ count: number; average: number | null }>(
    `select count(*)::int as count, round(avg(r.rating), 1)::float8 as average
     from reviews r where r.subject_id = $1 and ${publishedReview('r', '$2')}
       and ${activeMember('r.author_id')}`,
    [userId, at],
  );
  return { count: row.count, average: row.average === null ? null : Number(row.average) };
}

/**
 * The rating a profile (and the owner's sidebar) shows: the rating rule over the member's reviews
 * only. Nobody reviewed them yet: a new member, without a figure.
 */
export async function memberRatingOf(
  database: Database,
  userId: string,
  at: Date,
): Promise<MemberRating> {
  return memberRating(await reviewSummary(database, userId, at));
}

/** What writing a review did: the review, and whether it published the other party's too. */
export interface WrittenReview {
  review: Review;
  /** The other party had written theirs: both are published now, together. */
  publishedTogether: boolean;
}

export function createReviewService({ database, now }: { database: Database; now: () => Date }) {
  /** A review by id, for its author only (others read reviews through the published lists). */
  async function findReview(id: string, at: Date): Promise<Review | null> {
    if (!isUuid(id)) return null;
    const [row] = await database.query<ReviewRow>(`${REVIEW_SELECT} where r.id = $1`, [id]);
    return row ? toReview(row, at) : null;
  }

  return {
    /**
     * Each party of a completed transaction reviews the other once, within 14 days of its
     * completion. Written alone, the review waits (hidden) for the other's or for the end of the
     * 14 days; the second review publishes both at once.
     */
    async create(
      authorId: string,
      input: { transactionId: string; rating: number; text: string },
    ): Promise<WrittenReview> {
      const [tx] = isUuid(input.transactionId)
        ? await database.query<{
            buyer_id: string;
            seller_id: string;
            status: string;
            agreed_at: Date | null;
          }>(
            `select buyer_id, seller_id, status, agreed_at
             from transactions where id = $1`,
            [input.transactionId],
          )
        : [];
      // Someone else's transaction is as absent as one that does not exist.
      if (!tx || (tx.buyer_id !== authorId && tx.seller_id !== authorId))
        throw notFound('reviews.errors.transactionNotFound');
      if (tx.status !== 'completed') throw conflict('reviews.errors.notCompleted');
      // A sale one member recorded alone (before confirmations existed) takes no review.
      if (!tx.agreed_at) throw conflict('reviews.errors.notAgreed');
      const subjectId = tx.buyer_id === authorId ? tx.seller_id : tx.buyer_id;
      const at = now();
      // The 14 days are when both reviews are published at the latest: a review written after
      // them could answer the other's, already public.
      const closesAt = new Date(new Date(tx.agreed_at).getTime() + WINDOW_MS);
      if (at.getTime() >= closesAt.getTime()) throw conflict('reviews.errors.windowClosed');
      try {
        const written = await inTransaction(database, async (q) => {
          // The transaction's row orders the two parties' writes: the second sees the first.
          await q('select id from transactions where id = $1 for no key update', [
            input.transactionId,
          ]);
          // A member who deleted their account cannot be reviewed: checked in the statement that
          // writes, so an erasure finishing meanwhile leaves no review behind.
          const [row] = await q<{ id: string }>(
            `insert into reviews (transaction_id, author_id, subject_id, rating, text, created_at,
               updated_at, published_at)
             select $1::uuid, $2::text, id, $4::smallint, $5::text, $6::timestamptz,
               $6::timestamptz, $7::timestamptz
             from users
             where id = $3 and account_status <> 'deleted' returning id`,
            [input.transactionId, authorId, subjectId, input.rating, input.text, at, closesAt],
          );
          if (!row) return null;
          // Both written: published together, now (the other's may already be, if it predates
          // the rule).
          const published = await q<{ id: string }>(
            `update reviews set published_at = $2
             where transaction_id = $1 and published_at > $2
               and (select count(*) from reviews where transaction_id = $1) = 2
             returning id`,
            [input.transactionId, at],
          );
          return { id: row.id, publishedTogether: published.length > 0 };
        });
        if (!written) throw conflict('reviews.errors.memberDeleted');
        return {
          review: (await findReview(written.id, at))!,
          publishedTogether: written.publishedTogether,
        };
      } catch (err) {
        if (sqlState(err) === '23505') throw conflict('reviews.errors.alreadyReviewed');
        throw err;
      }
    },

    /**
     * Its author changes the sent fields only, within 14 days of writing it and while it is not
     * published (once the other party can read it, it is final).
     */
    async edit(
      authorId: string,
      reviewId: string,
      patch: { rating?: number; text?: string },
    ): Promise<Review> {
      const at = now();
      const existing = await findReview(reviewId, at);
      if (!existing) throw notFound('reviews.errors.notFound');
      if (existing.author.id !== authorId) throw forbidden('reviews.errors.notYours');
      if (existing.published) throw conflict('reviews.errors.published');
      // The windows are checked in the same statement that writes, so a late edit (or one racing
      // the other party's review) changes nothing.
      const rows = await database.query(
        `update reviews set rating = coalesce($3, rating), text = coalesce($4, text), updated_at = $5
         where id = $1 and author_id = $2 and created_at > $5::timestamptz - make_interval(days => $6)
           and published_at > $5::timestamptz
         returning id`,
        [reviewId, authorId, patch.rating ?? null, patch.text ?? null, at, REVIEW_EDIT_DAYS],
      );
      if (rows.length === 0) {
        const [state] = await database.query<{ published: boolean }>(
          'select published_at <= $2 as published from reviews where id = $1',
          [reviewId, at],
        );
        throw conflict(
          state?.published ? 'reviews.errors.published' : 'reviews.errors.editWindowClosed',
        );
      }
      return (await findReview(reviewId, at))!;
    },

    /**
     * A member's published reviews, newest first, with their average; reviewers who were
     * suspended left out. A pending review is in no page and no figure.
     */
    async forMember(subjectId: string, page = 1) {
      const at = now();
      const [member] = await database.query(
        `select 1 from users u where u.id = $1 and ${activeMember('u.id')}`,
        [subjectId],
      );
      if (!member) throw notFound('listings.errors.profileNotFound');
      const pageSize = REVIEWS_PAGE_SIZE;
      const [rows, summary] = await Promise.all([
        database.query<ReviewRow>(
          `${REVIEW_SELECT} where r.subject_id = $1 and ${publishedReview('r', '$4')}
             and ${activeMember('r.author_id')}
           order by r.created_at desc, r.id desc limit $2 offset $3`,
          [subjectId, pageSize, (page - 1) * pageSize, at],
        ),
        reviewSummary(database, subjectId, at),
      ]);
      return {
        items: rows.map((row) => toReview(row, at)),
        total: summary.count,
        average: summary.average,
        page,
        pageSize,
      };
    },

    /**
     * My completed transactions, newest first, each with the review I wrote (pending or not), the
     * other party's review of me once published, and whether theirs waits for mine.
     */
    async myTrades(userId: string, page = 1, listingId?: string) {
      if (listingId !== undefined && !isUuid(listingId))
        return { items: [], total: 0, page, pageSize: REVIEWS_PAGE_SIZE };
      const at = now();
      const pageSize = REVIEWS_PAGE_SIZE;
      const [rows, [count]] = await Promise.all([
        database.query<{
          id: string;
          kind: 'sale' | 'trade';
          buyer_id: string;
          created_at: Date;
          agreed_at: Date | null;
          listing_title: string | null;
          other_id: string;
          other_name: string;
          other_username: string | null;
          other_deleted: boolean;
          review_id: string | null;
          their_id: string | null;
          their_published: boolean | null;
          given: string[] | null;
          received: string[] | null;
        }>(
          `select t.id, t.kind, t.buyer_id, t.created_at, t.agreed_at, l.title as listing_title,
             books.given, books.received,
             o.id as other_id, o.display_name as other_name, o.username::text as other_username,
             o.account_status = 'deleted' as other_deleted,
             r.id as review_id, th.id as their_id, ${publishedReview('th', '$5')} as their_published
           from transactions t
           join users o on o.id = case when t.buyer_id = $1 then t.seller_id else t.buyer_id end
           left join book_listings l on l.id = t.listing_id
           left join reviews r on r.transaction_id = t.id and r.author_id = $1
           left join reviews th on th.transaction_id = t.id and th.author_id = o.id
           left join lateral (
             select array_agg(db.title order by db.position) filter (where db.owner_id = $1)
                 as given,
               array_agg(db.title order by db.position) filter (where db.owner_id <> $1)
                 as received
             from deal_books db where db.deal_id = t.deal_id
           ) books on t.kind = 'trade'
           where t.status = 'completed' and (t.buyer_id = $1 or t.seller_id = $1)
             and ${ofListing('$4')}
           order by t.created_at desc, t.id desc limit $2 offset $3`,
          [userId, pageSize, (page - 1) * pageSize, listingId ?? null, at],
        ),
        database.query<{ total: number }>(
          `select count(*)::int as total from transactions t
           where t.status = 'completed' and (t.buyer_id = $1 or t.seller_id = $1)
             and ${ofListing('$2')}`,
          [userId, listingId ?? null],
        ),
      ]);
      const items: Trade[] = [];
      for (const r of rows) {
        const closesAt = new Date(new Date(r.agreed_at ?? r.created_at).getTime() + WINDOW_MS);
        items.push({
          transactionId: r.id,
          kind: r.kind,
          role: r.buyer_id === userId ? 'buyer' : 'seller',
          listingTitle: r.listing_title,
          books: r.kind === 'trade' ? tradeBooks(r, userId) : null,
          // A deleted account is only "Deleted member" in the other party's history.
          other: r.other_deleted
            ? { id: r.other_id, displayName: '', username: null, deleted: true }
            : { id: r.other_id, displayName: r.other_name, username: r.other_username },
          completedAt: toIso(r.created_at),
          // Both agreed, the other party still has an account to review, and the 14 days last.
          reviewable: r.agreed_at !== null && !r.other_deleted && at < closesAt,
          reviewableUntil: closesAt.toISOString(),
          myReview: r.review_id ? await findReview(r.review_id, at) : null,
          // Theirs only once published: before that, only that it exists.
          theirReview: r.their_id && r.their_published ? await findReview(r.their_id, at) : null,
          theirReviewWaiting: r.their_id !== null && !r.their_published,
        });
      }
      return { items, total: count.total, page, pageSize };
    },
  };
}
