import type { SeedStep } from './types';
import { memberIds, seedLog, seedNotificationCentre } from './alerts';
import { createWishlistAlerts, defineWishlistTypes } from '../../src/server/modules/wishlist';

/**
 * Pairs of demo members made trade partners: each wishes the newest available trade listing of
 * the other (the first pair whose both members list something for trade is used, so a change in
 * the demo listings cannot leave the demo without a match).
 */
const TRADE_PAIRS: Array<[string, string]> = [
  ['giulia_legge', 'lucaferrari'],
  ['marco_rossi', 'emily_reads'],
  ['fra_esposito', 'jamesobrien'],
  ['chiara_romano', 'olivia_b'],
];

/** Members who wish books other members list (for sale or trade): their bells ring. */
const WISHERS = ['giulia_legge', 'emily_reads', 'sofia_ricci', 'dan_hughes'];
const WISHES_EACH = 3;

/**
 * Demo wishlists: a few members wish books that others list, and two pairs of members each list
 * for trade a book the other wishes (trade matches). The alerts run as the listings module runs
 * them, so the wishers find 'wished book listed' and 'trade match' notifications in their bell.
 * Running it again adds nothing (it runs once: a demo member's wished book means it ran).
 */
export const seedWishlists: SeedStep = async (ctx) => {
  const { database } = ctx;
  const idOf = memberIds(ctx);
  // Once: a second run would pick other "newest" listings, as later steps (deals, trades)
  // reserve some of those the first run wished.
  const demo = [...WISHERS, ...TRADE_PAIRS.flat()].map(idOf).filter((id): id is string => !!id);
  const [already] = await database.query(
    'select 1 from wishlist_items where user_id = any($1::text[]) limit 1',
    [demo],
  );
  if (already) return ctx.log('wishlists: already seeded');
  let added = 0;
  const listingsToAnnounce = new Set<string>();
  /** One listing per seeded pair announces its match (the other side's would announce it again). */
  const announcesMatch = new Set<string>();

  const wish = async (userId: string, listingId: string) => {
    const [list] = await database.query<{ id: string }>(
      `insert into wishlists (user_id) values ($1)
       on conflict (user_id) where is_default do update set name = wishlists.name
       returning id`,
      [userId],
    );
    const rows = await database.query(
      `insert into wishlist_items (wishlist_id, user_id, book_id, title, author, isbn_13, isbn_10,
         created_at)
       select $1, $2, b.id, b.title, b.author, b.isbn_13, b.isbn_10, l.created_at - interval '3 days'
       from book_listings l join books b on b.id = l.book_id
       where l.id = $3
       on conflict (wishlist_id, book_id) do nothing returning id`,
      [list.id, userId, listingId],
    );
    added += rows.length;
    listingsToAnnounce.add(listingId);
  };
  const newestTrade = async (userId: string, skip: string[] = []) => {
    const [row] = await database.query<{ id: string }>(
      `select id from book_listings
       where user_id = $1 and status = 'available' and listing_type in ('trade', 'both')
         and not (id = any($2::uuid[]))
       order by created_at desc, id limit 1`,
      [userId, skip],
    );
    return row?.id ?? null;
  };

  let pairs = 0;
  /** Paired members: wishers never wish another book of theirs (see below). */
  const paired: string[] = [];
  for (const [a, b] of TRADE_PAIRS) {
    const aId = idOf(a);
    const bId = idOf(b);
    if (!aId || !bId) continue;
    const [aListing, bListing] = [await newestTrade(aId), await newestTrade(bId)];
    if (!aListing || !bListing) continue;
    await wish(aId, bListing);
    await wish(bId, aListing);
    announcesMatch.add(bListing);
    paired.push(aId, bId);
    if (++pairs === 2) break;
  }

  // Wishers: books that other members list now (spread across genres and sellers). Never a book of
  // a paired member: a second wished book of a partner makes the match not new (not announced),
  // and another wisher of a pair's listing could make a third match. Ties in listing age are
  // broken by id.
  for (const [i, username] of WISHERS.entries()) {
    const userId = idOf(username);
    if (!userId) continue;
    const picks = await database.query<{ id: string }>(
      `select id from (
         select distinct on (l.user_id) l.id, l.created_at
         from book_listings l
         where l.status = 'available' and l.user_id <> $1
           and l.user_id <> all($4::text[])
         order by l.user_id, l.created_at desc, l.id) x
       order by created_at desc, id offset $2 limit $3`,
      [userId, i * WISHES_EACH, WISHES_EACH, paired],
    );
    for (const p of picks) await wish(userId, p.id);
  }

  // The alerts, as a new listing would have sent them.
  const notifications = seedNotificationCentre(ctx);
  defineWishlistTypes(notifications, database);
  const alerts = createWishlistAlerts({
    database,
    notifications,
    log: seedLog(ctx),
  });
  for (const listingId of listingsToAnnounce)
    await alerts.listingAvailable(listingId, { tradeMatches: announcesMatch.has(listingId) });
  await notifications.close();
  ctx.log(`wishlists: ${added} books wished, ${pairs} trade pairs`);
};
