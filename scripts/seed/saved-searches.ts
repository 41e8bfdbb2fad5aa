import type { SeedStep } from './types';
import type { SavedSearchFilters } from '../../src/shared/schemas/savedSearches';
import { memberIds, seedLog, seedNotificationCentre } from './alerts';
import {
  createSavedSearchAlerts,
  defineSavedSearchTypes,
  insertSearches,
} from '../../src/server/modules/saved-searches';

/** Demo members' saved searches (names in the member's language). */
const SEARCHES: Array<[string, string, SavedSearchFilters]> = [
  ['chiara_romano', 'Gialli sotto i 10 €', { genre: 'mystery', maxPrice: 10 }],
  ['giulia_legge', 'Calvino', { author: 'Calvino' }],
  ['emily_reads', 'Fantasy to trade', { genre: 'fantasy', type: 'trade' }],
  ['emily_reads', 'Harry Potter', { q: 'harry potter' }],
  ['marco_rossi', 'Umberto Eco', { author: 'eco' }],
  ['sofia_ricci', 'Poesia', { genre: 'poetry' }],
  ['dan_hughes', 'Orwell', { q: 'orwell' }],
];
/** The newest listings matched against them, as if listed after the searches were saved. */
const ANNOUNCED = 80;

/**
 * Demo saved searches: a few members keep searches, and the newest listings are matched against
 * them as the listings module matches a new listing, so they find 'savedSearch.match'
 * notifications in their bell (and matches waiting for the daily digest). Running it again adds
 * nothing (names are unique per member; a member is told once per listing).
 */
export const seedSavedSearches: SeedStep = async (ctx) => {
  const { database } = ctx;
  const idOf = memberIds(ctx);
  const rows = SEARCHES.flatMap(([username, name, filters]) => {
    const userId = idOf(username);
    return userId ? [{ userId, name, filters }] : [];
  });
  const saved = await insertSearches(database, rows);
  // Matched once, when the searches are saved: on a later run the newest listings differ (deals
  // seeded after this step reserve some), and other books would be announced.
  if (saved === 0) return ctx.log('saved searches: already there');
  const notifications = seedNotificationCentre(ctx);
  defineSavedSearchTypes(notifications, database);
  const alerts = createSavedSearchAlerts({
    database,
    notifications,
    now: () => new Date(),
    log: seedLog(ctx),
  });
  const newest = await database.query<{ id: string }>(
    `select id from book_listings where status = 'available'
     order by created_at desc, id limit $1`,
    [ANNOUNCED],
  );
  for (const { id } of newest) await alerts.listingAvailable(id);
  await notifications.close();
  const [{ n }] = await database.query<{ n: number }>(
    'select count(*)::int as n from saved_search_matches',
  );
  ctx.log(`saved searches: ${saved} saved, ${n} matches`);
};
