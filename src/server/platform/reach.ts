import { isUuid } from '@shared/schemas/common';
import { formatDate } from '@shared/format';
import type { Query } from '../db/tx';
import { AppError, notFound, unauthorized } from './errors';
import { blockedBetween, visibleListing } from './moderation';

/**
 * Who may reach a listing or a seller (issue 32 item 5, docs/decisions/0087): ONE rule, used by
 * the listing's page (`GET /api/listings/:id`) and by every route that acts on a listing or its
 * seller (contact, offers, trade offers, bundle quotes and bundle offers). A listing hidden by a
 * moderator, a suspended (or deleted) seller and a block between the two members all answer as
 * a listing that does not exist: the same 404, code and message, so nothing leaks.
 *
 * And who may receive an offer now (item 9): a seller on holiday is away, offers wait for the
 * return date (409, `sellerAway`).
 */

/** The one answer for a listing a member may not reach: as for a listing that does not exist. */
export const listingNotFound = () => notFound('listings.errors.notFound');

/**
 * SQL: the member in `viewer` (an SQL expression such as `$2`; null for a visitor) may reach the
 * listing `alias`: not hidden by a moderator, its seller active, no block between the two.
 */
export const reachableListing = (alias: string, viewer: string) =>
  `${visibleListing(alias)} and not ${blockedBetween(viewer, `${alias}.user_id`)}`;

/** Whether `viewerId` (null: a visitor) may reach every listing in `ids`. Reads, locks nothing. */
export async function mayReachListings(
  q: Query,
  viewerId: string | null,
  ids: readonly string[],
): Promise<boolean> {
  if (ids.length === 0 || !ids.every(isUuid)) return false;
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const [row] = await q<{ n: number }>(
    `select count(*)::int as n from book_listings l
     where l.id = any($1::uuid[]) and ${reachableListing('l', '$2')}`,
    [unique, viewerId],
  );
  return row.n === unique.length;
}

/**
 * Inside the transaction that acts on the listings `ids` of `sellerId` for `actorId`: checks the
 * rule again on locked rows, so that a suspension or a hide committed since the first check is
 * seen (the locks wait for it and read the rows as it left them) and one that comes after waits
 * for this transaction. The members' rows first (in id order), then the listings': the order a
 * suspension takes them. The actor suspended meanwhile is signed out (401); anything else the
 * actor may not reach is 404, as the listing's page answers.
 */
export async function lockReach(
  q: Query,
  actorId: string,
  sellerId: string,
  ids: readonly string[],
): Promise<void> {
  const members = await q<{ id: string; active: boolean }>(
    `select id, account_status = 'active' as active from users
     where id = any($1::text[]) order by id for share`,
    [[actorId, sellerId]],
  );
  const actor = members.find((m) => m.id === actorId);
  if (!actor?.active) throw unauthorized();
  if (!members.find((m) => m.id === sellerId)?.active) throw listingNotFound();
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const listings = await q<{ id: string }>(
    `select l.id from book_listings l
     where l.id = any($1::uuid[]) and l.user_id = $2 and l.hidden_at is null
     order by l.id for share`,
    [unique, sellerId],
  );
  if (listings.length !== unique.length) throw listingNotFound();
  const [blocked] = await q(`select 1 where ${blockedBetween('$1', '$2')}`, [actorId, sellerId]);
  if (blocked) throw listingNotFound();
}

/**
 * The last day away (`YYYY-MM-DD`) of a seller on holiday at `now` (by the app's clock, as
 * `GET /api/users/:id/holiday` answers), null when they are not away.
 */
export async function sellerAwayUntil(
  q: Query,
  sellerId: string,
  now: Date,
): Promise<string | null> {
  const [row] = await q<{ away_until: Date }>(
    'select away_until from member_holidays where user_id = $1 and away_until > $2',
    [sellerId, now],
  );
  if (!row) return null;
  const backAt = new Date(row.away_until).getTime();
  return new Date(backAt - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * 409 `seller_away`: the seller is on holiday until `lastDay`, written in the reader's language
 * (its date as the web app writes dates).
 */
export const sellerAway = (lastDay: string) =>
  new AppError(409, 'seller_away', 'chatApi.errors.sellerAway', undefined, {
    date: (language: string) => formatDate(lastDay, language),
  });

/** Refuses an offer to a seller on holiday (409 with the last day away). */
export async function refuseWhileAway(q: Query, sellerId: string, now: Date): Promise<void> {
  const lastDay = await sellerAwayUntil(q, sellerId, now);
  if (lastDay) throw sellerAway(lastDay);
}
