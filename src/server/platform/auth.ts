import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorSchema, unauthorized } from './errors';

/** The signed-in member as every module sees it. */
export interface SessionUser {
  id: string;
  email: string;
  displayName: string;
  username: string | null;
  emailVerified: boolean;
  /**
   * No acceptance of the terms on record (a Google sign-up, or an account older than the terms
   * at sign-up, decision 0093): such a member may read, accept the terms, take their data or
   * leave, and nothing else until they accept. Absent (accepted) for members made up by tests.
   */
  needsTerms?: boolean;
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
    /**
     * preHandler: 401 'Unauthorized. Please login.' unless signed in. (The terms' 403 is the
     * session hook's, for every route.)
     */
    requireUser: (request: FastifyRequest) => Promise<void>;
  }
}

export function registerSessionSeam(app: FastifyInstance, resolver?: SessionResolver): void {
  app.decorateRequest('user', null);
  // Named: the OpenAPI document finds the routes it guards by this name (withTermsRefusal).
  app.decorate('requireUser', async function requireUser(request: FastifyRequest) {
    if (!request.user) throw unauthorized();
  });
  if (!resolver) return;
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    request.user = await resolver.resolve(request, reply);
    // The terms gate for every route, whatever guards it (requireUser, an upload's own check, an
    // admin's): a route cannot be added that forgets it. The chat socket's sends check it in SQL.
    if (request.user?.needsTerms && changes(request) && !termsExempt(request))
      throw termsRequired();
  });
  const { afterWrite } = resolver;
  if (!afterWrite) return;
  // onSend: before the answer reaches the client, so its next request cannot beat it.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') afterWrite.call(resolver, request);
    return payload;
  });
}

/** A request that changes something: any method but a read. */
const changesWith = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);
const changes = (request: FastifyRequest) => changesWith(request.method);

/**
 * What a member who has not accepted the terms may still change: accept them (and finish the
 * first-visit page) with PATCH /api/me, take their data, delete the account, end their other
 * sessions; sign in and out (better-auth's routes), write to support, and what a visitor's page
 * sends without being a change of theirs (an ad's impressions, Stripe's webhook, the dev tools).
 */
const TERMS_EXEMPT: ReadonlyArray<[method: string, path: RegExp]> = [
  ['PATCH', /^\/api\/me$/],
  ['POST', /^\/api\/me\/export$/],
  ['POST', /^\/api\/me\/delete$/],
  ['DELETE', /^\/api\/me\/sessions\/others$/],
  ['POST', /^\/api\/auth\/[\w/-]+$/],
  ['POST', /^\/api\/accounts\/sign-in$/],
  ['POST', /^\/api\/contact$/],
  ['POST', /^\/api\/ads\/[^/]+\/events$/],
  ['POST', /^\/api\/payments\/webhook$/],
  ['POST', /^\/api\/dev\/[\w/-]+$/],
];

const exemptFromTerms = (method: string, path: string) =>
  TERMS_EXEMPT.some(([m, pattern]) => m === method && pattern.test(path));

const termsExempt = (request: FastifyRequest) =>
  exemptFromTerms(request.method, request.url.split('?')[0]);

export const termsRequired = () => new AppError(403, 'terms_required', 'auth.errors.termsRequired');

/** The authenticated user of a route guarded by app.requireUser. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * The OpenAPI document's side of the terms gate: a member's route (guarded by requireUser or
 * answering 401) that changes something also answers 403 `terms_required` (added where the route
 * documents no 403 of its own).
 */
export function withTermsRefusal<T extends { schema?: unknown; route?: unknown; url?: string }>(
  args: T,
): T {
  const route = args.route as
    { method?: string | string[]; preHandler?: unknown; url?: string } | undefined;
  const schema = args.schema as { response?: Record<string, unknown> } | undefined;
  if (!route || !schema?.response) return args;
  const guards = [route.preHandler].flat();
  const methods = [route.method ?? 'GET'].flat();
  const guarded = guards.some((g) => (g as { name?: string } | undefined)?.name === 'requireUser');
  // A member's route: guarded by requireUser, or answering 401 without a session.
  const forMembers = guarded || '401' in schema.response;
  const changing = methods.some(changesWith);
  const exempt = methods.every((m) => exemptFromTerms(m, route.url ?? ''));
  if (!forMembers || !changing || exempt || schema.response['403']) return args;
  return {
    ...args,
    schema: {
      ...schema,
      response: {
        ...schema.response,
        403: errorSchema.describe(
          'terms_required: the member has not accepted the terms of service yet',
        ),
      },
    },
  };
}
