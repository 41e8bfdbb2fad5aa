import { z } from 'zod';
import {
  contactAnswerSchema,
  contactSellerSchema,
  directRoomSchema,
  groupRoomSchema,
  messageAnswerSchema,
  messagesPageSchema,
  messagesQuerySchema,
  roomAnswerSchema,
  roomsPageSchema,
  roomsQuerySchema,
  sendMessageSchema,
  unreadSchema,
  chatRoomSchema,
  ROOMS_PAGE_SIZE,
} from '@shared/schemas/chats';
import type { Module } from '../../platform/module';
import { idParam, memberRoutes } from '../../platform/route-presets';
import { currentUser } from '../../platform/auth';
import { registerLiveChat } from './events';
import { queryOf } from '../../db/tx';
import { createChatService } from './service';
import { errorSchema, validationFailed, errorResponses } from '../../platform/errors';
import { CHAT_SENDS_PER_MINUTE, clientIdField } from './send';
import { registerSendFrame } from './send-frame';
import { createListingAnnouncer } from './listing-events';

const roomParams = idParam('roomId');
const messageParams = z.object({ roomId: z.string().max(64), messageId: z.string().max(64) });
const noContent = z.null().describe('No content');
const sendBody = sendMessageSchema.extend({ clientId: clientIdField().optional() });
const sendHeaders = z.looseObject({ 'idempotency-key': clientIdField().optional() });

/** Errors every signed-in chat route can answer. */
const common = { 401: errorSchema, 403: errorSchema };

/**
 * Chats: rooms, messages, contacting a seller and offers, with live events
 * through the realtime service. A room that does not exist and a room the member is not in
 * answer the same 403, so a non-participant learns nothing of it.
 */
