import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * Route settings more than one module uses, written once.
 *
 * The rate-limit key of a request: the signed-in member, or the client address for a visitor.
 * Members behind one address (a school, an office, a mobile carrier's NAT) each get their own
 * budget; one member cannot get more by changing address.
 */
export const perMember = (request: FastifyRequest): string => request.user?.id ?? request.ip;

/**
 * Route `config` of a member's writes: at most `max` requests in `timeWindow` (for instance
 * '1 minute') for each member. Spread it to add more: `{ ...memberWriteLimit(30, '1 minute') }`.
 */
export function memberWriteLimit(max: number, timeWindow: string) {
  return { rateLimit: { max, timeWindow, keyGenerator: perMember } };
}

/**
 * Path parameters naming one row: `idParam('postId')` is `{ postId: string }` of at most 64
 * characters (an id that is no UUID is the service's 404, as a missing one).
 */
export const idParam = <K extends string>(name: K) =>
  z.object({ [name]: z.string().max(64) } as Record<K, z.ZodString>);

/**
 * What a module's member routes share: the OpenAPI `tags` and `security`, `signedIn` for the
 * routes that need a session, and `writes` for its state changes (a session, and at most
 * `writesPerMinute` a minute for each member).
 */
export function memberRoutes(app: FastifyInstance, tag: string, writesPerMinute: number) {
  return {
    tags: [tag],
    security: [{ session: [] }],
    signedIn: { preHandler: app.requireUser },
    writes: {
      preHandler: app.requireUser,
      config: memberWriteLimit(writesPerMinute, '1 minute'),
    },
  };
}
