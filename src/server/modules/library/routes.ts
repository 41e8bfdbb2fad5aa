import type { Module } from '../../platform/module';
import { publicRead } from '../../platform/http-cache';
import {
  libraryQuerySchema,
  listingPageSchema,
  relatedListingsSchema,
  shelvesQuerySchema,
  shelvesSchema,
} from '@shared/marketplace';
import { errorSchema } from '../../platform/errors';
import { idParam } from '../../platform/route-presets';
import { findRelatedListings } from './related';
import { listingNotFound } from '../../platform/reach';
import { TtlCache } from '../../platform/ttl-cache';
import { searchListings, TotalsCache } from './search';
import { homeShelves, loadShelves, SHELVES_TTL_MS } from './shelves';
import { hasBlocks } from '../../platform/moderation';
import { registerSuggestions } from './suggest';
import { registerWorkRoutes } from './works/routes';
import { SEARCH_COUNT_CAP, type ListingPage, type Shelves } from '@shared/marketplace';

export const libraryRoutes: Module = async (app, { database, now }) => {
  const totals = new TotalsCache(() => now().getTime());
  const shelves = new TtlCache<Shelves>(SHELVES_TTL_MS, () => now().getTime(), 500);
  // A listing made, sold or removed through this process shows on the shelves at once.
  app.publicReads.alsoClear(shelves);
  /**
   * The signed-in viewer when they have blocks (their results leave out the members a block
   * stands between them and the viewer); otherwise undefined and the queries keep their shape.
   * Signed-in answers are never shared-cached (platform/http-cache).
   */
  const apartFrom = async (userId: string | undefined) =>
    userId && (await hasBlocks((t, p) => database.query(t, p), userId)) ? userId : undefined;
  registerSuggestions(app, database, apartFrom);
  registerWorkRoutes(app, database, now);
  app.get(
    '/api/listings',
    {
      config: publicRead,
      schema: {
        tags: ['library'],
        summary: 'Search and filter listings (the library)',
        description:
          'q matches every word in title, author and description, as a prefix or by its Italian or ' +
          'English stem (libri finds libro, running finds run), ignoring accents and case. A genre ' +
          'word or phrase of either language (fantascienza, science fiction, gialli, romanzi rosa) ' +
          'matches that genre as well as the words, and genres names the genres meant. sort ' +
          'defaults to relevance when q has words (the exact phrase in the title first, then every ' +
          "word exactly in the author's name, then exactly in title or author, then every word in " +
          'the title, then in title and author; whole words above prefixes; then newest), ' +
          'to newest otherwise; relevance without words orders as newest. When the words match ' +
          'nothing, each unknown word is replaced by the closest known title or author word within ' +
          'one edit (up to 4 letters) or two, and correctedQ names the words used; exact=1 turns ' +
          'this off. type=sell means sell or both, type=trade trade or both. status defaults to ' +
          'available; all = any. Price filters keep listings without a price unless minPrice > 0. ' +
          'total: exact without words or author; with them, matches are counted up to ' +
          `${SEARCH_COUNT_CAP}: past that, total is ${SEARCH_COUNT_CAP} and totalCapped is true ` +
          '("more than"), and priceBounds are those of the filters without q and author. ' +
          'priceBounds otherwise: the lowest and highest price under every filter except the price ' +
          'range (0-1000 when none). facets=1 adds exact facet counts (genres, types, conditions, ' +
          'price bands [min, max)), each under every filter except its own; a type counts as its ' +
          'filter does (sell = sell + both). total, priceBounds and facets may be up to 10 s old. ' +
          'Without a session the whole answer may be up to 2 s old (PUBLIC_READ_CACHE_MS; 4 s ' +
          'while it is being recomputed), unless this server handled a change since. A signed-in ' +
          'member does not see the listings of members a block stands between them (either way).',
        querystring: libraryQuerySchema,
        response: { 200: listingPageSchema },
      },
    },
    async (request, reply) => {
      const q = request.query;
      // Encoded here, as it is kept: cards built by toCard have the schema's shape already
      // (a test parses answers with listingPageSchema), so Zod's encoding would only cost time.
      const search = async (viewer?: string) =>
        JSON.stringify(await searchListings(database, q, totals, viewer));
      let body: string;
      if (request.user) body = await search(await apartFrom(request.user.id));
      else {
        const key = JSON.stringify([
          q.q ?? null,
          q.author ?? null,
          q.genre ?? null,
          q.type ?? null,
          q.condition ?? null,
          q.minPrice ?? null,
          q.maxPrice ?? null,
          q.status ?? null,
          q.sort ?? null,
          q.page ?? null,
          q.pageSize ?? null,
          q.exact ?? null,
          q.facets ?? null,
        ]);
        body = await app.publicReads.get(`listings ${key}`, search);
      }
      // A string with a JSON type goes out as it is (no serializer): the type is the schema's.
      return reply.type('application/json; charset=utf-8').send(body as unknown as ListingPage);
    },
  );

  app.get(
    '/api/shelves',
    {
      config: publicRead,
      schema: {
        tags: ['library'],
        summary: 'Marketplace shelves: best deals, just listed, popular, premium, one per genre',
        description:
          'Up to 12 available listings per shelf (rules in docs/search.md); may be up to 30 s old ' +
          '(emptied by any change made through this server).',
        querystring: shelvesQuerySchema,
        response: { 200: shelvesSchema },
      },
    },
    async (request) => {
      const q = request.query;
      const key = JSON.stringify([
        q.q ?? null,
        q.genre ?? null,
        q.minPrice ?? null,
        q.maxPrice ?? null,
      ]);
      // A viewer with blocks gets their own shelves (not cached, not shared).
      const viewer = await apartFrom(request.user?.id);
      if (viewer) return loadShelves(database, q, viewer);
      return shelves.get(key, () => loadShelves(database, q));
    },
  );

  app.get(
    '/api/shelves/home',
    {
      config: publicRead,
      schema: {
        tags: ['library'],
        summary: "The home page's shelves: just listed, best deals and one genre",
        description:
          'Cut from the unfiltered /api/shelves (same rules, same cache): up to 8 available ' +
          'listings each; the genre shelf is the fullest one. Empty shelves are left out.',
        response: { 200: shelvesSchema },
      },
    },
    async (request) => {
      const viewer = await apartFrom(request.user?.id);
      const all = viewer
        ? await loadShelves(database, {}, viewer)
        : await shelves.get(JSON.stringify([null, null, null, null]), () =>
            loadShelves(database, {}),
          );
      return homeShelves(all);
    },
  );

  app.get(
    '/api/listings/:id/related',
    {
      config: publicRead,
      schema: {
        tags: ['library'],
        summary: "A listing's book page lists: other copies of the book, more from its seller",
        description:
          'Up to 6 available listings each, newest first, never the listing itself: the other ' +
          'copies of its work (any edition or language), more from its seller. work: the work ' +
          'and how many other copies of it the viewer may see, with the lowest total (price ' +
          'plus shipping) among them; null when the listing has no work. 404 as ' +
          'GET /api/listings/:id (missing, hidden, or a block between the viewer and the seller).',
        params: idParam('id'),
        response: { 200: relatedListingsSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const viewer = await apartFrom(request.user?.id);
      const related = await findRelatedListings(
        database,
        request.params.id,
        viewer,
        request.user?.id ?? null,
      );
      if (!related) throw listingNotFound();
      return related;
    },
  );
};