export const chatRoutes: Module = async (app, deps) => {
  const { database, realtime, mailer, config, now, notifications } = deps;
  const chats = createChatService({
    database,
    realtime,
    mailer,
    config,
    now,
    notifications,
    listingChanges: deps.listingChanges,
    changes: deps.changes,
    log: app.log,
  });
  registerLiveChat({ realtime, query: queryOf(database), log: app.log, now });
  registerSendFrame({ realtime, chats, query: queryOf(database), log: app.log, now });
  // The conversations' cards follow a listing an offer or a deal changed (platform/changes.ts).
  const cards = createListingAnnouncer({ realtime, query: queryOf(database), log: app.log });
  deps.changes.on('listings.status', async ({ listingIds }) => {
    for (const l of listingIds) await cards.announce(l);
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled([...chats.background]);
  });

  const { tags, security, signedIn, read, write } = memberRoutes(app, 'chats', 120);
  /** Something I do to one of my rooms (leave it, mark it read), answered 204. */
  const roomAction = (
    method: 'post' | 'delete',
    path: string,
    summary: string,
    act: (userId: string, roomId: string) => Promise<unknown>,
  ) =>
    app[method](
      `/api/chats/rooms/:roomId/${path}`,
      write({ summary, params: roomParams, response: { 204: noContent, ...common } }),
      async (request, reply) => {
        await act(currentUser(request).id, request.params.roomId);
        return reply.status(204).send(null);
      },
    );

  app.get(
    '/api/chats/rooms',
    read({
      summary: 'My rooms, latest activity first, with unread counts and who is online',
      querystring: roomsQuerySchema,
      response: { 200: roomsPageSchema, ...errorResponses(400, 401) },
    }),
    async (request) =>
      chats.rooms(
        currentUser(request).id,
        request.query.page ?? 1,
        request.query.pageSize ?? ROOMS_PAGE_SIZE,
      ),
  );

  app.get(
    '/api/chats/unread',
    read({
      summary: 'Unread messages over all my rooms',
      response: { 200: unreadSchema, ...errorResponses(401) },
    }),
    async (request) => ({ total: await chats.unread(currentUser(request).id) }),
  );

  app.get(
    '/api/chats/rooms/:roomId',
    read({
      summary: 'One of my rooms',
      params: roomParams,
      response: { 200: chatRoomSchema, ...common },
    }),
    async (request) => chats.room(request.params.roomId, currentUser(request).id),
  );

  app.post(
    '/api/chats/direct',
    write({
      summary:
        'Get or create the one direct room with a member (201 when created); 403 when a block stands between us (a neutral message)',
      body: directRoomSchema,
      response: {
        200: roomAnswerSchema,
        201: roomAnswerSchema,
        ...errorResponses(400, 401, 403, 404),
      },
    }),
    async (request, reply) => {
      const { room, created } = await chats.direct(currentUser(request).id, request.body.userId);
      return reply.status(created ? 201 : 200).send({ room });
    },
  );

  app.post(
    '/api/chats/rooms',
    write({
      summary: 'Create a group room with at least two friends (creator included)',
      body: groupRoomSchema,
      response: { 201: roomAnswerSchema, ...errorResponses(400, 401) },
    }),
    async (request, reply) => {
      const room = await chats.createGroup(currentUser(request).id, request.body);
      return reply.status(201).send({ room });
    },
  );

  roomAction('delete', 'participants/me', 'Leave a room', chats.leave);

  app.get(
    '/api/chats/rooms/:roomId/messages',
    read({
      summary: 'A page of messages, oldest first: 50 before `before` (latest), or after `after`',
      description:
        '`after` answers up to 200 messages after that one (catch-up after a reconnect); ' +
        'an unknown cursor answers no messages.',
      params: roomParams,
      querystring: messagesQuerySchema,
      response: { 200: messagesPageSchema, ...common, ...errorResponses(400) },
    }),
    async (request) =>
      chats.messages(currentUser(request).id, request.params.roomId, request.query),
  );

  app.post(
    '/api/chats/rooms/:roomId/messages',
    {
      // Counted in the sending statement itself; the socket's chat.send frames have their own
      // budget in memory (send.ts, docs/decisions/0077).
      ...signedIn,
      schema: {
        tags,
        security,
        summary:
          'Send a message (trimmed, 1 to 4,000 characters); 403 with a neutral message in a direct conversation when a block stands between its two members',
        description:
          'The same as the socket frame `chat.send` (docs/realtime.md). An optional client id, ' +
          'a UUID the client made, in the body (`clientId`) or the `Idempotency-Key` header (both: ' +
          'the same), makes a retry safe: a message already stored with this id by this member ' +
          'answers 200 with the stored message and is neither stored nor delivered again; the ' +
          'same id in another room answers 409. At most ' +
          `${CHAT_SENDS_PER_MINUTE} messages a minute by HTTP, counted across server processes ` +
          '(429); the socket frame spends its own budget (docs/realtime.md).',
        params: roomParams,
        headers: sendHeaders,
        body: sendBody,
        response: {
          200: messageAnswerSchema.describe('Already stored with this client id'),
          201: messageAnswerSchema,
          ...common,
          ...errorResponses(400, 409, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const header = request.headers['idempotency-key'];
      const { content, clientId = header } = request.body;
      if (header !== undefined && clientId !== header)
        throw validationFailed({ clientId: 'chatApi.validation.clientIdInvalid' });
      const result = await chats.send(
        currentUser(request).id,
        request.params.roomId,
        content,
        clientId ?? null,
      );
      await chats.deliver(result);
      return reply.status(result.created ? 201 : 200).send({ message: result.message });
    },
  );

  app.patch(
    '/api/chats/rooms/:roomId/messages/:messageId',
    write({
      summary: 'Edit my message',
      params: messageParams,
      body: sendMessageSchema,
      response: { 200: messageAnswerSchema, ...common, ...errorResponses(400, 404) },
    }),
    async (request) => ({
      message: await chats.edit(
        currentUser(request).id,
        request.params.roomId,
        request.params.messageId,
        request.body.content,
      ),
    }),
  );

  app.delete(
    '/api/chats/rooms/:roomId/messages/:messageId',
    write({
      summary: 'Delete my message (its content is removed; the place stays)',
      params: messageParams,
      response: { 204: noContent, ...common, ...errorResponses(404) },
    }),
    async (request, reply) => {
      await chats.remove(currentUser(request).id, request.params.roomId, request.params.messageId);
      return reply.status(204).send(null);
    },
  );

  roomAction('post', 'read', 'Mark the room read up to its newest message', chats.markRead);

  app.post(
    '/api/chats/contact',
    write({
      summary: 'Contact a seller about a listing: the direct room, a card of it, then the text',
      description:
        'A listing hidden by a moderator, of a suspended seller or across a block is 404, as ' +
        '`GET /api/listings/:id` answers (platform/reach.ts). A seller on holiday is contacted ' +
        'all the same: their automatic reply says when they are back (decision 0087). The ' +
        "pair's one direct room is about this listing from then on (the room's `listing`, " +
        'issue 33): a conversation may discuss several books over time.',
      body: contactSellerSchema,
      response: { 201: contactAnswerSchema, ...errorResponses(400, 401, 404, 409, 500) },
    }),
    async (request, reply) => {
      const result = await chats.contact(
        currentUser(request).id,
        request.body.listingId,
        request.body.content,
      );
      return reply.status(201).send(result);
    },
  );
};
