import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError, forbidden, unauthorized } from '../errors';
import { CLOSE, type SocketHub } from './sockets';
import { errorSchema } from './../errors';

const DESCRIPTION = `Opens the tab's WebSocket (HTTP upgrade; answers 101 Switching Protocols).
The handshake needs the session cookie and an Origin among the site's own origins; otherwise it is
refused before the socket opens. Frames are JSON objects with a string \`type\`, at most 16 KB,
at most 20 a second (bursts of 40). Client frames: \`{"type":"subscribe","topic":"kind:id"}\`,
\`{"type":"unsubscribe","topic":"kind:id"}\` and feature frames (e.g. \`chat.typing\`). Server
frames: feature events, \`{"type":"subscribed","topic"}\` and \`{"type":"error","status","topic"?}\`.
A draining process (SIGTERM) refuses the handshake with 503. Close codes: 1001 server closing, 1008 malformed frame or rate limit, 1009 frame too large,
1012 reconnect after a random 0.5-5 s and fetch what you missed (the process is draining, or
events may have been lost), 4401 the session this socket was opened with ended
(sign-out, password reset, suspension...: do not reconnect unless signed in again), 4429 the
member already holds the most sockets allowed (wait before trying again). The frame rate, topic
count and socket count are budgets of the member, shared by all their sockets. A plain GET
without the upgrade answers 426.`;

export interface RouteOptions {
  trustedOrigins: readonly string[];
  maxFrameBytes: number;
  hub: SocketHub;
  isClosed: () => boolean;
}

/**
 * A socket's error: ws already answered a protocol error (1009 for an oversized frame) with its
 * close frame; only a socket still open after an error is cut. One function for every socket, so
 * that no socket keeps a closure (and what it closes over) of its own.
 */
function onSocketError(this: WebSocket) {
  if (this.readyState === this.OPEN) this.terminate();
}

/**
 * Lets go of the handshake once the socket is accepted, so that an idle socket keeps only the
 * hub's record of it (docs/decisions/0081). @fastify/websocket leaves two references that would
 * otherwise keep the whole HTTP exchange alive as long as the socket (about 8 KB a socket: the
 * Fastify request and reply, the raw IncomingMessage with its headers, the ServerResponse with
 * the security headers, the session object): its `error` listener, a closure over the request
 * and reply, and the ServerResponse it assigned to the TCP socket (`socket._httpMessage`).
 */
function releaseHandshake(ws: WebSocket) {
  ws.removeAllListeners('error');
  ws.on('error', onSocketError);
  // Detaching the ServerResponse from the TCP socket (`socket._httpMessage`) as well would free
  // the IncomingMessage and ServerResponse (about 2.4 KB a socket), but the app then never
  // finishes closing (the realtime close test times out): not done (docs/decisions/0081).
}

/** GET /api/realtime: the handshake is checked by Fastify hooks, so a refusal is plain HTTP. */
export async function registerRealtimeRoute(app: FastifyInstance, opts: RouteOptions) {
  const { hub } = opts;
  await app.register(async (scope) => {
    await scope.register(websocket, {
      options: { maxPayload: opts.maxFrameBytes, perMessageDeflate: false },
      preClose(done) {
        hub.closeAll(CLOSE.goingAway, 'server closing');
        // Clients that do not answer the close handshake are cut after a short grace.
        const wss = scope.websocketServer;
        setTimeout(() => {
          for (const client of wss.clients) client.terminate();
        }, 1000).unref();
        wss.close(() => done());
      },
      // ws already answered a protocol error (1009 for an oversized frame) with its close frame;
      // only a socket still open after an error is cut.
      errorHandler(error, socket: WebSocket, request) {
        request.log.debug({ err: error }, 'realtime socket error');
        if (socket.readyState === socket.OPEN) socket.terminate();
      },
    });

    const checkHandshake = async (request: FastifyRequest) => {
      const origin = request.headers.origin;
      if (!origin || !opts.trustedOrigins.includes(origin)) throw forbidden();
      if (!request.user) throw unauthorized();
      if (opts.isClosed()) throw new AppError(503, 'unavailable', 'realtime.errors.unavailable');
    };

    scope.route({
      method: 'GET',
      url: '/api/realtime',
      schema: {
        tags: ['realtime'],
        summary: "The tab's live connection (WebSocket)",
        description: DESCRIPTION,
        security: [{ session: [] }],
        response: { 401: errorSchema, 403: errorSchema, 426: errorSchema, 503: errorSchema },
      },
      preHandler: checkHandshake,
      handler: async (_request, reply) => {
        reply.header('upgrade', 'websocket');
        throw new AppError(426, 'upgrade_required', 'realtime.errors.upgradeRequired');
      },
      wsHandler: (socket, request) => {
        releaseHandshake(socket);
        hub.accept(socket, request.user!.id, request.user!.session);
      },
    });
  });
}
