import { z } from 'zod';
import type { Module } from '../../platform/module';
import { idParam, memberRoutes, numberedPage } from '../../platform/route-presets';
import {
  SAVED_SEARCHES_MAX,
  SAVED_SEARCHES_PAGE_SIZE,
  createSavedSearchSchema,
  savedSearchPageQuerySchema,
  savedSearchPageSchema,
  savedSearchSchema,
  updateSavedSearchSchema,
} from '@shared/schemas/savedSearches';
import { currentUser } from '../../platform/auth';
import { errorSchema, errorResponses } from '../../platform/errors';
import {
  createSavedSearchAlerts,
  defineSavedSearchTypes,
  savedSearchAlertsSettled,
  subscribeSavedSearchAlerts,
} from './alerts';
import { createSavedSearchDigest } from './digest';
import { listSearches, toSavedSearch } from './queries';
import { createSavedSearchService } from './service';

const params = idParam('id');

/**
 * Saved searches (docs/saved-searches.md): a member's library searches with a name, the alerts
 * when a new listing matches one (alerts.ts, on the listing-changed hook) and the daily digest.
 */
export const savedSearchRoutes: Module = async (app, deps) => {
  const { database, notifications } = deps;
  defineSavedSearchTypes(notifications, database);
  const service = createSavedSearchService({ database, now: deps.now });
  const digest = createSavedSearchDigest({
    database,
    mailer: deps.mailer,
    notifications,
    publicUrl: deps.config.publicUrl,
    now: deps.now,
    log: app.log,
  });
  if (deps.backgroundJobs) digest.start();
  const unsubscribe = deps.listingChanges
    ? subscribeSavedSearchAlerts(
        deps.listingChanges,
        createSavedSearchAlerts({ ...deps, log: app.log }),
      )
    : () => {};
  app.addHook('onClose', async () => {
    unsubscribe();
    await digest.close();
    await savedSearchAlertsSettled();
  });
  const { read, write } = memberRoutes(app, 'saved searches', 60);

  app.get(
    '/api/me/saved-searches',
    read({
      summary: 'My saved searches, newest first, a page at a time',
      querystring: savedSearchPageQuerySchema,
      response: { 200: savedSearchPageSchema, 400: errorSchema, 401: errorSchema },
    }),
    async (request) => {
      const searches = await numberedPage(
        request.query.page,
        SAVED_SEARCHES_PAGE_SIZE,
        (page, size) => listSearches(database, currentUser(request).id, page, size),
      );
      return { ...searches, items: searches.items.map(toSavedSearch), max: SAVED_SEARCHES_MAX };
    },
  );

  app.post(
    '/api/me/saved-searches',
    write({
      summary: `Save a library search with a name (at most ${SAVED_SEARCHES_MAX}; names unique per member)`,
      description:
        "filters: the library's q, author, genre, type, condition, minPrice, maxPrice; at least one. " +
        '409 when the name is taken (code conflict) or the member has the most searches (code too_many).',
      body: createSavedSearchSchema,
      response: { 201: savedSearchSchema, ...errorResponses(400, 401, 409, 429) },
    }),
    async (request, reply) => {
      const { name, filters } = request.body;
      const saved = await service.create(currentUser(request).id, name, filters);
      return reply.status(201).send(saved);
    },
  );

  app.patch(
    '/api/me/saved-searches/:id',
    write({
      summary:
        "Rename a saved search or turn its alerts on or off: only the fields sent change (another member's: 404)",
      params,
      body: updateSavedSearchSchema,
      response: { 200: savedSearchSchema, ...errorResponses(400, 401, 404, 409, 429) },
    }),
    async (request) => {
      return service.update(currentUser(request).id, request.params.id, request.body);
    },
  );

  app.delete(
    '/api/me/saved-searches/:id',
    write({
      summary: "Delete a saved search (another member's: 404)",
      params,
      response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 404, 429) },
    }),
    async (request, reply) => {
      await service.remove(currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
