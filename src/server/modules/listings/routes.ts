import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { Module } from '../../platform/module';
import { idParam, memberWriteLimit } from '../../platform/route-presets';
import {
  COVER_MAX_BYTES,
  completeListingSchema,
  coverUploadSchema,
  createListingSchema,
  listingDetailSchema,
  listingStatusSchema,
  myListingStatsSchema,
  myListingsSchema,
  updateListingSchema,
} from '@shared/marketplace';
import {
  AppError,
  badRequest,
  unauthorized,
  errorSchema,
  errorResponses,
} from '../../platform/errors';
import { currentUser } from '../../platform/auth';
import { publicRead } from '../../platform/http-cache';
import { findListingDetail, listOwnListings, ownListingStats } from './queries';
import { createListingService, listingNotFound } from './service';
import { createWishlistAlerts } from '../wishlist';
import { completionResultSchema } from '@shared/transactions';
import { TRANSACTION_SUBJECT } from '../reviews';
import { createListingAnnouncer } from '../chats';
import { queryOf } from '../../db/tx';

const idParams = idParam('id');

/** The errors of a change to one's own listing; 409 while the book is in an open deal (issue 32). */
const ownerErrors = {
  400: errorSchema,
  401: errorSchema,
  404: errorSchema.describe('No such listing of yours'),
  409: errorSchema.describe(
    "The book is in an open deal: it changes through the deal's steps (or, to complete, already sold)",
  ),
  429: errorSchema,
};

/** An upload without a session: 401 'Authentication required for upload. Please log in again.' */
async function requireUserForUpload(request: FastifyRequest) {
  if (!request.user) throw unauthorized('listings.errors.uploadAuth');
}

