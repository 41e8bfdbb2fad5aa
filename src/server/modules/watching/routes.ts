import type { Module } from '../../platform/module';
import { idParam, memberRoutes, numberedPage } from '../../platform/route-presets';
import { currentUser } from '../../platform/auth';
import { badRequest, conflict, errorSchema, errorResponses } from '../../platform/errors';
import { isUuid } from '@shared/schemas/common';
import {
  WATCHES_MAX,
  WATCHES_PAGE_SIZE,
  watchStateSchema,
  watchedListingIdsSchema,
  watcherCountSchema,
  watchesPageQuerySchema,
  watchesPageSchema,
} from '@shared/schemas/watching';
import { listingNotFound } from '../../platform/reach';
import { createWatchAlerts, defineWatchingTypes } from './alerts';
import { listWatches, watchableListing, watchedListingIds } from './queries';

const listingParams = idParam('listingId');
const idParams = idParam('id');

/**
 * Watched listings (issue 22 item 4, docs/watching.md): a member watches a listing and hears when
 * its price drops, it is reserved, sold or available again; its seller sees how many watch it.
 */
export const watchingRoutes: Module = async (app, deps) => {
  const { database, notifications, listingChanges } = deps;
  defineWatchingTypes(notifications, database);
  listingChanges.onListingChanged(createWatchAlerts({ database, notifications }));
  const { read, write } = memberRoutes(app, 'watching', 120);

  app.put(
    '/api/me/watches/:listingId',
    write({
      summary:
        'Watch a listing (idempotent): told when its price drops, it is reserved, sold or available again',
      description:
        'Not one’s own listing (400). A missing, hidden or deleted listing, or one of a member a block stands between, is 404. At most 500 watched listings (409).',
      params: listingParams,
      response: { 200: watchStateSchema, ...errorResponses(400, 401, 404, 409) },
    }),
    async (request) => {
      const me = currentUser(request).id;
      const { listingId } = request.params;
      const listing = await watchableListing(database, me, listingId);
      if (!listing) throw listingNotFound();
      if (listing.sellerId === me)
        throw badRequest('watching.errors.ownListing', { listingId: 'watching.errors.ownListing' });
      // The cap is read in the insert itself; a repeat (or a double click) changes nothing.
      const inserted = await database.query<{ n: number }>(
        `insert into listing_watches (user_id, listing_id)
         select $1, $2 where (select count(*) from listing_watches where user_id = $1) < $3
         on conflict do nothing returning 1 as n`,
        [me, listingId, WATCHES_MAX],
      );
      if (inserted.length === 0) {
        const [already] = await database.query(
          'select 1 from listing_watches where user_id = $1 and listing_id = $2',
          [me, listingId],
        );
        if (!already) throw conflict('watching.errors.tooMany');
      }
      return { listingId, watching: true };
    },
  );

  app.delete(
    '/api/me/watches/:listingId',
    write({
      summary: 'Stop watching a listing (idempotent: not watching answers the same)',
      params: listingParams,
      response: { 200: watchStateSchema, 401: errorSchema, 404: errorSchema },
    }),
    async (request) => {
      const { listingId } = request.params;
      if (!isUuid(listingId)) throw listingNotFound();
      await database.query('delete from listing_watches where user_id = $1 and listing_id = $2', [
        currentUser(request).id,
        listingId,
      ]);
      return { listingId, watching: false };
    },
  );

  app.get(
    '/api/me/watches',
    read({
      summary: 'The listings I watch, newest watch first, as readers see them (paged)',
      querystring: watchesPageQuerySchema,
      response: { 200: watchesPageSchema, 400: errorSchema, 401: errorSchema },
    }),
    async (request) =>
      numberedPage(request.query.page, WATCHES_PAGE_SIZE, (page, size) =>
        listWatches(database, currentUser(request).id, page, size),
      ),
  );

  app.get(
    '/api/me/watches/listing-ids',
    read({
      summary: 'Every listing id I watch (the pressed state of a page of cards, in one call)',
      response: { 200: watchedListingIdsSchema, 401: errorSchema },
    }),
    async (request) => ({
      listingIds: await watchedListingIds(database, currentUser(request).id),
    }),
  );

  app.get(
    '/api/listings/:id/watchers',
    read({
      summary: 'How many members watch my listing (its seller only; never who)',
      description: 'Another member’s listing, or none, is 404.',
      params: idParams,
      response: { 200: watcherCountSchema, 401: errorSchema, 404: errorSchema },
    }),
    async (request) => {
      const { id } = request.params;
      if (!isUuid(id)) throw listingNotFound();
      const [row] = await database.query<{ count: number }>(
        `select (select count(*)::int from listing_watches w where w.listing_id = l.id) as count
         from book_listings l where l.id = $1 and l.user_id = $2`,
        [id, currentUser(request).id],
      );
      if (!row) throw listingNotFound();
      return { count: row.count };
    },
  );
};
