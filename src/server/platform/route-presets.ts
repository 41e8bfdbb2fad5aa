import type { FastifyRequest } from 'fastify';

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
