import { COMPLETED_COUNT } from './completed';
import { avatarSeedOf } from '../profiles';
import type { Module } from '../../platform/module';
import {
  PROFILE_RECENT_BOOKS,
  USER_LISTINGS_PAGE_SIZE,
  publicProfileSchema,
  userListingPageSchema,
  userListingsQuerySchema,
  type PublicProfile,
  type UserListingPage,
} from '@shared/marketplace';
import type { Database } from '../../db/client';
import { notFound } from '../../platform/errors';
import { publicRead } from '../../platform/http-cache';
import { CARD_COLUMNS, CARD_JOINS, toCard, type CardRow } from '../listings';
import { typeValues } from '../library';
import { activeMember, isBlockedBetween, visibleListing } from '../../platform/moderation';
import { memberRatingOf } from '../reviews';
import { idParam } from '../../platform/route-presets';
import { memberRating } from '@shared/rating';

const profileNotFound = () => notFound('listings.errors.profileNotFound');
const params = idParam('id');

async function completedTransactions(database: Database, userId: string): Promise<number> {
  const [row] = await database.query<{ n: number }>(
    `select ${COMPLETED_COUNT} as n from transactions
     where status = 'completed' and (buyer_id = $1 or seller_id = $1)`,
    [userId],
  );
  return row.n;
}

/** A block stands between the signed-in viewer (if any) and the member. */
const apart = (database: Database, viewerId: string | null, userId: string) =>
  viewerId ? isBlockedBetween((t, p) => database.query(t, p), viewerId, userId) : false;

export async function loadPublicProfile(
  database: Database,
  userId: string,
  log?: { error: (obj: object, msg: string) => void },
  viewerId: string | null = null,
  /** The clock of the reviews' publication rule (decision 0073). */
  at: Date = new Date(),
): Promise<PublicProfile | null> {
  const [user] = await database.query<{
    id: string;
    display_name: string;
    username: string | null;
    avatar_url: string | null;
    bio: string | null;
    location_city: string | null;
    location_country: string | null;
    created_at: Date;
    books_listed: number;
  }>(
    `select u.id, u.display_name, coalesce(u.display_username, u.username::text) as username,
       u.avatar_url, u.bio, u.location_city, u.location_country,
       u.created_at, (select count(*) from book_listings where user_id = u.id)::int as books_listed
     from users u where u.id = $1 and ${activeMember('u.id')}`,
    [userId],
  );
  if (!user) return null;
  // The figures are decoration: if they cannot be counted the profile still shows, unrated
  // (never an invented figure).
  let trades = 0;
  let rating = memberRating({ count: 0, average: null });
  try {
    trades = await completedTransactions(database, userId);
    rating = await memberRatingOf(database, userId, at);
  } catch (err) {
    log?.error({ err }, 'profile rating could not be computed');
  }
  // A block between the viewer and this member hides the member's listings from them.
  const recent = (await apart(database, viewerId, userId))
    ? []
    : await database.query<CardRow>(
        `select ${CARD_COLUMNS} from book_listings l ${CARD_JOINS}
         where l.user_id = $1 and ${visibleListing('l')}
         order by l.created_at desc, l.id desc limit ${PROFILE_RECENT_BOOKS}`,
        [userId],
      );
  return {
    id: user.id,
    displayName: user.display_name,
    username: user.username,
    avatarUrl: user.avatar_url,
    avatarSeed: avatarSeedOf(user.id),
    bio: user.bio,
    locationCity: user.location_city,
    locationCountry: user.location_country,
    memberSince: new Date(user.created_at).toISOString(),
    rating: rating.average,
    reviewCount: rating.reviewCount,
    booksListed: user.books_listed,
    totalTrades: trades,
    recentBooks: recent.map(toCard),
  };
}

export async function loadUserListings(
  database: Database,
  userId: string,
  type: 'all' | 'sell' | 'trade',
  page: number,
): Promise<UserListingPage> {
  const pageSize = USER_LISTINGS_PAGE_SIZE;
  const types = type === 'all' ? null : typeValues(type);
  const [[count], rows] = await Promise.all([
    database.query<{ total: number }>(
      `select count(*)::int as total from book_listings l
       where l.user_id = $1 and ($2::text[] is null or l.listing_type = any($2::text[]))
         and ${visibleListing('l')}`,
      [userId, types],
    ),
    database.query<CardRow>(
      `select ${CARD_COLUMNS} from book_listings l ${CARD_JOINS}
       where l.user_id = $1 and ($2::text[] is null or l.listing_type = any($2::text[]))
         and ${visibleListing('l')}
       order by l.created_at desc, l.id desc limit $3 offset $4`,
      [userId, types, pageSize, (page - 1) * pageSize],
    ),
  ]);
  return { items: rows.map(toCard), total: count.total, page, pageSize };
}

export const userRoutes: Module = async (app, { database, now }) => {
  app.get(
    '/api/users/:id/profile',
    {
      config: publicRead,
      schema: {
        tags: ['users'],
        summary: "A member's public profile: rating, counters and recent books",
        params,
        response: { 200: publicProfileSchema },
      },
    },
    async (request) => {
      const profile = await loadPublicProfile(
        database,
        request.params.id,
        request.log,
        request.user?.id ?? null,
        now(),
      );
      if (!profile) throw profileNotFound();
      return profile;
    },
  );

  app.get(
    '/api/users/:id/listings',
    {
      config: publicRead,
      schema: {
        tags: ['users'],
        summary: "A member's listings (tabs all, sell = sell or both, trade = trade or both)",
        params,
        querystring: userListingsQuerySchema,
        response: { 200: userListingPageSchema },
      },
    },
    async (request) => {
      const [exists] = await database.query(
        `select 1 from users u where u.id = $1 and ${activeMember('u.id')}`,
        [request.params.id],
      );
      if (!exists) throw profileNotFound();
      if (await apart(database, request.user?.id ?? null, request.params.id))
        return {
          items: [],
          total: 0,
          page: request.query.page ?? 1,
          pageSize: USER_LISTINGS_PAGE_SIZE,
        };
      return loadUserListings(
        database,
        request.params.id,
        request.query.type ?? 'all',
        request.query.page ?? 1,
      );
    },
  );
};
