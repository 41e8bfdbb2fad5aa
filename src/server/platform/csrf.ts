import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** True when a state-changing request demonstrably comes from our own pages. */
export function isSameOrigin(request: FastifyRequest, allowedOrigins: readonly string[]): boolean {
  if (header(request, 'sec-fetch-site') === 'same-origin') return true;
  const origin = header(request, 'origin') ?? originOf(header(request, 'referer'));
  return origin !== undefined && allowedOrigins.includes(origin);
}

/**
 * Cross-site request forgery protection for the API: every POST, PUT, PATCH and DELETE under /api
 * (better-auth's mount included) must come from PUBLIC_URL's origin (config.trustedOrigins), shown by the Origin header,
 * or without it by the Referer, or by Sec-Fetch-Site: same-origin. Otherwise 403 'Access denied'.
 * GET and HEAD never change state. Session cookies are also SameSite=Lax. `exempt` paths are
 * called by other servers, carry no session and prove themselves otherwise (Stripe's webhook, by
 * its signature).
 */
export function registerCsrfProtection(
  app: FastifyInstance,
  allowedOrigins: readonly string[],
  exempt: readonly string[] = [],
): void {
  app.addHook('onRequest', async (request) => {
    if (!UNSAFE.has(request.method)) return;
    if (request.url !== '/api' && !request.url.startsWith('/api/')) return;
    if (exempt.includes(request.url.split('?')[0])) return;
    if (!isSameOrigin(request, allowedOrigins)) throw forbidden();
  });
}
