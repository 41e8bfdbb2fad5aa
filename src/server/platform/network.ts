import type { FastifyRequest } from 'fastify';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** True only for a TCP peer on this machine; proxies' X-Forwarded-For is deliberately ignored. */
export function isLoopback(request: FastifyRequest): boolean {
  const address = request.raw.socket.remoteAddress ?? '';
  return LOOPBACK.has(address) || address.startsWith('127.');
}

/** Headers a reverse proxy adds; a request carrying any of them did not come from this machine. */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'];

/**
 * A request made on this machine and to this process directly. A reverse proxy on the same host
 * connects from loopback on behalf of any visitor, so a forwarding header alone disqualifies it.
 */
export function isDirectLoopback(request: FastifyRequest): boolean {
  if (!isLoopback(request)) return false;
  const headers = request.raw.headers;
  if (PROXY_HEADERS.some((name) => headers[name] !== undefined)) return false;
  return !Object.keys(headers).some((name) => name.startsWith('x-forwarded-'));
}
