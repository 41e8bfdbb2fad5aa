import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from './errors';

/** The signed-in member as every module sees it. */
export interface SessionUser {
  id: string;
  email: string;
  displayName: string;
  username: string | null;
  emailVerified: boolean;
  /**
   * The session behind the request: realtime sockets remember it, so ending the session closes
   * them. Absent for members made up by tests and scripts.
   */
  session?: { id: string; expiresAt: Date };
}

/** What the accounts issue plugs in: resolve the session behind a request, if any. */
export interface SessionResolver {
  resolve(request: FastifyRequest, reply: FastifyReply): Promise<SessionUser | null>;
  /**
   * Called before the answer to a request that is not a GET leaves (e.g. to forget cached
   * sessions of a member who just signed out or changed their password).
   */
  afterWrite?(request: FastifyRequest): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 'Unauthorized. Please login.' unless signed in. */
    requireUser: (request: FastifyRequest) => Promise<void>;
  }
}

export function registerSessionSeam(app: FastifyInstance, resolver?: SessionResolver): void {
  app.decorateRequest('user', null);
  app.decorate('requireUser', async (request: FastifyRequest) => {
    if (!request.user) throw unauthorized();
  });
  if (!resolver) return;
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    request.user = await resolver.resolve(request, reply);
  });
  const { afterWrite } = resolver;
  if (!afterWrite) return;
  // onSend: before the answer reaches the client, so its next request cannot beat it.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') afterWrite.call(resolver, request);
    return payload;
  });
}

/** The authenticated user of a route guarded by app.requireUser. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
