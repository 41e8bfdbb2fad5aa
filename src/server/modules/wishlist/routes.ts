import { z } from 'zod';
import type { Module } from '../../platform/module';
import { idParam, memberRoutes } from '../../platform/route-presets';
import {
  TRADE_MATCHES_PAGE_SIZE,
  WISHLIST_PAGE_SIZE,
  addWishlistItemSchema,
  pageQuerySchema,
  tradeMatchPageSchema,
  wishedBookIdsSchema,
  wishlistItemSchema,
  wishlistMembershipSchema,
  wishlistPageSchema,
} from '@shared/schemas/wishlist';
import { currentUser } from '../../platform/auth';
import { errorResponses } from '../../platform/errors';
import { requestLanguage } from '../../platform/i18n';
import {
  createWishlistAlerts,
  defineWishlistTypes,
  subscribeWishlistReturns,
  subscribeWishlistStatus,
  wishlistAlertsSettled,
} from './alerts';
import { listItems, wishedBookIds } from './items';
import { listTradeMatches, toWishlist } from './queries';
import { createWishlistService } from './service';

const userParams = idParam('id');
const itemParams = idParam('itemId');
const bookParams = idParam('bookId');
const workParams = idParam('workId');

export const wishlistRoutes: Module = async (app, deps) => {
  const { database, notifications } = deps;
  defineWishlistTypes(notifications, database);
  const alerts = createWishlistAlerts({ ...deps, log: app.log });
  // A seller back from holiday: their listings are announced to the wishers then.
  const unsubscribe = deps.listingChanges
    ? subscribeWishlistReturns(deps.listingChanges, alerts)
    : () => {};
  // An offer accepted, a deal completed or cancelled: the wishers follow its books.
  const unfollow = subscribeWishlistStatus(deps.changes, database, alerts);
  // Alerts started by the last listings finish before the app closes its database.
  app.addHook('onClose', async () => {
    unsubscribe();
    unfollow();
    await wishlistAlertsSettled();
  });
  const wishlist = createWishlistService({ database });
  const { read, write } = memberRoutes(app, 'wishlist', 120);

  app.get(
    '/api/users/:id/wishlist',
    read({
      summary:
        "A member's default wishlist ('My Wishlist', created on first use) with its books, newest first. Private: the owner only",
      params: userParams,
      querystring: pageQuerySchema,
      response: { 200: wishlistPageSchema, ...errorResponses(400, 401, 403, 500) },
    }),
    async (request) => {
      const list = await wishlist.listFor(currentUser(request).id, request.params.id);
      const page = request.query.page ?? 1;
      const { items, total } = await listItems(
        database,
        list.id,
        page,
        WISHLIST_PAGE_SIZE,
        requestLanguage(request),
      );
      return { wishlist: toWishlist(list), items, total, page, pageSize: WISHLIST_PAGE_SIZE };
    },
  );

  app.get(
    '/api/me/wishlist/book-ids',
    read({
      summary: 'Every book id on my wishlist (the hearts of a page of listing cards, in one call)',
      response: { 200: wishedBookIdsSchema, ...errorResponses(401) },
    }),
    async (request) => ({ bookIds: await wishedBookIds(database, currentUser(request).id) }),
  );

  app.get(
    '/api/me/wishlist/books/:bookId',
    read({
      summary: 'Is this book on my wishlist? (a book that is not is simply false)',
      params: bookParams,
      response: { 200: wishlistMembershipSchema, ...errorResponses(401) },
    }),
    async (request) => wishlist.membership(currentUser(request).id, request.params.bookId),
  );

  app.post(
    '/api/me/wishlist/items',
    write({
      summary:
        'Add a catalogue book, or a work, to my wishlist (409 when it is already there or the list is full)',
      description:
        'bookId: a catalogue book (its listings by book, ISBN or title and author alert me); ' +
        'workId: a work (issue 35: a new listing of any edition of it, in any language, ' +
        'alerts me). One of the two. 404 for a book or work that does not exist.',
      body: addWishlistItemSchema,
      response: { 201: wishlistItemSchema, ...errorResponses(400, 401, 404, 409) },
    }),
    async (request, reply) => {
      const { bookId, workId } = request.body;
      const wish = workId !== undefined ? { workId } : { bookId: bookId! };
      const item = await wishlist.add(currentUser(request).id, wish, requestLanguage(request));
      return reply.status(201).send(item);
    },
  );

  app.delete(
    '/api/me/wishlist/items/:itemId',
    write({
      summary: 'Remove a book from my wishlist (an item of another list is not found)',
      params: itemParams,
      response: { 204: z.null().describe('Removed'), ...errorResponses(401, 404) },
    }),
    async (request, reply) => {
      await wishlist.remove(currentUser(request).id, request.params.itemId);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/me/wishlist/books/:bookId',
    write({
      summary: 'Remove a book from my wishlist by its book id (the heart on a listing)',
      params: bookParams,
      response: { 204: z.null().describe('Removed'), ...errorResponses(401, 404) },
    }),
    async (request, reply) => {
      await wishlist.removeBook(currentUser(request).id, request.params.bookId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/me/wishlist/works/:workId',
    read({
      summary: 'Is this work on my wishlist? (a work that is not, or does not exist, is false)',
      params: workParams,
      response: { 200: wishlistMembershipSchema, ...errorResponses(400, 401) },
    }),
    async (request) => wishlist.workMembership(currentUser(request).id, request.params.workId),
  );

  app.delete(
    '/api/me/wishlist/works/:workId',
    write({
      summary: 'Remove a work from my wishlist by its id (the button on its page)',
      params: workParams,
      response: { 204: z.null().describe('Removed'), ...errorResponses(400, 401, 404) },
    }),
    async (request, reply) => {
      await wishlist.removeWork(currentUser(request).id, request.params.workId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/me/trade-matches',
    read({
      summary:
        'Members with whom a two-way trade is possible now: they list for trade a book on my wishlist and wish a book I list for trade. Most matching books first, then the newest',
      querystring: pageQuerySchema,
      response: { 200: tradeMatchPageSchema, ...errorResponses(400, 401) },
    }),
    async (request) => {
      const page = request.query.page ?? 1;
      const result = await listTradeMatches(
        database,
        currentUser(request).id,
        page,
        TRADE_MATCHES_PAGE_SIZE,
      );
      return { ...result, page, pageSize: TRADE_MATCHES_PAGE_SIZE };
    },
  );
};
