import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage } from '../i18n';
import { CLIENT_IP_HEADER } from './instance';
import { convertAuthError } from './errors';

const hopByHop = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  CLIENT_IP_HEADER,
]);

/** The Fastify request's headers as Fetch Headers, plus the client address Fastify resolved. */
export function toFetchHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined || hopByHop.has(key)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, String(value));
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  return headers;
}

/** Copies the Set-Cookie headers of a better-auth answer onto our reply. */
export function forwardCookies(from: Headers, reply: FastifyReply): void {
  const cookies = from.getSetCookie();
  if (cookies.length) {
    const existing = reply.getHeader('set-cookie');
    const before = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
    reply.header('set-cookie', [...before.map(String), ...cookies]);
  }
}

const skipped = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'set-cookie']);

/**
 * Sends a better-auth Fetch Response through Fastify. Error answers are rewritten into our
 * {"error": {code, message, fields?}} format, in the request's language.
 */
export async function sendAuthResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  response: Response,
): Promise<FastifyReply> {
  forwardCookies(response.headers, reply);
  const type = response.headers.get('content-type') ?? '';
  if (response.status >= 400) {
    let body: unknown;
    if (type.includes('json')) body = await response.json().catch(() => undefined);
    else await response.body?.cancel();
    const retryAfter = response.headers.get('retry-after') ?? response.headers.get('x-retry-after');
    if (retryAfter) reply.header('retry-after', retryAfter);
    const converted = convertAuthError(response.status, body, requestLanguage(request));
    return reply.status(converted.status).send(converted.body);
  }
  response.headers.forEach((value, key) => {
    if (!skipped.has(key)) reply.header(key, value);
  });
  reply.status(response.status);
  if (!response.body) return reply.send();
  return reply.send(Buffer.from(await response.arrayBuffer()));
}
