import { COMPLETED_COUNT } from '../users';
import { memberRating, type MemberRating } from '@shared/rating';
import { activeMember } from '../../platform/moderation';
import { publishedReview } from '../reviews';
import type { ListingDetail } from '@shared/marketplace';
import type { Database } from '../../db/client';
import { findListingDetail } from '../listings';

/**
 * A member's profile is public when its privacy level is 'public' (the default) and the account is
 * active. Anything else keeps the member out of the sitemap and out of every page head: no name, no
 * picture, no link.
 */
export const PUBLIC_MEMBER = `privacy_level = 'public' and account_status = 'active'`;

export interface BookHead {
  listing: ListingDetail;
  /** False when the seller's profile is not public: the seller is then left out. */
  sellerPublic: boolean;
}

export async function findBookHead(database: Database, id: string): Promise<BookHead | null> {
  const listing = await findListingDetail(database, id, { readers: true });
  if (!listing) return null;
  const [seller] = await database.query<{ public: boolean }>(
    `select (${PUBLIC_MEMBER}) as public from users where id = $1`,
    [listing.seller.id],
  );
  return { listing, sellerPublic: seller?.public ?? false };
}

export interface ProfileHead {
  id: string;
  public: boolean;
  displayName: string;
  username: string | null;
  avatarUrl: string | null;
  booksListed: number;
  totalTrades: number;
  /** The rating rule over the member's reviews: no figure for a new member. */
  rating: MemberRating;
}

export async function findProfileHead(
  database: Database,
  id: string,
  /** The clock of the reviews' publication rule: only published reviews rate (decision 0073). */
  at: Date = new Date(),
): Promise<ProfileHead | null> {
  // Member ids are better-auth's: opaque text, not uuids; bounded like the API's params.
  if (!id || id.length > 64) return null;
  const [row] = await database.query<{
    id: string;
    public: boolean;
    display_name: string;
    username: string | null;
    avatar_url: string | null;
    books: number;
    trades: number;
    review_count: number;
    review_average: number | null;
  }>(
    `select u.id, (${PUBLIC_MEMBER}) as public, u.display_name, u.username::text as username,
       u.avatar_url,
       (select count(*) from book_listings where user_id = u.id)::int as books,
       (select ${COMPLETED_COUNT} from transactions
         where status = 'completed' and (buyer_id = u.id or seller_id = u.id)) as trades,
       r.count as review_count, r.average as review_average
     from users u
     cross join lateral (
       select count(*)::int as count, round(avg(rv.rating), 1)::float8 as average
       from reviews rv where rv.subject_id = u.id and ${publishedReview('rv', '$2')}
         and ${activeMember('rv.author_id')}
     ) r where u.id = $1`,
    [id, at],
  );
  if (!row) return null;
  return {
    id: row.id,
    public: row.public,
    displayName: row.display_name,
    username: row.username,
    avatarUrl: row.avatar_url,
    booksListed: row.books,
    totalTrades: row.trades,
    rating: memberRating({ count: row.review_count, average: row.review_average }),
  };
}
