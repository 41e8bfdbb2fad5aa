import type { FastifyRequest } from 'fastify';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** True only for a TCP peer on this machine; proxies' X-Forwarded-For is deliberately ignored. */
export function isLoopback(request: FastifyRequest): boolean {
  const address = request.raw.socket.remoteAddress ?? '';
  return LOOPBACK.has(address) || address.startsWith('127.');
}
