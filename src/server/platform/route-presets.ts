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
 * `writesPerMinute` a minute for each member). `read(schema)` and `write(schema)` are a route's
 * whole options: `signedIn` or `writes`, and its schema with the module's tags and security.
 */
export function memberRoutes(app: FastifyInstance, tag: string, writesPerMinute: number) {
  const tags = [tag];
  const security = [{ session: [] }];
  const signedIn = { preHandler: app.requireUser };
  const writes = {
    preHandler: app.requireUser,
    config: memberWriteLimit(writesPerMinute, '1 minute'),
  };
  return {
    tags,
    security,
    signedIn,
    writes,
    read: <S extends object>(schema: S) => ({ ...signedIn, schema: { tags, security, ...schema } }),
    write: <S extends object>(schema: S) => ({ ...writes, schema: { tags, security, ...schema } }),
  };
}

/**
 * A numbered page of a list (`?page=`, the first when not given): `read(page, pageSize)` reads
 * that page's items and how many there are in all; the answer adds the page and its size.
 */
export async function numberedPage<T>(
  page: number | undefined,
  pageSize: number,
  read: (page: number, pageSize: number) => Promise<{ items: T[]; total: number }>,
) {
  const { items, total } = await read(page ?? 1, pageSize);
  return { items, total, page: page ?? 1, pageSize };
}
