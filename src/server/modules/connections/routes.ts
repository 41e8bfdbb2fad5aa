import { z } from 'zod';
import type { Module } from '../../platform/module';
import { idParam, memberRoutes, memberWriteLimit } from '../../platform/route-presets';
import {
  FRIENDS_PAGE_SIZE,
  FRIEND_SEARCH_PAGE_SIZE,
  REQUESTS_PAGE_SIZE,
  connectionRequestsQuerySchema,
  connectionRequestsSchema,
  connectionSchema,
  connectionStatusSchema,
  friendPageSchema,
  friendSearchPageSchema,
  friendSearchQuerySchema,
  friendsQuerySchema,
  sendConnectionSchema,
} from '@shared/connections';
import { currentUser } from '../../platform/auth';
import { listFriends, listRequests, searchMembers } from './queries';
import { createConnectionService } from './service';
import { defineFriendNotifications } from './notifications';
import { errorSchema, errorResponses } from '../../platform/errors';

const idParams = idParam('id');
const userParams = idParam('userId');

export const connectionRoutes: Module = async (app, { database, realtime, notifications }) => {
  defineFriendNotifications(notifications, database);
  const connections = createConnectionService({ database, realtime, notifications, log: app.log });
  const { tags, security, read, write } = memberRoutes(app, 'connections', 60);
  const errors = { 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };

  app.get(
    '/api/connections',
    read({
      summary:
        'My friends, most interactions first (completed transactions between us + reactions)',
      querystring: friendsQuerySchema,
      response: { 200: friendPageSchema, ...errorResponses(400, 401) },
    }),
    async (request) => {
      const page = request.query.page ?? 1;
      const result = await listFriends(database, currentUser(request).id, page, FRIENDS_PAGE_SIZE);
      return { ...result, page, pageSize: FRIENDS_PAGE_SIZE };
    },
  );

  app.get(
    '/api/connections/requests',
    read({
      summary: 'Pending requests sent to me (incoming) and by me (outgoing), newest first',
      querystring: connectionRequestsQuerySchema,
      response: { 200: connectionRequestsSchema, ...errorResponses(400, 401) },
    }),
    async (request) => {
      const me = currentUser(request).id;
      const incomingPage = request.query.incomingPage ?? 1;
      const outgoingPage = request.query.outgoingPage ?? 1;
      const [incoming, outgoing] = await Promise.all([
        listRequests(database, me, 'incoming', incomingPage, REQUESTS_PAGE_SIZE),
        listRequests(database, me, 'outgoing', outgoingPage, REQUESTS_PAGE_SIZE),
      ]);
      return {
        incoming: { ...incoming, page: incomingPage, pageSize: REQUESTS_PAGE_SIZE },
        outgoing: { ...outgoing, page: outgoingPage, pageSize: REQUESTS_PAGE_SIZE },
      };
    },
  );

  app.get(
    '/api/connections/search',
    {
      // A member directory: slowed down enough that it cannot be scraped in bulk.
      preHandler: app.requireUser,
      config: memberWriteLimit(120, '1 minute'),
      schema: {
        tags,
        security,
        summary:
          'Find members by username or name (at least 2 characters), with how I stand with each',
        querystring: friendSearchQuerySchema,
        response: { 200: friendSearchPageSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const result = await searchMembers(
        database,
        currentUser(request).id,
        request.query.q,
        page,
        FRIEND_SEARCH_PAGE_SIZE,
      );
      return { ...result, page, pageSize: FRIEND_SEARCH_PAGE_SIZE };
    },
  );

  app.get(
    '/api/connections/status/:userId',
    read({
      summary: 'How I stand with a member: none, pending-outgoing, pending-incoming or accepted',
      params: userParams,
      response: { 200: connectionStatusSchema, ...errorResponses(401) },
    }),
    async (request) => connections.status(currentUser(request).id, request.params.userId),
  );

  app.post(
    '/api/connections',
    write({
      summary:
        'Send a friend request (409 when any connection exists between us, either direction; 403 with a neutral message when a block stands between us)',
      body: sendConnectionSchema,
      response: { 201: connectionSchema, ...errors, ...errorResponses(400) },
    }),
    async (request, reply) => {
      const connection = await connections.send(currentUser(request).id, request.body.userId);
      return reply.status(201).send(connection);
    },
  );

  app.post(
    '/api/connections/:id/accept',
    write({
      summary: 'Accept a request sent to me (the addressee only)',
      params: idParams,
      response: { 200: connectionSchema, ...errors },
    }),
    async (request) => connections.accept(currentUser(request).id, request.params.id),
  );

  app.post(
    '/api/connections/:id/decline',
    write({
      summary: 'Decline a request sent to me (the addressee only); the request is deleted',
      params: idParams,
      response: { 204: z.null().describe('Declined'), ...errors },
    }),
    async (request, reply) => {
      await connections.decline(currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/connections/:id',
    write({
      summary: 'Cancel a request I sent (while pending) or remove a friend (either friend)',
      params: idParams,
      response: { 204: z.null().describe('Removed'), ...errors },
    }),
    async (request, reply) => {
      await connections.remove(currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