export const listingRoutes: Module = async (app, deps) => {
  const { database, storage, listingChanges } = deps;
  const listings = createListingService({ database });
  const wished = createWishlistAlerts({ ...deps, log: app.log });
  // The conversations about a listing show its status live (chat.listing).
  const chatCards = createListingAnnouncer({
    realtime: deps.realtime,
    query: queryOf(database),
    log: app.log,
  });
  await app.register(multipart, {
    limits: { fileSize: COVER_MAX_BYTES + 1, files: 1, fields: 5, parts: 6, headerPairs: 100 },
  });
  const writeLimit = memberWriteLimit(120, '1 minute');
  const owner = { preHandler: app.requireUser, config: writeLimit };
  const tags = ['listings'];
  const security = [{ session: [] }];

  app.get(
    '/api/listings/:id',
    {
      config: publicRead,
      schema: {
        tags,
        summary: 'One listing with its seller',
        description:
          '404 as for a missing listing when it is hidden by a moderator, its seller is ' +
          'suspended, or a block stands between the viewer and the seller: the rule every route ' +
          'acting on a listing follows (platform/reach.ts).',
        params: idParams,
        response: { 200: listingDetailSchema, 404: errorSchema },
      },
    },
    async (request) => {
      // Hidden, its seller suspended, a block between the viewer and the seller: as a missing
      // listing, by the rule every route acting on a listing follows (platform/reach.ts).
      const listing = await findListingDetail(database, request.params.id, {
        readers: true,
        viewer: request.user?.id ?? null,
      });
      if (!listing) throw listingNotFound();
      return listing;
    },
  );

  app.post(
    '/api/listings',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: 'List a book: quick sell, quick trade (from a catalogue result) or the full form',
        body: createListingSchema,
        response: { 201: listingDetailSchema },
      },
    },
    async (request, reply) => {
      const listing = await listings.create(currentUser(request).id, request.body);
      wished.announce(listing.id);
      const after = await listingChanges.read(listing.id);
      if (after)
        listingChanges.publish({
          listingId: listing.id,
          sellerId: after.sellerId,
          before: null,
          after,
          created: true,
          deleted: false,
        });
      return reply.status(201).send(listing);
    },
  );

  app.patch(
    '/api/listings/:id',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary:
          'Edit a listing: only the fields sent change (owner only; others get 404; 409 while in an open deal)',
        description:
          'At least one field. null or empty text clears an optional field. Price is still required ' +
          'for sell and both, checked on the listing as it will be.',
        params: idParams,
        body: updateListingSchema,
        response: { 200: listingDetailSchema, ...ownerErrors },
      },
    },
    async (request) => {
      // A new title, author or ISBN may make it another book: both books' wishers are told.
      const tellWishers = await wished.beforeChange(request.params.id);
      const changed = await listingChanges.track(request.params.id);
      const { listing, previousCover } = await listings.update(
        currentUser(request).id,
        request.params.id,
        request.body,
      );
      tellWishers();
      changed();
      await deps.releaseUploads(currentUser(request).id, [previousCover]);
      return listing;
    },
  );

  app.post(
    '/api/listings/:id/status',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary:
          'Change the status (available = active; anything else is inactive); refused (409) while the book is in an open deal, and once it is sold or traded',
        params: idParams,
        body: listingStatusSchema,
        response: { 200: listingDetailSchema, ...ownerErrors },
      },
    },
    async (request) => {
      const changed = await listingChanges.track(request.params.id);
      const listing = await listings.setStatus(
        currentUser(request).id,
        request.params.id,
        request.body.status,
      );
      // The conversations' cards and the wishers follow its status (platform/changes.ts).
      await deps.changes.emit('listings.status', { listingIds: [listing.id] });
      changed();
      return listing;
    },
  );

  app.post(
    '/api/listings/:id/complete',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary:
          'Mark as sold or traded to a member: pending until they confirm; refused (409) for a book in an open deal, which completes it',
        params: idParams,
        body: completeListingSchema,
        response: { 200: completionResultSchema, ...ownerErrors },
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      const changed = await listingChanges.track(request.params.id);
      const { outcome, transactionId, counterpartId, listing } = await listings.complete(
        me,
        request.params.id,
        request.body.kind,
        request.body.counterpartUsername,
      );
      // Sold or traded at once: the conversations' cards and the wishers follow its status.
      if (outcome !== 'pending')
        await deps.changes.emit('listings.status', { listingIds: [listing.id] });
      else {
        await deps.notifications.notify({
          recipientId: counterpartId,
          type: 'transaction.confirm',
          actorId: me,
          subject: { type: TRANSACTION_SUBJECT, id: transactionId },
          data: { title: listing.title, context: request.body.kind },
        });
        wished.availabilityChanged(listing.id);
      }
      changed();
      return { outcome, transactionId, listing };
    },
  );

  app.delete(
    '/api/listings/:id',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary:
          'Delete a listing (owner only): refused (409) while it is in an open deal; a deal that ended keeps its books as agreed',
        params: idParams,
        response: { 204: z.null().describe('No content'), ...ownerErrors },
      },
    },
    async (request, reply) => {
      const tellWishers = await wished.beforeChange(request.params.id);
      const watchers = await chatCards.watchers(request.params.id);
      const changed = await listingChanges.track(request.params.id);
      const { coverUrl } = await listings.remove(currentUser(request).id, request.params.id);
      tellWishers();
      changed();
      await chatCards.announce(request.params.id, watchers);
      await deps.notifications.removeForSubject('listing', request.params.id);
      await deps.releaseUploads(currentUser(request).id, [coverUrl]);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/me/listings',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        security,
        summary:
          "The signed-in member's listings, every status, newest first; inOpenDeal: an open deal holds it (it changes only through the deal)",
        response: { 200: myListingsSchema },
      },
    },
    async (request) => {
      return { items: await listOwnListings(database, currentUser(request).id) };
    },
  );

  app.get(
    '/api/me/listings/stats',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        security,
        summary: 'Dashboard tiles: listings, available, total value of active sale listings',
        response: { 200: myListingStatsSchema },
      },
    },
    async (request) => {
      return ownListingStats(database, currentUser(request).id);
    },
  );

  app.post(
    '/api/uploads/cover',
    {
      preHandler: requireUserForUpload,
      config: memberWriteLimit(30, '10 minutes'),
      schema: {
        tags,
        security,
        summary:
          'Upload a cover image (multipart field "file"; JPEG, PNG, WebP, GIF or AVIF, 5 MB)',
        consumes: ['multipart/form-data'],
        response: {
          201: coverUploadSchema,
          503: errorSchema.describe('The file store did not answer: nothing was stored'),
          ...errorResponses(400, 401, 413, 429),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const notImage = () => new AppError(400, 'invalid_file_type', 'listings.errors.notImage');
      const tooLarge = () => new AppError(413, 'payload_too_large', 'listings.errors.fileTooLarge');
      let buffer: Buffer;
      try {
        const part = await request.file();
        if (!part || part.fieldname !== 'file') throw badRequest('listings.errors.fileMissing');
        buffer = await part.toBuffer();
      } catch (err) {
        if (err instanceof AppError) throw err;
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_FILES_LIMIT')
          throw badRequest('listings.errors.fileMissing');
        request.log.info({ err }, 'unreadable cover upload');
        throw badRequest();
      }
      try {
        const saved = await storage.saveImage({
          owner: user.id,
          folder: `covers/${user.id}`,
          buffer,
          maxBytes: COVER_MAX_BYTES,
          maxWidth: 1200,
          maxHeight: 1800,
        });
        return reply.status(201).send({ url: saved.url });
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 503) {
          request.log.warn({ err: err.cause }, 'cover not stored: the file store did not answer');
          throw err;
        }
        if (err instanceof AppError && err.statusCode === 413) throw tooLarge();
        if (err instanceof AppError && err.statusCode === 400) throw notImage();
        request.log.error({ err }, 'cover upload failed');
        throw new AppError(500, 'upload_failed', 'listings.errors.uploadFailed');
      }
    },
  );
};
